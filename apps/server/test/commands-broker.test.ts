import { randomBytes } from 'node:crypto';
import { COMMAND_TOPICS, DEVICE_TOPICS, type DeviceCommand } from '@sitewatch/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestClient } from './support/harness.ts';
import { machineLock } from './support/machine-lock.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';
import { eventually } from './telemetry-fixtures.ts';

/** Commands through an external broker: the Mosquitto on this machine (skipped when it cannot be reached). */
const MOSQUITTO = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

async function reachable() {
  try {
    const c = await mqtt.connectAsync(MOSQUITTO, { connectTimeout: 2000, reconnectPeriod: 0 });
    await c.endAsync();
    return true;
  } catch {
    return false;
  }
}
const brokerUp = await reachable();
if (!brokerUp) console.warn(`commands-broker: no MQTT broker at ${MOSQUITTO}; external-broker command tests skipped`);

const clock = createTestClock();
// a share group and client id of this run only: parallel runs against the same broker do not share messages
const run = randomBytes(4).toString('hex');
const group = `swcmd${run}`;
const clientId = `sitewatch-cmdtest-${run}`;
let t: TestApp;
let admin: TestClient;
let site: { id: number };
const clients: MqttClient[] = [];
const jobs = () => (t.app as unknown as { jobs: { drain(): Promise<void> } }).jobs;

type Dev = Awaited<ReturnType<typeof makeDevice>>;

/** A device on the broker: subscribes to its own request topic, answers (or not), and says hello with telemetry. */
async function brokerDevice(d: Dev, opts: { answer?: (method: string, params: unknown) => unknown; hello?: boolean } = {}) {
  const got: Array<{ id: number; method: string; params: unknown }> = [];
  const client = await mqtt.connectAsync(MOSQUITTO, { clientId: `dev-${run}-${d.id}`, clean: true, reconnectPeriod: 0 });
  clients.push(client);
  client.on('message', (topic, payload) => {
    const id = Number(topic.split('/').pop());
    const body = JSON.parse(payload.toString()) as { method: string; params: unknown };
    got.push({ id, ...body });
    if (opts.answer) {
      client.publish(`v1/devices/${d.accessToken}/rpc/response/${id}`, JSON.stringify(opts.answer(body.method, body.params)), { qos: 1 });
    }
  });
  await client.subscribeAsync(`v1/devices/${d.accessToken}/rpc/request/+`, { qos: 1 });
  if (opts.hello !== false) await hello(client, d);
  return { client, got };
}
const hello = (client: MqttClient, d: Dev) => client.publishAsync(DEVICE_TOPICS.tokenTelemetry(d.accessToken), '{"rssi":-70}', { qos: 1 });

const command = async (id: number) => (await admin.get(`/api/commands/${id}/`)).json() as DeviceCommand;
const until = (id: number, state: string, timeoutMs = 8000) =>
  eventually(async () => {
    const c = await command(id);
    return c.state === state ? c : null;
  }, timeoutMs);
const send = async (body: Record<string, unknown>) => {
  const res = await admin.post('/api/commands/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as DeviceCommand;
};

let release: (() => void) | undefined;

beforeAll(async () => {
  if (!brokerUp) return;
  // its devices publish telemetry on the machine's Mosquitto, where another test process may be counting what arrives
  release = await machineLock('mosquitto');
  t = await createTestApp({ MQTT_URL: MOSQUITTO, MQTT_SHARE_GROUP: group, MQTT_CLIENT_ID: clientId }, { clock });
  await t.handles.telemetry.runtime.startMqtt();
  admin = await t.login('customeradmin');
  site = await makeSite(admin, { name: 'Broker Yard' });
}, 60_000);
afterAll(async () => {
  try {
    for (const c of clients) c.end(true);
    await t?.close();
    if (!brokerUp) return;
    // drop the persistent session left in the broker
    const c = await mqtt.connectAsync(MOSQUITTO, { clientId, clean: true, reconnectPeriod: 0 });
    await c.endAsync();
  } finally {
    release?.();
  }
});

describe.skipIf(!brokerUp)('commands through an external broker', () => {
  it('publishes a two-way command on the device’s token topic; its reply makes it successful', async () => {
    const d = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const dev = await brokerDevice(d, { answer: (method, params) => ({ ok: true, method, params }) });
    // the device's hello went through the broker: it is known to talk MQTT there
    await new Promise((r) => setTimeout(r, 300));
    const sent = await send({ deviceId: d.id, method: 'setRelay', params: { relay: 2, on: true } });
    const done = await until(sent.id, 'successful');
    expect(done.response).toEqual({ ok: true, method: 'setRelay', params: { relay: 2, on: true } });
    expect(done.sentAt).not.toBeNull();
    expect(done.deliveredAt).not.toBeNull();
    expect(dev.got).toEqual([{ id: sent.id, method: 'setRelay', params: { relay: 2, on: true } }]);
  });

  it('keeps a command queued until the device shows up on the broker, then sends it', async () => {
    const d = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id });
    const sent = await send({ deviceId: d.id, method: 'startGenset' });
    await new Promise((r) => setTimeout(r, 500));
    expect((await command(sent.id)).state).toBe('queued');
    const dev = await brokerDevice(d, { answer: () => ({ running: true }) });
    const done = await until(sent.id, 'successful');
    expect(done.response).toEqual({ running: true });
    expect(dev.got.map((g) => g.id)).toEqual([sent.id]);
  });

  it('ends a one-way command sent (the broker acknowledged it), then timed out: the device never confirms it', async () => {
    const d = await makeDevice(admin, { type: 'ACCESSCONTROL', assetId: site.id });
    const dev = await brokerDevice(d);
    await new Promise((r) => setTimeout(r, 300));
    const sent = await send({ deviceId: d.id, method: 'openDoor', params: { door: 1 }, oneway: true, timeoutMs: 1000 });
    const published = await until(sent.id, 'sent');
    expect(published.sentAt).not.toBeNull();
    expect(published.deliveredAt).toBeNull();
    await eventually(async () => dev.got.length === 1);
    expect(dev.got[0]).toEqual({ id: sent.id, method: 'openDoor', params: { door: 1 } });
    clock.advance(2500);
    await jobs().drain();
    const c = await command(sent.id);
    expect(c.state).toBe('timeout');
    expect(c.deliveredAt).toBeNull();
    expect(c.error).toBe('Published to the broker; the device does not confirm one-way commands');
  });

  it('times out a two-way command the device does not answer', async () => {
    const d = await makeDevice(admin, { type: 'ROUTER', assetId: site.id });
    const dev = await brokerDevice(d);
    await new Promise((r) => setTimeout(r, 300));
    const sent = await send({ deviceId: d.id, method: 'reboot', timeoutMs: 1000 });
    await until(sent.id, 'sent');
    await eventually(async () => dev.got.length === 1);
    clock.advance(2500);
    await jobs().drain();
    const c = await command(sent.id);
    expect(c.state).toBe('timeout');
    expect(c.error).toBe('No reply within the timeout');
    // a late reply changes nothing
    await dev.client.publishAsync(COMMAND_TOPICS.tokenRequest(d.accessToken, sent.id).replace('/request/', '/response/'), '{"ok":true}', {
      qos: 1,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await command(sent.id)).state).toBe('timeout');
  });

  it('leaves the commands of a device that never used the broker to its HTTP poll', async () => {
    const d = await makeDevice(admin, { type: 'ETH', assetId: site.id });
    const sent = await send({ deviceId: d.id, method: 'ping' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/${d.accessToken}/rpc?timeout=3000`,
      headers: { host: 'devices.example.net' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: sent.id, method: 'ping', params: {} });
    expect((await command(sent.id)).state).toBe('sent');
  });
});
