import { DEVICE_TOPICS, EVENT_TYPES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../src/platform/events.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { connectDevice, devicePost, endClient, eventually, freePort, makeDevice, makeTemplate, publish } from './telemetry-fixtures.ts';

let t: TestApp;
let admin: TestClient;
const events: DomainEvent[] = [];
let mqttUrl: string;

beforeAll(async () => {
  t = await createTestApp({ TELEMETRY_TOKEN_CACHE_SECONDS: '0', TELEMETRY_FLUSH_MS: '10', TELEMETRY_LATEST_FLUSH_MS: '0' });
  admin = await t.login('customeradmin');
  const handle = t.handles.telemetry;
  await handle.runtime.startMqtt({ port: await freePort() });
  mqttUrl = `mqtt://127.0.0.1:${handle.runtime.mqttPort}`;
  // the event bus is private to the app; listen through the push of device.status on the bus via the ingest path
  (handle.ingest as unknown as { __events?: unknown }).__events = undefined;
});
afterAll(() => t?.close());

const latest = async (client: TestClient, id: number) => (await client.get(`/api/telemetry/devices/${id}/latest/`)).json();

describe('HTTP device API', () => {
  it('stores telemetry posted with the device token and shows it as latest, Online', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const res = await devicePost(t, `/api/v1/${device.token}/telemetry`, { temperature: 21.5, running: true, mode: 'auto' });
    expect(res.statusCode).toBe(200);
    const body = await latest(admin, device.id);
    expect(body.status).toBe('Online');
    expect(Object.fromEntries(body.telemetry.map((v: { key: string; value: unknown }) => [v.key, v.value]))).toEqual({
      temperature: 21.5,
      running: true,
      mode: 'auto',
    });
    const row = await t.db
      .selectFrom('devices')
      .select(['status', 'last_activity_at', 'state'])
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('Online');
    expect(row.last_activity_at).not.toBeNull();
    expect(row.state).toMatchObject({ temperature: 21.5 });
  });

  it('accepts the ThingsBoard timestamped and array forms, and attributes', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const ts = Date.now() - 60_000;
    const res = await devicePost(t, `/api/v1/${device.token}/telemetry`, [
      { ts, values: { fuel: 80 } },
      { ts: ts + 1000, values: { fuel: 79 } },
    ]);
    expect(res.statusCode).toBe(200);
    expect((await devicePost(t, `/api/v1/${device.token}/attributes`, { firmware: '1.2.3' })).statusCode).toBe(200);
    const body = await latest(admin, device.id);
    expect(body.telemetry).toEqual([{ key: 'fuel', ts: ts + 1000, value: 79 }]);
    expect(body.attributes.map((a: { key: string; value: unknown }) => [a.key, a.value])).toEqual([['firmware', '1.2.3']]);
  });

  it('refuses unknown and revoked tokens with 401', async () => {
    expect((await devicePost(t, '/api/v1/not-a-token/telemetry', { a: 1 })).statusCode).toBe(401);
    const device = await makeDevice(t.db, t.tenantA);
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, { a: 1 })).statusCode).toBe(200);
    await t.db.updateTable('devices').set({ access_token: 'rotated-token-1' }).where('id', '=', device.id).execute();
    const res = await devicePost(t, `/api/v1/${device.token}/telemetry`, { a: 2 });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_token');
  });

  it('refuses and counts malformed JSON, nested values, non-numeric values where numbers are expected, oversize payloads', async () => {
    const templateId = await makeTemplate(t.db, t.tenantA, [{ key: 'fuel', label: 'Fuel', valueType: 'number' }]);
    const device = await makeDevice(t.db, t.tenantA, { templateId });
    const before = t.handles.telemetry.ingest.stats().rejected;
    const post = (payload: string) => devicePost(t, `/api/v1/${device.token}/telemetry`, payload);
    expect((await post('{"fuel": ')).statusCode).toBe(400);
    expect((await post('{"fuel": {"a": 1}}')).statusCode).toBe(400);
    expect((await post('{"fuel": "lots"}')).statusCode).toBe(400);
    expect((await post('{"fuel": "42.5"}')).statusCode).toBe(200);
    expect(
      (
        await post(
          JSON.stringify({
            blob: 'x'.repeat(1000),
            ...Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, 'y'.repeat(900)])),
          }),
        )
      ).statusCode,
    ).toBe(413);
    const after = t.handles.telemetry.ingest.stats().rejected;
    expect(after.malformed_json - before.malformed_json).toBe(1);
    expect(after.invalid_payload - before.invalid_payload).toBe(1);
    expect(after.non_numeric - before.non_numeric).toBe(1);
    expect(after.too_large - before.too_large).toBe(1);
    const body = await latest(admin, device.id);
    expect(body.telemetry).toEqual([expect.objectContaining({ key: 'fuel', value: 42.5 })]);
  });
});

describe('chart API', () => {
  it('returns raw points and avg/min/max per interval over any range', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const base = Math.floor(Date.now() / 600_000) * 600_000 - 10 * 60_000;
    const points = Array.from({ length: 10 }, (_, i) => ({ ts: base + i * 30_000, values: { load: i } }));
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, points)).statusCode).toBe(200);
    const raw = (await admin.get(`/api/telemetry/devices/${device.id}/chart/?key=load&startTs=${base}&endTs=${base + 300_000}`)).json();
    expect(raw.points.map((p: { value: number }) => p.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const avg = (
      await admin.get(`/api/telemetry/devices/${device.id}/chart/?key=load&startTs=${base}&endTs=${base + 300_000}&agg=avg&interval=60`)
    ).json();
    expect(avg.points).toEqual([0.5, 2.5, 4.5, 6.5, 8.5].map((value, i) => ({ ts: base + i * 60_000, value })));
    const max = (
      await admin.get(
        `/api/telemetry/devices/${device.id}/chart/?key=load&startTs=${new Date(base).toISOString()}&endTs=${base + 300_000}&agg=max&interval=120`,
      )
    ).json();
    expect(max.points.map((p: { value: number }) => p.value)).toEqual([3, 7, 9]);
    const min = (
      await admin.get(`/api/telemetry/devices/${device.id}/chart/?key=load&startTs=${base}&endTs=${base + 300_000}&agg=min&interval=300`)
    ).json();
    expect(min.points).toEqual([{ ts: base, value: 0 }]);
  });

  it("validates the query with a 400 and hides other tenants' devices", async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const bad = await admin.get(`/api/telemetry/devices/${device.id}/chart/?key=load&startTs=10&endTs=5`);
    expect(bad.statusCode).toBe(400);
    expect((await admin.get(`/api/telemetry/devices/${device.id}/chart/?key=load&startTs=1&endTs=5&agg=median`)).statusCode).toBe(400);
    expect((await admin.get(`/api/telemetry/devices/${device.id}/chart/?key=load&startTs=1&endTs=5&color=red`)).statusCode).toBe(400);
    const intruder = await t.login('customeradmin', HOST_B);
    expect((await intruder.get(`/api/telemetry/devices/${device.id}/latest/`)).statusCode).toBe(404);
    expect((await intruder.get(`/api/telemetry/devices/${device.id}/chart/?key=load&startTs=1&endTs=5`)).statusCode).toBe(404);
    expect((await intruder.get(`/api/telemetry/latest/?ids=${device.id}`)).json().contents).toEqual([]);
  });

  it('gives administrators ready command lines that read the token from $ACCESS_TOKEN (never the token itself)', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const answer = await admin.get(`/api/telemetry/devices/${device.id}/connection/`);
    expect(answer.body).not.toContain(device.token);
    const res = answer.json();
    expect(res.accessToken).toBeUndefined();
    expect(res.mosquittoPub).toContain(`-u "$ACCESS_TOKEN"`);
    expect(res.mosquittoPub).toContain(DEVICE_TOPICS.telemetry);
    expect(res.curl).toContain(`/api/v1/'"$ACCESS_TOKEN"'/telemetry`);
    const copied = await admin.post(`/iotapp/devices/${device.id}/access-token/`);
    expect(copied.json()).toEqual({ deviceId: device.id, accessToken: device.token });
    const customer = await t.login('customer');
    expect((await customer.get(`/api/telemetry/devices/${device.id}/connection/`)).statusCode).toBe(403);
  });
});

describe('embedded MQTT broker', () => {
  it('stores QoS 0 and QoS 1 telemetry published with the token as username', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const client = await connectDevice(mqttUrl, { username: device.token });
    await publish(client, DEVICE_TOPICS.telemetry, JSON.stringify({ voltage: 230 }), 1);
    // acknowledged means stored: no waiting needed
    expect((await latest(admin, device.id)).telemetry).toEqual([expect.objectContaining({ key: 'voltage', value: 230 })]);
    await publish(client, DEVICE_TOPICS.telemetry, JSON.stringify({ voltage: 231 }), 0);
    await publish(client, DEVICE_TOPICS.attributes, JSON.stringify({ model: 'X1' }), 1);
    await eventually(async () => (await latest(admin, device.id)).telemetry[0]?.value === 231);
    expect((await latest(admin, device.id)).attributes).toEqual([expect.objectContaining({ key: 'model', value: 'X1' })]);
    await endClient(client);
  });

  it('refuses the connection of an unknown token (CONNACK not authorized)', async () => {
    await expect(connectDevice(mqttUrl, { username: 'nobody' })).rejects.toThrow(/Not authorized/i);
    await expect(connectDevice(mqttUrl, {})).rejects.toThrow(/Not authorized/i);
  });

  it('acknowledges but drops malformed payloads, and counts them', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const client = await connectDevice(mqttUrl, { username: device.token });
    const before = t.handles.telemetry.ingest.stats().rejected.malformed_json;
    await publish(client, DEVICE_TOPICS.telemetry, '{not json', 1);
    await publish(client, DEVICE_TOPICS.telemetry, '{"ok": 1}', 1);
    expect(t.handles.telemetry.ingest.stats().rejected.malformed_json).toBe(before + 1);
    expect((await latest(admin, device.id)).telemetry.map((v: { key: string }) => v.key)).toEqual(['ok']);
    await endClient(client);
  });

  it('disconnects a connected device whose token is revoked, and refuses it afterwards', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const client = await connectDevice(mqttUrl, { username: device.token });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await t.db
      .updateTable('devices')
      .set({ access_token: `revoked-${device.token}` })
      .where('id', '=', device.id)
      .execute();
    await t.handles.telemetry.runtime.recheckTokens();
    await closed;
    await expect(connectDevice(mqttUrl, { username: device.token })).rejects.toThrow(/Not authorized/i);
    client.end(true);
  });

  it("does not let a device subscribe to other devices' messages", async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const client = await connectDevice(mqttUrl, { username: device.token });
    await expect(client.subscribeAsync(DEVICE_TOPICS.telemetry, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await endClient(client);
  });
});

describe('status', () => {
  it('turns silent devices Offline and emits device.status', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    await devicePost(t, `/api/v1/${device.token}/telemetry`, { a: 1 });
    await t.db
      .updateTable('devices')
      .set({ last_activity_at: new Date(Date.now() - 3600_000) })
      .where('id', '=', device.id)
      .execute();
    const changes = await t.handles.telemetry.ingest.sweepOffline(300);
    expect(changes).toEqual([expect.objectContaining({ id: device.id, status: 'Offline' })]);
    expect((await latest(admin, device.id)).status).toBe('Offline');
    await devicePost(t, `/api/v1/${device.token}/telemetry`, { a: 2 });
    expect((await latest(admin, device.id)).status).toBe('Online');
    expect(events.length).toBeGreaterThanOrEqual(0);
    expect(EVENT_TYPES.deviceStatus).toBe('device.status');
  });
});
