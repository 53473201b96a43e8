import { spawn, spawnSync } from 'node:child_process';
import { COMMAND_TOPICS, type DeviceCommand } from '@sitewatch/contracts';
import fc from 'fast-check';
import mqtt, { type MqttClient } from 'mqtt';
import { generate } from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERLEAVING_STEPS, type InterleavingApi, runInterleaving, seeded } from './support/command-interleavings.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';
import { eventually, freePort } from './telemetry-fixtures.ts';

/**
 * Delivery of commands when connections end at the worst moment: right after the PUBACK, right after the reply,
 * in the middle of the reply. Real clients (mqtt.js; Mosquitto's command-line clients where installed).
 */

let t: TestApp;
let admin: TestClient;
let url: string;
let mqttPort: number;
let site: { id: number };
const clients: MqttClient[] = [];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const command = async (id: number) => (await admin.get(`/api/commands/${id}/`)).json() as DeviceCommand;
const until = (id: number, state: string, timeoutMs = 5000) =>
  eventually(async () => {
    const c = await command(id);
    return c.state === state ? c : null;
  }, timeoutMs);
const send = async (deviceId: number, extra: Record<string, unknown> = {}) => {
  const res = await admin.post('/api/commands/', { deviceId, method: 'reboot', timeoutMs: 60_000, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as DeviceCommand;
};
const httpReply = (token: string, id: number, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/${token}/rpc/${id}`,
    payload: JSON.stringify(body),
    headers: { host: 'devices.example.net', 'content-type': 'application/json' },
  });
const newDevice = () => makeDevice(admin, { type: 'ROUTER', assetId: site.id });

/**
 * A device connection subscribed at QoS 1 that records the request ids it gets; with `hold` it never acknowledges
 * them. `onPacket` sees every packet the client writes (to cut the connection right after one).
 */
async function connect(token: string, opts: { hold?: boolean; onPacket?: (client: MqttClient, packet: { cmd: string }) => void } = {}) {
  const got: number[] = [];
  const client = mqtt.connect(url, {
    username: token,
    clientId: `d-${Math.random().toString(36).slice(2)}`,
    reconnectPeriod: 0,
  });
  // mqtt.js sends the PUBACK of a QoS 1 message once handleMessage calls back
  client.handleMessage = (packet, callback) => {
    if (packet.cmd === 'publish') got.push(Number(packet.topic.split('/').pop()));
    if (!opts.hold) callback();
  };
  clients.push(client);
  client.on('error', () => undefined);
  if (opts.onPacket) client.on('packetsend', (packet) => opts.onPacket?.(client, packet));
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  await client.subscribeAsync(COMMAND_TOPICS.requestSubscription, { qos: 1 });
  return { client, got };
}
/** Cuts the connection once the packet being written is on the wire (mqtt-packet writes on the next tick). */
const cutAfterWrite = (client: MqttClient) => setImmediate(() => client.stream.destroy());
const closed = (client: MqttClient) => eventually(async () => client.stream.destroyed || null);
const states = (c: DeviceCommand) => (c.history ?? []).map((h) => h.state);

/** A device whose first connection takes the command and is cut before its PUBACK: the command is queued again. */
async function pubackLost(token: string, deviceId: number) {
  const first = await connect(token, { hold: true });
  const sent = await send(deviceId);
  await eventually(async () => first.got.length === 1 || null);
  first.client.stream.destroy();
  await until(sent.id, 'queued');
  return { first, sent };
}

beforeAll(async () => {
  t = await createTestApp();
  mqttPort = await freePort();
  await t.handles.telemetry.runtime.startMqtt({ port: mqttPort });
  url = `mqtt://127.0.0.1:${mqttPort}`;
  admin = await t.login('customeradmin');
  site = await makeSite(admin, { name: 'Delivery Yard' });
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.end(true);
  await t?.close();
});

describe('a connection that ends at the worst moment', () => {
  it('keeps a PUBACK followed at once by a disconnect; the reply from the next connection completes the command', async () => {
    const d = await newDevice();
    const first = await connect(d.accessToken, { onPacket: (client, p) => p.cmd === 'puback' && cutAfterWrite(client) });
    const sent = await send(d.id);
    await until(sent.id, 'delivered');
    await closed(first.client);
    // the disconnect's requeue comes after the acknowledgement and does not undo it
    await sleep(150);
    expect((await command(sent.id)).state).toBe('delivered');
    for (let i = 0; i < 3; i++) {
      const again = await connect(d.accessToken);
      await sleep(120);
      expect(again.got, 'not sent again on reconnect').toEqual([]);
      if (i < 2) again.client.end(true);
      else {
        await again.client.publishAsync(COMMAND_TOPICS.response(sent.id), JSON.stringify({ rebooted: true }), { qos: 1 });
        again.client.end(true);
      }
    }
    const done = await until(sent.id, 'successful');
    expect(done.response).toEqual({ rebooted: true });
    expect(first.got).toEqual([sent.id]);
    expect(states(done)).toEqual(['queued', 'sent', 'delivered', 'successful']);
  });

  it('records a reply the device sent just before it dropped, and sends nothing again', async () => {
    const d = await newDevice();
    const dev = await connect(d.accessToken, {
      onPacket: (client, p) => p.cmd === 'publish' && cutAfterWrite(client),
    });
    dev.client.on('message', (topic) => {
      const id = Number(topic.split('/').pop());
      dev.client.publish(COMMAND_TOPICS.response(id), JSON.stringify({ ok: id }), { qos: 1 });
    });
    const sent = await send(d.id);
    const done = await until(sent.id, 'successful');
    expect(done.response).toEqual({ ok: sent.id });
    const again = await connect(d.accessToken);
    await sleep(150);
    expect(again.got).toEqual([]);
    // mqtt.js writes the PUBACK after its message handler: the cut may come before or after it
    expect(states(await command(sent.id)).filter((s) => s !== 'delivered')).toEqual(['queued', 'sent', 'successful']);
  });

  it('leaves a reply cut in the middle unrecorded; the reply sent again on the next connection completes the command', async () => {
    const d = await newDevice();
    const dev = await connect(d.accessToken);
    const sent = await send(d.id);
    await until(sent.id, 'delivered');
    const packet = generate({
      cmd: 'publish',
      topic: COMMAND_TOPICS.response(sent.id),
      payload: Buffer.from(JSON.stringify({ half: false })),
      qos: 1,
      messageId: 7,
      retain: false,
      dup: false,
    });
    dev.client.stream.write(packet.subarray(0, packet.length - 5));
    cutAfterWrite(dev.client);
    await closed(dev.client);
    await sleep(150);
    expect((await command(sent.id)).state).toBe('delivered');
    const again = await connect(d.accessToken);
    await sleep(100);
    expect(again.got, 'a delivered command is not sent again').toEqual([]);
    await again.client.publishAsync(COMMAND_TOPICS.response(sent.id), JSON.stringify({ half: false }), { qos: 1 });
    expect((await until(sent.id, 'successful')).response).toEqual({ half: false });
  });

  it('sends a command whose PUBACK never came again on reconnect, with the same request id, each attempt in its history', async () => {
    const d = await newDevice();
    const { first, sent } = await pubackLost(d.accessToken, d.id);
    const second = await connect(d.accessToken);
    await until(sent.id, 'delivered');
    expect(second.got).toEqual(first.got);
    expect(first.got).toEqual([sent.id]);
    await second.client.publishAsync(COMMAND_TOPICS.response(sent.id), '{"ok":true}', { qos: 1 });
    const done = await until(sent.id, 'successful');
    expect(done.history?.map((h) => [h.state, h.transport])).toEqual([
      ['queued', null],
      ['sent', 'mqtt'],
      ['queued', null],
      ['sent', 'mqtt'],
      ['delivered', 'mqtt'],
      ['successful', 'mqtt'],
    ]);
  });

  it('completes a command whose PUBACK was lost by a reply over HTTP, and never sends it again', async () => {
    const d = await newDevice();
    const { sent } = await pubackLost(d.accessToken, d.id);
    expect((await httpReply(d.accessToken, sent.id, { via: 'http' })).statusCode).toBe(200);
    const done = await until(sent.id, 'successful');
    expect(done.response).toEqual({ via: 'http' });
    const again = await connect(d.accessToken);
    await sleep(150);
    expect(again.got).toEqual([]);
    // a second reply changes nothing
    expect((await httpReply(d.accessToken, sent.id, { via: 'again' })).statusCode).toBe(200);
    expect((await command(sent.id)).response).toEqual({ via: 'http' });
  });

  it('answers an HTTP reply only once a repeat of the command on its way over MQTT is acknowledged or lost', async () => {
    const d = await newDevice();
    const { sent } = await pubackLost(d.accessToken, d.id);
    // the repeat reaches the new connection, whose PUBACK the device has not given yet
    const second = await connect(d.accessToken, { hold: true });
    await eventually(async () => second.got.includes(sent.id) || null);
    let answered = false;
    const reply = httpReply(d.accessToken, sent.id, { via: 'http' }).then((res) => {
      answered = true;
      return res;
    });
    await sleep(300);
    // the device would otherwise learn that its reply arrived while a repeat could still be reaching it
    expect(answered).toBe(false);
    second.client.stream.destroy();
    expect((await reply).statusCode).toBe(200);
    expect((await until(sent.id, 'successful')).response).toEqual({ via: 'http' });
  });

  it('never sends a failed command again', async () => {
    const d = await newDevice();
    const dev = await connect(d.accessToken);
    dev.client.on('message', (topic) =>
      dev.client.publish(COMMAND_TOPICS.response(Number(topic.split('/').pop())), '{"error":"busy"}', { qos: 1 }),
    );
    const sent = await send(d.id);
    await until(sent.id, 'failed');
    dev.client.end(true);
    const again = await connect(d.accessToken);
    await sleep(150);
    expect(again.got).toEqual([]);
  });
});

const mosquitto = spawnSync('which', ['mosquitto_sub']).status === 0;

describe.skipIf(!mosquitto)('Mosquitto command-line clients', () => {
  const run = (cmd: string, args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(cmd, args);
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
      });
      child.on('exit', (code) => resolve({ code, out }));
    });
  /** Mosquitto's options for this broker as the device with this token, QoS 1. */
  const as = (token: string) => ['-h', '127.0.0.1', '-p', String(mqttPort), '-q', '1', '-u', token];
  const sub = (token: string, extra: string[]) =>
    run('mosquitto_sub', [...as(token), '-t', COMMAND_TOPICS.requestSubscription, '-v', ...extra]);

  it('a device that takes one command and disconnects, then answers from a new connection', async () => {
    const d = await newDevice();
    const taking = sub(d.accessToken, ['-C', '1', '-W', '10']);
    await eventually(async () => t.handles.commands.dispatcher.connected().mqtt > 0 || null);
    const sent = await send(d.id);
    const taken = await taking;
    expect(taken.out).toContain(COMMAND_TOPICS.request(sent.id));
    const answered = await run('mosquitto_pub', [...as(d.accessToken), '-t', COMMAND_TOPICS.response(sent.id), '-m', '{"rebooting":true}']);
    expect(answered.code).toBe(0);
    const done = await until(sent.id, 'successful');
    expect(done.response).toEqual({ rebooting: true });
    for (let i = 0; i < 3; i++) {
      const again = await sub(d.accessToken, ['-W', '1']);
      expect(again.out).toBe('');
    }
  });
});

describe('randomised interleavings', () => {
  it('never executes a request id twice and never loses a reply', async () => {
    const api: InterleavingApi = {
      mqttUrl: url,
      send: async (deviceId) => (await send(deviceId)).id,
      commands: async (ids) =>
        Promise.all(
          ids.map(async (id) => {
            const c = await command(id);
            return { id, state: c.state, response: c.response };
          }),
        ),
      httpReply: async (token, id, body) => (await httpReply(token, id, body)).statusCode,
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...INTERLEAVING_STEPS), { minLength: 2, maxLength: 16 }),
        fc.integer(),
        async (tail, seed) => {
          const d = await newDevice();
          const outcome = await runInterleaving(api, { id: d.id, token: d.accessToken }, ['connect', 'command', ...tail], seeded(seed));
          expect(outcome).toEqual({ executedTwice: 0, repliesLost: 0, resentAfterAck: 0, neverDelivered: 0 });
        },
      ),
      { numRuns: 30 },
    );
  }, 180_000);
});
