import { DEVICE_TOPICS } from '@sitewatch/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createIngestBuffer } from '../src/modules/telemetry/buffer.ts';
import { createTestApp, type TestApp } from './support/harness.ts';
import { connectDevice, devicePost, endClient, freePort, makeDevice, publish } from './telemetry-fixtures.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const storedRows = async (t: Pick<TestApp, 'db'>, deviceId: number) =>
  Number(
    (
      await t.db
        .selectFrom('telemetry')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('device_id', '=', deviceId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('ingest buffer with a poison item', () => {
  it('splits a refused batch, dead-letters only the bad item and stores the rest', async () => {
    const written: number[] = [];
    const poisoned: number[] = [];
    const buffer = createIngestBuffer<number>({
      capacity: 100,
      batchSize: 50,
      flushIntervalMs: 5,
      sink: async (items) => {
        if (items.includes(13)) throw Object.assign(new Error('invalid byte sequence'), { code: '22021' });
        written.push(...items);
      },
      isPoison: (error) => (error as { code?: string }).code === '22021',
      onPoison: (item) => poisoned.push(item),
    });
    const stored = Array.from({ length: 40 }, (_, i) => buffer.addNow(i));
    await buffer.drain();
    await Promise.all(stored);
    expect(poisoned).toEqual([13]);
    expect(written.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i).filter((i) => i !== 13));
    expect(buffer.stats()).toMatchObject({ poisoned: 1, failures: 0, buffered: 0 });
  });

  it('keeps retrying a batch when the database is away (not poison)', async () => {
    let down = true;
    const buffer = createIngestBuffer<number>({
      capacity: 10,
      batchSize: 10,
      flushIntervalMs: 1,
      sink: async () => {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      isPoison: (error) => (error as { code?: string }).code === '22021',
    });
    const stored = buffer.addNow(1);
    await buffer.drain();
    expect(buffer.size).toBe(1);
    down = false;
    await buffer.drain();
    await stored;
    expect(buffer.size).toBe(0);
  });
});

describe('telemetry with values the database cannot take', () => {
  it('refuses a NUL in a value or key over HTTP and keeps storing everything else', async () => {
    const t = await createTestApp({ TELEMETRY_FLUSH_MS: '20' });
    cleanups.push(() => t.close());
    const { ingest } = t.handles.telemetry;
    const device = await makeDevice(t.db, t.tenantA);
    const bad = await devicePost(t, `/api/v1/${device.token}/telemetry`, { note: 'a\u0000b' });
    expect(bad.statusCode).toBe(400);
    const badKey = await devicePost(t, `/api/v1/${device.token}/telemetry`, { 'k\u0000': 1 });
    expect(badKey.statusCode).toBe(400);
    const badAttr = await devicePost(t, `/api/v1/${device.token}/attributes`, { fw: '\u0000' });
    expect(badAttr.statusCode).toBe(400);
    const good = await devicePost(t, `/api/v1/${device.token}/telemetry`, { load: 1, note: 'ok' });
    expect(good.statusCode).toBe(200);
    await ingest.buffer.drain();
    expect(await storedRows(t, device.id)).toBe(2);
    expect(ingest.stats().rejected.invalid_payload).toBe(3);
  });

  it('refuses a NUL over MQTT while QoS 1 acks and storage go on', async () => {
    const t = await createTestApp({ TELEMETRY_FLUSH_MS: '20' });
    cleanups.push(() => t.close());
    const { ingest, runtime } = t.handles.telemetry;
    const device = await makeDevice(t.db, t.tenantA);
    const other = await makeDevice(t.db, t.tenantB);
    await runtime.startMqtt({ port: await freePort() });
    const url = `mqtt://127.0.0.1:${runtime.mqttPort}`;
    const client = await connectDevice(url, { username: device.token });
    const otherClient = await connectDevice(url, { username: other.token });
    await publish(client, DEVICE_TOPICS.telemetry, JSON.stringify({ note: 'x\u0000y' }), 1);
    const sends = Array.from({ length: 20 }, (_, i) => [
      publish(client, DEVICE_TOPICS.telemetry, JSON.stringify({ seq: i }), 1),
      publish(otherClient, DEVICE_TOPICS.telemetry, JSON.stringify({ seq: i }), 1),
    ]).flat();
    await Promise.all(sends);
    expect(await storedRows(t, device.id)).toBe(20);
    expect(await storedRows(t, other.id)).toBe(20);
    expect(ingest.stats().rejected.invalid_payload).toBe(1);
    await endClient(client);
    await endClient(otherClient);
  }, 60_000);

  it('dead-letters a buffered message the database refuses and stores the rest of its batch', async () => {
    const t = await createTestApp({ TELEMETRY_FLUSH_MS: '600000', TELEMETRY_BATCH_SIZE: '1000', TELEMETRY_FLUSH_CONCURRENCY: '1' });
    cleanups.push(() => t.close());
    const { ingest } = t.handles.telemetry;
    const device = await makeDevice(t.db, t.tenantA);
    const other = await makeDevice(t.db, t.tenantB);
    const replies = [
      devicePost(t, `/api/v1/${device.token}/telemetry`, { a: 1 }),
      devicePost(t, `/api/v1/${other.token}/telemetry`, { a: 2 }),
    ];
    await new Promise((r) => setTimeout(r, 100));
    // past the parser (a path that forgot the check): the database refuses the NUL and fails the whole statement
    const ingestDevice = await ingest.deviceForToken(device.token);
    const poison = ingest.buffer.addNow({
      device: ingestDevice as NonNullable<typeof ingestDevice>,
      kind: 'telemetry',
      readings: [{ key: 'note', ts: Date.now(), value: 'a\u0000b' }],
    });
    replies.push(devicePost(t, `/api/v1/${device.token}/telemetry`, { a: 3 }));
    await new Promise((r) => setTimeout(r, 100));
    await ingest.buffer.drain();
    await poison;
    expect((await Promise.all(replies)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await storedRows(t, device.id)).toBe(2);
    expect(await storedRows(t, other.id)).toBe(1);
    expect(ingest.stats()).toMatchObject({ deadLettered: 1, buffered: 0 });
    // the refused value does not linger in the device's unwritten state to fail later writes of its activity
    await ingest.buffer.drain();
    await expect(ingest.sweepOffline(3600)).resolves.toBeDefined();
    const after = devicePost(t, `/api/v1/${device.token}/telemetry`, { a: 4 });
    await new Promise((r) => setTimeout(r, 50));
    await ingest.buffer.drain();
    expect((await after).statusCode).toBe(200);
    expect(await storedRows(t, device.id)).toBe(3);
    expect(ingest.stats().deadLettered).toBe(1);
  });
});
