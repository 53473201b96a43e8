import { randomBytes } from 'node:crypto';
import { DEVICE_TOPICS } from '@sitewatch/contracts';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { DEMO_TENANTS, seedFoundation } from '../src/demo/foundation.ts';
import { MqttPortInUseError, startEmbeddedBroker } from '../src/platform/mqtt/broker.ts';
import { startExternalConsumer } from '../src/platform/mqtt/external.ts';
import { freshDatabase } from './support/database.ts';
import { createTestApp, type TestApp } from './support/harness.ts';
import { machineLock } from './support/machine-lock.ts';
import { connectDevice, devicePost, endClient, eventually, freePort, makeDevice, publish } from './telemetry-fixtures.ts';

const MOSQUITTO = 'mqtt://127.0.0.1:1883';
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const storedCount = async (t: Pick<TestApp, 'db'>, deviceId: number) =>
  Number(
    (
      await t.db
        .selectFrom('telemetry')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('device_id', '=', deviceId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('QoS 1 durability', () => {
  it('stores every message acknowledged before a server restart', async () => {
    const database = await freshDatabase();
    // one device sends a burst: its rate limit is off, the test is about durability
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DEMO: 'false',
      WEB_DIST: '/nonexistent',
      TELEMETRY_FLUSH_MS: '20',
      TELEMETRY_RATE_LIMIT_DEVICE_MESSAGES: '',
    } as const;
    const config = loadConfig(env);
    const { app: first, handles } = await buildApp({ config, database, logger: false });
    await first.ready();
    const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
    const device = await makeDevice(database.db, tenantId);
    const port = await freePort();
    await handles.telemetry.runtime.startMqtt({ port });
    const client = await connectDevice(`mqtt://127.0.0.1:${port}`, { username: device.token, reconnectPeriod: 0 });
    const sends = Array.from({ length: 300 }, (_, i) =>
      publish(client, DEVICE_TOPICS.telemetry, JSON.stringify({ seq: i, load: i / 3 }), 1),
    );
    const acked = (await Promise.allSettled(sends)).filter((s) => s.status === 'fulfilled').length;
    expect(acked).toBe(300);
    // acknowledged means committed: every acked message is in the table before anything else happens
    expect(await storedCount({ db: database.db }, device.id)).toBe(600);
    client.end(true);
    await first.close();

    const { app: second } = await buildApp({ config, database, logger: false });
    await second.ready();
    expect(await storedCount({ db: database.db }, device.id)).toBe(600);
    const seqs = await database.db
      .selectFrom('telemetry')
      .select('num')
      .where('device_id', '=', device.id)
      .where('key', '=', 'seq')
      .execute();
    expect(new Set(seqs.map((r) => r.num)).size).toBe(300);
    await second.close();
    await database.close();
  }, 120_000);
});

describe('latest values after a crash', () => {
  it('catches the latest values and the stored state up with the history at start', async () => {
    const database = await freshDatabase();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DEMO: 'false',
      WEB_DIST: '/nonexistent',
      TELEMETRY_FLUSH_MS: '20',
      // the coalesced write of the latest values never comes before the crash
      TELEMETRY_LATEST_FLUSH_MS: '3600000',
    } as const;
    const config = loadConfig(env);
    const { app: crashed, handles } = await buildApp({ config, database, logger: false });
    await crashed.ready();
    const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
    const streaming = await makeDevice(database.db, tenantId);
    const port = await freePort();
    await handles.telemetry.runtime.startMqtt({ port });
    const client = await connectDevice(`mqtt://127.0.0.1:${port}`, { username: streaming.token, reconnectPeriod: 0 });
    for (let i = 0; i < 60; i++)
      await publish(client, DEVICE_TOPICS.telemetry, JSON.stringify({ ts: Date.now() - 60 + i, values: { n: i, armed: i % 2 === 0 } }), 1);
    client.end(true);
    const latestOf = async (deviceId: number) =>
      Object.fromEntries(
        (await database.db.selectFrom('telemetry_latest').select(['key', 'value']).where('device_id', '=', deviceId).execute()).map((r) => [
          r.key,
          r.value,
        ]),
      );
    const stateOf = async (deviceId: number) =>
      (await database.db.selectFrom('devices').select('state').where('id', '=', deviceId).executeTakeFirstOrThrow()).state;
    // every message acknowledged is stored, but what the device page shows as current stayed behind
    expect(await storedCount({ db: database.db }, streaming.id)).toBe(120);
    expect(await latestOf(streaming.id)).toEqual({});
    expect((await stateOf(streaming.id)).n).toBe(0);

    // a process starting on the same database while the crashed one never wrote its coalesced values
    const { app: restarted, handles: after } = await buildApp({ config, database, logger: false });
    await restarted.ready();
    await after.telemetry.runtime.startBackground();
    expect(await latestOf(streaming.id)).toEqual({ n: 59, armed: false });
    expect(await stateOf(streaming.id)).toMatchObject({ n: 59, armed: false });
    const latestRows = await database.db.selectFrom('telemetry_latest').select(['ts']).where('device_id', '=', streaming.id).execute();
    const newest = await database.db
      .selectFrom('telemetry')
      .select((eb) => eb.fn.max('ts').as('ts'))
      .where('device_id', '=', streaming.id)
      .executeTakeFirstOrThrow();
    for (const row of latestRows) expect(new Date(row.ts).getTime()).toBe(new Date(newest.ts as Date).getTime());

    // once caught up, a second start moves nothing
    expect(await after.telemetry.ingest.catchUpLatest()).toBe(0);
    await restarted.close();
    await crashed.close();
    await database.close();
  }, 120_000);
});

describe('backpressure', () => {
  it('answers 503 with Retry-After over HTTP and holds QoS 1 acks over MQTT while the buffer is full', async () => {
    const t = await createTestApp({
      TELEMETRY_BUFFER_CAPACITY: '10',
      TELEMETRY_BATCH_SIZE: '1000',
      TELEMETRY_FLUSH_MS: '600000',
      TELEMETRY_TOKEN_CACHE_SECONDS: '60',
    });
    cleanups.push(() => t.close());
    const { ingest, runtime } = t.handles.telemetry;
    const device = await makeDevice(t.db, t.tenantA);
    const held = Array.from({ length: 10 }, (_, i) => devicePost(t, `/api/v1/${device.token}/telemetry`, { n: i }));
    await eventually(async () => ingest.buffer.full);
    const refused = await devicePost(t, `/api/v1/${device.token}/telemetry`, { n: 99 });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(ingest.stats().rejected.overloaded).toBe(1);

    await runtime.startMqtt({ port: await freePort() });
    const client = await connectDevice(`mqtt://127.0.0.1:${runtime.mqttPort}`, { username: device.token });
    let acked = false;
    const pending = publish(client, DEVICE_TOPICS.telemetry, JSON.stringify({ n: 100 }), 1).then(() => {
      acked = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(acked).toBe(false);
    expect(ingest.buffer.size).toBe(10);

    await ingest.buffer.drain();
    expect((await Promise.all(held)).map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    await eventually(async () => {
      await ingest.buffer.drain();
      return acked;
    });
    await pending;
    expect(await storedCount(t, device.id)).toBe(11);
    await endClient(client);
  }, 120_000);
});

describe('embedded broker port', () => {
  it('says clearly when the port is taken', async () => {
    const port = await freePort();
    const log = { info: () => undefined, warn: () => undefined };
    const first = await startEmbeddedBroker({
      host: '127.0.0.1',
      port,
      log,
      authenticate: async () => null,
      onPublish: async () => undefined,
    });
    await expect(
      startEmbeddedBroker({ host: '127.0.0.1', port, log, authenticate: async () => null, onPublish: async () => undefined }),
    ).rejects.toThrow(MqttPortInUseError);
    await expect(
      startEmbeddedBroker({ host: '127.0.0.1', port, log, authenticate: async () => null, onPublish: async () => undefined }),
    ).rejects.toThrow(/MQTT port \d+ is already in use.*MQTT_PORT.*MQTT_URL/);
    await first.close();
  });
});

describe('embedded broker under overload', () => {
  it('reads no further from a client that publishes while overloaded, still lets others connect, and takes it all once there is room', async () => {
    let overloaded = false;
    const received: number[] = [];
    const broker = await startEmbeddedBroker<string>({
      host: '127.0.0.1',
      port: await freePort(),
      log: { info: () => undefined, warn: () => undefined },
      authenticate: async (username) => username ?? null,
      onPublish: async (_device, _topic, payload) => {
        received.push(JSON.parse(payload.toString()).i);
      },
      overloaded: () => overloaded,
    });
    cleanups.push(() => broker.close());
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const flood = await connectDevice(url, { username: 'flood' });
    overloaded = true;
    // about 460 KB: more than one read of the socket takes
    const total = 2000;
    const padding = 'x'.repeat(200);
    for (let i = 0; i < total; i++) flood.publish(DEVICE_TOPICS.telemetry, JSON.stringify({ i, padding }), { qos: 0 });
    await eventually(async () => received.length > 0);
    await new Promise((r) => setTimeout(r, 300));
    const taken = received.length;
    expect(taken).toBeLessThan(total);
    await new Promise((r) => setTimeout(r, 300));
    expect(received.length).toBe(taken);

    const other = await connectDevice(url, { username: 'other' });
    overloaded = false;
    await eventually(async () => received.length === total);
    expect(received).toEqual(Array.from({ length: total }, (_, i) => i));
    await endClient(other);
    await endClient(flood);
  }, 60_000);
});

describe('external broker (the local Mosquitto)', () => {
  it('consumes v1/devices/{token}/telemetry with a shared subscription and splits the load between consumers', async () => {
    // Every subscriber of v1/devices/+/telemetry on the machine's Mosquitto gets what any test process publishes there
    // (the other Vitest pass runs this file at the same time): the counts below hold only while no other test uses it.
    const release = await machineLock('mosquitto');
    const group = `swtest${randomBytes(4).toString('hex')}`;
    const clientId = `sitewatch-test-${group}`;
    const ended: Array<{ close(): Promise<void> }> = [];
    // the lock is released as the test ends, not with the file
    onTestFinished(async () => {
      try {
        for (const c of ended) await c.close();
        // drop the persistent sessions left in Mosquitto
        for (const id of [clientId, `${clientId}-2`]) {
          const c = await mqtt.connectAsync(MOSQUITTO, { clientId: id, clean: true });
          await c.endAsync();
        }
      } finally {
        release();
      }
    });
    const t = await createTestApp({
      MQTT_URL: MOSQUITTO,
      MQTT_SHARE_GROUP: group,
      MQTT_CLIENT_ID: clientId,
      TELEMETRY_FLUSH_MS: '10',
      TELEMETRY_LATEST_FLUSH_MS: '0',
    });
    ended.push(t);
    const { runtime, ingest } = t.handles.telemetry;
    await runtime.startMqtt();
    const device = await makeDevice(t.db, t.tenantA);
    const publisher = await connectDevice(MOSQUITTO, {});
    ended.push({ close: () => endClient(publisher) });
    await publish(publisher, DEVICE_TOPICS.tokenTelemetry(device.token), JSON.stringify({ temperature: 19.5 }), 1);
    await eventually(async () => (await storedCount(t, device.id)) === 1);
    const latest = await t.db.selectFrom('telemetry_latest').select(['key', 'value']).where('device_id', '=', device.id).execute();
    expect(latest).toEqual([{ key: 'temperature', value: 19.5 }]);

    // unknown tokens and the `me` topic (no token through an external broker) are refused and counted
    const before = ingest.stats().rejected.unknown_token;
    await publish(publisher, DEVICE_TOPICS.tokenTelemetry('no-such-token'), '{"a":1}', 1);
    await publish(publisher, DEVICE_TOPICS.telemetry, '{"a":1}', 1);
    await eventually(async () => ingest.stats().rejected.unknown_token === before + 2);

    // a second consumer in the same group takes part of the messages
    let secondGot = 0;
    const second = await startExternalConsumer({
      url: MOSQUITTO,
      group,
      clientId: `${clientId}-2`,
      topics: ['v1/devices/+/telemetry'],
      log: { info: () => undefined, warn: () => undefined },
      onMessage: async (topic) => {
        if (topic === DEVICE_TOPICS.tokenTelemetry(device.token)) secondGot++;
        return { stored: Promise.resolve() };
      },
    });
    ended.unshift(second);
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 40; i++) await publish(publisher, DEVICE_TOPICS.tokenTelemetry(device.token), JSON.stringify({ i }), 1);
    await eventually(async () => secondGot + ((await storedCount(t, device.id)) - 1) === 40, 8000);
    expect(secondGot).toBeGreaterThan(0);
    expect((await storedCount(t, device.id)) - 1).toBeGreaterThan(0);
  }, 240_000);
});

describe('SUBSCRIBE outside the command topics', () => {
  it('answers # and $SYS/# with the refusal code 0x80 in the SUBACK, and grants the command topic', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const device = await makeDevice(t.db, t.tenantA);
    const port = await freePort();
    await t.handles.telemetry.runtime.startMqtt({ port });
    const client = await connectDevice(`mqtt://127.0.0.1:${port}`, { username: device.token, reconnectPeriod: 0 });
    try {
      const suback = (topics: Record<string, { qos: 0 | 1 }>) =>
        new Promise<number[]>((resolve) => {
          client.subscribe(topics, (error, granted) => {
            // mqtt.js reports a SUBACK with a refusal as an error carrying the packet
            resolve((error as { packet?: { granted: number[] } } | null)?.packet?.granted ?? (granted ?? []).map((g) => g.qos));
          });
        });
      expect(await suback({ '#': { qos: 1 } })).toEqual([128]);
      expect(await suback({ '$SYS/#': { qos: 0 } })).toEqual([128]);
      expect(await suback({ 'v1/devices/me/rpc/request/+': { qos: 1 } })).toEqual([1]);
    } finally {
      await endClient(client);
    }
  }, 120_000);
});
