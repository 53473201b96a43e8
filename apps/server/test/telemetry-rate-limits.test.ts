import { DEVICE_TOPICS } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { connectDevice, devicePost, endClient, eventually, freePort, makeDevice } from './telemetry-fixtures.ts';

/** Rate limits of device input: a flood is capped, answered 429 (HTTP) or dropped (MQTT); others are not touched. */

const METRICS_TOKEN = 'rate-limit-metrics-token';
let t: TestApp;
let url: string;
let sysadmin: TestClient;
let admin: TestClient;

const stored = async (deviceId: number) =>
  Number(
    (
      await t.db
        .selectFrom('telemetry')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('device_id', '=', deviceId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const post = (token: string, i: number) => devicePost(t, `/api/v1/${token}/telemetry`, { n: i });

beforeAll(async () => {
  t = await createTestApp({
    METRICS_TOKEN,
    TELEMETRY_FLUSH_MS: '20',
    TELEMETRY_RATE_LIMIT_DEVICE_MESSAGES: '20:1,40:60',
    TELEMETRY_RATE_LIMIT_TENANT_MESSAGES: '',
  });
  const port = await freePort();
  await t.handles.telemetry.runtime.startMqtt({ port });
  url = `mqtt://127.0.0.1:${port}`;
  sysadmin = await t.login('sysadmin');
  admin = await t.login('customeradmin');
}, 60_000);
afterAll(() => t?.close());

describe('device rate limits', () => {
  it('answers HTTP over the limit with 429 and Retry-After; another device goes on', async () => {
    const flooding = await makeDevice(t.db, t.tenantA);
    const quiet = await makeDevice(t.db, t.tenantA);
    const codes: number[] = [];
    // one second of the device's time, however long the machine takes to send 31 requests (its clock stands still)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      for (let i = 0; i < 30; i++) codes.push((await post(flooding.token, i)).statusCode);
      expect(codes.filter((c) => c === 200).length).toBe(20);
      const refused = await post(flooding.token, 99);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toMatchObject({ code: 'rate_limited' });
      expect((await post(quiet.token, 1)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    await eventually(async () => (await stored(flooding.id)) === 20);
  });

  it('drops an MQTT flood past the limit (acknowledged, counted), keeps the device connected, and stores the others', async () => {
    const flooding = await makeDevice(t.db, t.tenantA);
    const other = await makeDevice(t.db, t.tenantA);
    const client = await connectDevice(url, { username: flooding.token });
    const otherClient = await connectDevice(url, { username: other.token });
    const acks: Array<Promise<unknown>> = [];
    for (let i = 0; i < 300; i++) acks.push(client.publishAsync(DEVICE_TOPICS.telemetry, JSON.stringify({ n: i }), { qos: 1 }));
    await Promise.all(acks);
    await otherClient.publishAsync(DEVICE_TOPICS.telemetry, '{"n":1}', { qos: 1 });
    expect(await stored(flooding.id)).toBeLessThanOrEqual(40);
    expect(await stored(flooding.id)).toBeGreaterThanOrEqual(20);
    expect(await stored(other.id)).toBe(1);
    expect(client.connected).toBe(true);
    const connection = (await admin.get(`/api/telemetry/devices/${flooding.id}/connection/`)).json();
    expect(connection.rateLimited.dropped).toBeGreaterThanOrEqual(260);
    expect(connection.rateLimited.lastAt).not.toBeNull();
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const line = metrics.body.split('\n').find((l) => l.startsWith('sitewatch_device_rate_limited_total{transport="mqtt",scope="device"}'));
    expect(Number(line?.split(' ').pop())).toBeGreaterThanOrEqual(260);
    expect(metrics.body).not.toMatch(/sitewatch_device_rate_limited_total\{[^}]*device_?id/);
    await endClient(client);
    await endClient(otherClient);
  });

  it('caps a tenant set by the system administrator, without touching another tenant', async () => {
    expect((await admin.put('/api/telemetry/rate-limits/', { tenantMessages: '5:1' })).statusCode).toBe(403);
    const bad = await sysadmin.put('/api/telemetry/rate-limits/', { tenantMessages: '5 per second' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('capacity:seconds');
    const set = await sysadmin.put('/api/telemetry/rate-limits/', { tenantMessages: '25:60' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ limits: { tenantMessages: '25:60', deviceMessages: '20:1,40:60' }, custom: ['tenantMessages'] });
    expect((await admin.get('/api/telemetry/rate-limits/')).json().limits.tenantMessages).toBe('25:60');
    const devices = await Promise.all([1, 2, 3].map(() => makeDevice(t.db, t.tenantA)));
    let ok = 0;
    for (let i = 0; i < 15; i++) for (const d of devices) if ((await post(d.token, i)).statusCode === 200) ok++;
    expect(ok).toBeLessThanOrEqual(25);
    const elsewhere = await makeDevice(t.db, t.tenantB);
    expect((await post(elsewhere.token, 1)).statusCode).toBe(200);
    const adminB = await t.login('customeradmin', HOST_B);
    expect((await adminB.get('/api/telemetry/rate-limits/')).json().custom).toEqual([]);
    const reset = await sysadmin.put('/api/telemetry/rate-limits/', { tenantMessages: null });
    expect(reset.json().custom).toEqual([]);
  });
});
