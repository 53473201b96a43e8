import { COMMAND_TOPICS, type DeviceCommand, DEVICE_API_TOPICS as T } from '@sitewatch/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { accessTokenOf, makeDevice, makeSite } from './support/sites-factory.ts';
import { connectDevice, eventually, freePort, publish } from './telemetry-fixtures.ts';

/**
 * ThingsBoard firmware as it talks to the product: the `mqtt` package and fetch-style HTTP, no hand-made packets.
 * Every MQTT client here must stay connected through everything it does (no `close` until the test ends it).
 */
const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let viewer: TestClient;
let url: string;
let site: { id: number };
const clients: MqttClient[] = [];
const closes = new Map<MqttClient, number>();

type Dev = Awaited<ReturnType<typeof makeDevice>>;

/** A connected firmware client that records every message by topic and counts its disconnections. */
async function firmware(username: string, protocolVersion: 4 | 5 = 4) {
  const client = await connectDevice(url, { username, clientId: `fw-${Math.random()}`, protocolVersion });
  clients.push(client);
  closes.set(client, 0);
  client.on('close', () => closes.set(client, (closes.get(client) ?? 0) + 1));
  const messages: Array<{ topic: string; body: unknown }> = [];
  client.on('message', (topic, payload) => messages.push({ topic, body: JSON.parse(payload.toString()) }));
  const subscribe = (topic: string, qos: 0 | 1 = 1) =>
    new Promise<number>((resolve, reject) =>
      client.subscribe(topic, { qos }, (error, granted) => (error ? reject(error) : resolve(granted?.[0]?.qos ?? -1))),
    );
  const next = (topic: string, timeoutMs = 5000) =>
    eventually(async () => messages.find((m) => m.topic === topic && !taken.has(m)), timeoutMs).then((m) => {
      taken.add(m);
      return m.body;
    });
  const taken = new Set<unknown>();
  return { client, messages, subscribe, next };
}

const devicePost = (path: string, body: unknown, host = 'devices.example.net') =>
  t.app.inject({ method: 'POST', url: path, payload: JSON.stringify(body), headers: { host, 'content-type': 'application/json' } });
const deviceGet = (path: string) => t.app.inject({ method: 'GET', url: path, headers: { host: 'devices.example.net' } });

async function sharedDevice(): Promise<Dev> {
  return makeDevice(admin, { assetId: site.id, type: 'ROUTER' });
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  const port = await freePort();
  await t.handles.telemetry.runtime.startMqtt({ port });
  url = `mqtt://127.0.0.1:${port}`;
  admin = await t.login('customeradmin');
  viewer = await t.login('customer');
  site = await makeSite(admin, { name: 'Firmware Yard' });
}, 180_000);
afterAll(async () => {
  for (const c of clients) c.end(true);
  await t?.close();
});

describe('attributes over MQTT', () => {
  it('answers client and shared attribute requests and pushes shared updates, staying connected', async () => {
    const d = await sharedDevice();
    const put = await admin.put(`/api/device-api/devices/${d.id}/shared-attributes/`, { targetFirmware: '2.0.1', interval: 30 });
    expect(put.statusCode, put.body).toBe(200);
    const fw = await firmware(d.accessToken);
    expect(await fw.subscribe(T.attributesResponseSubscription)).toBe(1);
    expect(await fw.subscribe(T.attributes)).toBe(1);
    await publish(fw.client, T.attributes, JSON.stringify({ firmware: '1.9.0', serial: 'SN-1' }));

    await publish(
      fw.client,
      `${T.attributesRequestPrefix}1`,
      JSON.stringify({ clientKeys: 'firmware,serial', sharedKeys: 'targetFirmware' }),
    );
    expect(await fw.next(T.attributesResponse('1'))).toEqual({
      client: { firmware: '1.9.0', serial: 'SN-1' },
      shared: { targetFirmware: '2.0.1' },
    });
    // no keys: everything; only shared keys: no client part
    await publish(fw.client, `${T.attributesRequestPrefix}2`, '{}');
    expect(await fw.next(T.attributesResponse('2'))).toEqual({
      client: { firmware: '1.9.0', serial: 'SN-1' },
      shared: { targetFirmware: '2.0.1', interval: 30 },
    });
    await publish(fw.client, `${T.attributesRequestPrefix}3`, JSON.stringify({ sharedKeys: ['interval', 'missing'] }));
    expect(await fw.next(T.attributesResponse('3'))).toEqual({ shared: { interval: 30 } });
    // malformed: an error object, not a closed connection
    await publish(fw.client, `${T.attributesRequestPrefix}4`, 'not json');
    expect(await fw.next(T.attributesResponse('4'))).toMatchObject({ error: expect.any(String) });

    // a change is pushed; a value set again unchanged is not
    await admin.put(`/api/device-api/devices/${d.id}/shared-attributes/`, { targetFirmware: '2.0.2', interval: 30 });
    expect(await fw.next(T.attributes)).toEqual({ targetFirmware: '2.0.2' });
    const removed = await admin.delete(`/api/device-api/devices/${d.id}/shared-attributes/?keys=interval`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().attributes.map((a: { key: string }) => a.key)).toEqual(['targetFirmware']);
    expect(await fw.next(T.attributes)).toEqual({ deleted: ['interval'] });
    expect(fw.messages.filter((m) => m.topic === T.attributes)).toHaveLength(2);

    expect(fw.client.connected).toBe(true);
    expect(closes.get(fw.client)).toBe(0);
  });

  it('sends an update only to the subscribers of that device', async () => {
    const [a, b] = [await sharedDevice(), await sharedDevice()];
    const fa = await firmware(a.accessToken);
    const fb = await firmware(b.accessToken);
    await fa.subscribe(T.attributes);
    await fb.subscribe(T.attributes);
    await admin.put(`/api/device-api/devices/${a.id}/shared-attributes/`, { mode: 'eco' });
    expect(await fa.next(T.attributes)).toEqual({ mode: 'eco' });
    await new Promise((r) => setTimeout(r, 200));
    expect(fb.messages).toEqual([]);
  });
});

describe('attributes over HTTP', () => {
  it('reads attributes, long-polls an update, and answers 408 when none comes', async () => {
    const d = await sharedDevice();
    await admin.put(`/api/device-api/devices/${d.id}/shared-attributes/`, { setpoint: 21.5 });
    expect((await devicePost(`/api/v1/${d.accessToken}/attributes`, { model: 'X1' })).statusCode).toBe(200);
    const read = await deviceGet(`/api/v1/${d.accessToken}/attributes?clientKeys=model&sharedKeys=setpoint`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ client: { model: 'X1' }, shared: { setpoint: 21.5 } });

    const polling = deviceGet(`/api/v1/${d.accessToken}/attributes/updates?timeout=5000`);
    await eventually(async () => t.handles.deviceApi.attributes.listening() > 0);
    await admin.put(`/api/device-api/devices/${d.id}/shared-attributes/`, { setpoint: 19 });
    const update = await polling;
    expect(update.statusCode).toBe(200);
    expect(update.json()).toEqual({ setpoint: 19 });

    expect((await deviceGet(`/api/v1/${d.accessToken}/attributes/updates?timeout=0`)).statusCode).toBe(408);
    expect((await deviceGet(`/api/v1/${d.accessToken}/attributes/updates?timeout=999999`)).statusCode).toBe(400);
    expect((await deviceGet('/api/v1/not-a-token/attributes')).statusCode).toBe(401);
    expect((await deviceGet('/api/v1/not-a-token/attributes/updates?timeout=0')).statusCode).toBe(401);
  });
});

describe('shared attributes as users edit them', () => {
  it('validates input and keeps to those who may change devices', async () => {
    const d = await sharedDevice();
    const base = `/api/device-api/devices/${d.id}/shared-attributes/`;
    expect((await admin.put(base, {})).statusCode).toBe(400);
    expect((await admin.put(base, { ['k'.repeat(65)]: 1 })).statusCode).toBe(400);
    expect((await admin.put(base, { k: { nested: true } })).statusCode).toBe(400);
    expect((await admin.put(base, { k: 'x'.repeat(1025) })).statusCode).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    expect((await admin.put(base, many)).statusCode).toBe(400);
    expect((await admin.delete(base)).statusCode).toBe(400);
    expect((await viewer.put(base, { k: 1 })).statusCode).toBe(403);
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(base)).statusCode).toBe(404);
    expect((await other.put(base, { k: 1 })).statusCode).toBe(404);
  });
});

describe('device-side RPC', () => {
  it('answers getCurrentTime and getSharedAttributes over MQTT, and an error for anything else', async () => {
    const d = await sharedDevice();
    await admin.put(`/api/device-api/devices/${d.id}/shared-attributes/`, { color: 'blue', size: 3 });
    const fw = await firmware(d.accessToken);
    expect(await fw.subscribe(T.clientRpcResponseSubscription)).toBe(1);
    await publish(fw.client, `${T.clientRpcRequestPrefix}11`, JSON.stringify({ method: 'getCurrentTime', params: {} }));
    const before = clock.now().getTime();
    const { time } = (await fw.next(T.clientRpcResponse('11'))) as { time: number };
    expect(time).toBeGreaterThanOrEqual(before - 1000);
    expect(time).toBeLessThanOrEqual(clock.now().getTime());
    await publish(fw.client, `${T.clientRpcRequestPrefix}12`, JSON.stringify({ method: 'getSharedAttributes', params: { keys: 'size' } }));
    expect(await fw.next(T.clientRpcResponse('12'))).toEqual({ size: 3 });
    await publish(fw.client, `${T.clientRpcRequestPrefix}13`, JSON.stringify({ method: 'selfDestruct' }));
    expect(await fw.next(T.clientRpcResponse('13'))).toEqual({ error: expect.stringContaining('Unknown method: selfDestruct') });
    await publish(fw.client, `${T.clientRpcRequestPrefix}14`, '{"params": 1}', 0);
    expect(await fw.next(T.clientRpcResponse('14'))).toMatchObject({ error: expect.any(String) });
    expect(closes.get(fw.client)).toBe(0);
  });

  it('answers over HTTP', async () => {
    const d = await sharedDevice();
    const res = await devicePost(`/api/v1/${d.accessToken}/rpc`, { method: 'getCurrentTime', params: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ time: expect.any(Number) });
    expect(Math.abs(res.json().time - clock.now().getTime())).toBeLessThan(60_000);
    expect((await devicePost(`/api/v1/${d.accessToken}/rpc`, { method: 'nope' })).json()).toMatchObject({ error: expect.any(String) });
    expect((await devicePost('/api/v1/unknown-token/rpc', { method: 'getCurrentTime' })).statusCode).toBe(401);
  });

  it('leaves server-side RPC working beside it on one connection', async () => {
    const d = await sharedDevice();
    const fw = await firmware(d.accessToken);
    await fw.subscribe(COMMAND_TOPICS.requestSubscription);
    await fw.subscribe(T.clientRpcResponseSubscription);
    await fw.subscribe(T.attributes);
    const sent = await admin.post('/api/commands/', { deviceId: d.id, method: 'reboot', params: { delay: 1 } });
    expect(sent.statusCode, sent.body).toBe(201);
    const command = sent.json() as DeviceCommand;
    expect(await fw.next(COMMAND_TOPICS.request(command.id))).toEqual({ method: 'reboot', params: { delay: 1 } });
    await publish(fw.client, COMMAND_TOPICS.response(command.id), JSON.stringify({ ok: true }));
    await eventually(async () => (await admin.get(`/api/commands/${command.id}/`)).json().state === 'successful');
    await publish(fw.client, `${T.clientRpcRequestPrefix}1`, JSON.stringify({ method: 'getCurrentTime' }));
    expect(await fw.next(T.clientRpcResponse('1'))).toEqual({ time: expect.any(Number) });
    expect(closes.get(fw.client)).toBe(0);
  });
});

describe('provisioning', () => {
  async function credentials() {
    const customer = (await admin.post('/iotapp/customers/', { name: `Fleet ${Math.random()}` })).json();
    // the tenant administrator sets the pair the firmware is flashed with; the secret never comes back
    const provisionDeviceKey = `fleet-${Math.random().toString(36).slice(2, 12)}`;
    const provisionDeviceSecret = `secret-${Math.random().toString(36).slice(2)}-x`;
    const set = await admin.put(`/iotapp/customers/${customer.id}/iot-fw-cred/`, { provisionDeviceKey, provisionDeviceSecret });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ provisionDeviceKey, provisionDeviceSecretSet: true });
    expect(set.body).not.toContain(provisionDeviceSecret);
    return { provisionDeviceKey, provisionDeviceSecret };
  }

  it('provisions over MQTT with username provision, and the new token connects', async () => {
    const cred = await credentials();
    const fw = await firmware(T.provisionUsername);
    expect(await fw.subscribe(T.provisionResponse)).toBe(1);
    // a provisioning client may do nothing else
    await expect(fw.subscribe(COMMAND_TOPICS.requestSubscription)).rejects.toThrow(/Subscribe error/);
    await publish(fw.client, T.provisionRequest, JSON.stringify({ deviceName: 'MQTT-GW-1', ...cred }));
    const answer = (await fw.next(T.provisionResponse)) as { status: string; credentialsValue: string };
    expect(answer).toMatchObject({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN' });
    await publish(
      fw.client,
      T.provisionRequestLegacy,
      JSON.stringify({ deviceName: 'MQTT-GW-2', ...cred, provisionDeviceSecret: 'wrong' }),
    );
    expect(await fw.next(T.provisionResponse)).toEqual({ status: 'NOT_FOUND', errorMsg: 'Provision data was not found!' });

    const device = await firmware(answer.credentialsValue);
    await publish(device.client, 'v1/devices/me/telemetry', JSON.stringify({ up: 1 }));
    const listed = (await admin.get('/iotapp/devices/?discovered=true')).json().contents as Array<{ id: number; label: string }>;
    const provisioned = listed.find((x) => x.label === 'MQTT-GW-1');
    expect(provisioned && (await accessTokenOf(admin, provisioned.id))).toBe(answer.credentialsValue);
  });

  it('provisions over HTTP with a token the device brings, into the tenant of the key', async () => {
    const cred = await credentials();
    const token = `own-token-${Date.now()}`;
    const ok = await devicePost('/api/v1/provision', { deviceName: 'HTTP-GW-1', ...cred, credentialsType: 'ACCESS_TOKEN', token });
    expect(ok.json()).toEqual({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN', credentialsValue: token });
    const taken = await devicePost('/api/v1/provision', { deviceName: 'HTTP-GW-2', ...cred, token });
    expect(taken.json()).toMatchObject({ status: 'FAILURE' });
    const bad = await devicePost('/api/v1/provision', { provisionDeviceKey: 'nope', provisionDeviceSecret: 'nope' });
    expect(bad.json().status).toBe('NOT_FOUND');
    const unnamed = await devicePost('/api/v1/provision', cred);
    expect(unnamed.json().status).toBe('SUCCESS');
    expect((await devicePost(`/api/v1/${token}/telemetry`, { up: 1 })).statusCode).toBe(200);
  });
});

describe('MQTT 5', () => {
  it('speaks the whole device API with an MQTT 5 client', async () => {
    const d = await sharedDevice();
    await admin.put(`/api/device-api/devices/${d.id}/shared-attributes/`, { level: 2 });
    const fw = await firmware(d.accessToken, 5);
    expect(await fw.subscribe(T.attributesResponseSubscription)).toBe(1);
    expect(await fw.subscribe(T.attributes, 0)).toBe(0);
    expect(await fw.subscribe(T.clientRpcResponseSubscription)).toBe(1);
    expect(await fw.subscribe(COMMAND_TOPICS.requestSubscription)).toBe(1);
    await publish(fw.client, 'v1/devices/me/telemetry', JSON.stringify({ temperature: 21 }));
    await publish(fw.client, T.attributes, JSON.stringify({ fw: '5.0' }));
    await publish(fw.client, `${T.attributesRequestPrefix}1`, JSON.stringify({ clientKeys: 'fw', sharedKeys: 'level' }));
    expect(await fw.next(T.attributesResponse('1'))).toEqual({ client: { fw: '5.0' }, shared: { level: 2 } });
    await admin.put(`/api/device-api/devices/${d.id}/shared-attributes/`, { level: 3 });
    expect(await fw.next(T.attributes)).toEqual({ level: 3 });
    await publish(fw.client, `${T.clientRpcRequestPrefix}5`, JSON.stringify({ method: 'getCurrentTime' }));
    expect(await fw.next(T.clientRpcResponse('5'))).toEqual({ time: expect.any(Number) });
    const sent = (await admin.post('/api/commands/', { deviceId: d.id, method: 'blink' })).json() as DeviceCommand;
    expect(await fw.next(COMMAND_TOPICS.request(sent.id))).toEqual({ method: 'blink', params: {} });
    await publish(fw.client, COMMAND_TOPICS.response(sent.id), '{"done":true}');
    await eventually(async () => (await admin.get(`/api/commands/${sent.id}/`)).json().state === 'successful');
    await new Promise<void>((resolve, reject) => fw.client.unsubscribe(T.attributes, (error) => (error ? reject(error) : resolve())));
    expect(closes.get(fw.client)).toBe(0);
  });

  it('says why it refuses: CONNACK, SUBACK and DISCONNECT reason codes', async () => {
    const refused = await connectDevice(url, { username: 'no-such-token', clientId: 'v5-x', protocolVersion: 5 }).then(
      () => null,
      (e: { code?: number }) => e,
    );
    expect(refused?.code).toBe(135);

    const d = await sharedDevice();
    const fw = await firmware(d.accessToken, 5);
    // SUBACK reason code 135, which the client library reports by its name
    await expect(fw.subscribe('v1/devices/+/telemetry')).rejects.toThrow('Subscribe error: Not authorized');
    // everything, and the broker's own topics: refused with 0x87 (Not authorized) in the SUBACK
    for (const filter of ['#', '$SYS/#']) {
      const granted = await new Promise<number[]>((resolve) =>
        fw.client.subscribe(filter, { qos: 0 }, (error, g) =>
          resolve((error as { packet?: { granted: number[] } } | null)?.packet?.granted ?? (g ?? []).map((x) => x.qos)),
        ),
      );
      expect(granted).toEqual([0x87]);
    }
    const disconnect = new Promise<{ reasonCode?: number; properties?: { reasonString?: string } }>((resolve) =>
      fw.client.once('disconnect', (packet) => resolve(packet)),
    );
    fw.client.publish('some/other/topic', 'x', { qos: 1 });
    const packet = await disconnect;
    expect(packet.reasonCode).toBe(135);
    expect(packet.properties?.reasonString).toMatch(/publish allowed only to/);
  });
});

describe('refusals carry a reason', () => {
  it('refuses an unknown token with CONNACK 5 (MQTT 3.1.1)', async () => {
    const error = await connectDevice(url, { username: 'no-such-token', clientId: 'x1' }).then(
      () => null,
      (e: { code?: number }) => e,
    );
    expect(error?.code).toBe(5);
  });
});
