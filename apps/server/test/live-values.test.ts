import { type DeviceValuesPayload, EVENT_TYPES, type PushEnvelope } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { insertAsset } from '../src/modules/sites/repository.ts';
import { LIVE_VALUES_MIN_GAP_MS } from '../src/modules/telemetry/live.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { devicePost, makeDevice } from './telemetry-fixtures.ts';

let t: TestApp;
let port: number;
/** While set, users who do not see every site see only this one (stands in for their site assignments). */
let onlySite: number | null = null;

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      decorate: {
        directory: (real) => ({
          ...real,
          visibleAssetIds: async (tenantId, userId, roles) =>
            onlySite !== null && !roles.includes('customeradmin') ? [onlySite] : real.visibleAssetIds(tenantId, userId, roles),
        }),
      },
    },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => t?.close());

/** A browser tab's socket: records `device.values` envelopes with the time they arrived. */
class Tab {
  values: Array<{ at: number; data: DeviceValuesPayload }> = [];
  hello = false;
  readonly ws: WebSocket;
  constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (raw) => {
      const envelope = JSON.parse(String(raw)) as PushEnvelope<DeviceValuesPayload>;
      if (envelope.type === 'hello') this.hello = true;
      if (envelope.type === EVENT_TYPES.deviceValues) this.values.push({ at: Date.now(), data: envelope.data });
    });
  }
  watch(deviceIds: number[]) {
    this.ws.send(JSON.stringify({ type: 'watch', deviceIds }));
  }
  of(deviceId: number) {
    return this.values.filter((v) => v.data.deviceId === deviceId);
  }
}

const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
async function open(client: TestClient, host = client.host): Promise<Tab> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { host, cookie: cookieOf(client) } });
  const tab = new Tab(ws);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  for (let i = 0; i < 100 && !tab.hello; i++) await sleep(20);
  return tab;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 2000) {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await sleep(10);
  return check();
}
const asset = async (name: string) =>
  (
    await insertAsset(t.db, t.tenantA, {
      name: `${name} ${Date.now()}`,
      address: ['India', 'Pune'],
      latitude: null,
      longitude: null,
      metadata: {},
      customerId: null,
    } as never)
  ).id;

describe('live values over push', () => {
  it('pushes a value posted over HTTP to the sockets watching the device within a second', async () => {
    const site = await asset('Live site');
    const device = await makeDevice(t.db, t.tenantA, { assetId: site });
    const watcher = await open(await t.login('customeradmin'));
    const bystander = await open(await t.login('customeradmin')); // same user, another page: not watching
    watcher.watch([device.id]);
    await sleep(50);
    const sent = Date.now();
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, { temperature: 31.5, door: 'open' })).statusCode).toBe(200);
    expect(await until(() => watcher.of(device.id).length > 0)).toBe(true);
    const first = watcher.of(device.id)[0];
    expect((first?.at ?? Infinity) - sent).toBeLessThan(1000);
    expect(first?.data).toMatchObject({ deviceId: device.id, assetId: site });
    expect(Object.fromEntries((first?.data.values ?? []).map((v) => [v.key, v.value]))).toEqual({ temperature: 31.5, door: 'open' });
    await sleep(200);
    expect(bystander.values).toEqual([]);
    watcher.ws.close();
    bystander.ws.close();
  });

  it('sends at most one event per device every 500 ms, always ending with the newest values', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const other = await makeDevice(t.db, t.tenantA);
    const tab = await open(await t.login('customeradmin'));
    // when the server let each event go: the spacing is the throttle's, the socket adds the machine's delays to it
    const emitted = new Map<number, number[]>();
    const stopListening = t.handles.events.subscribe((event) => {
      if (event.type !== EVENT_TYPES.deviceValues) return;
      const id = (event.payload as DeviceValuesPayload).deviceId;
      emitted.set(id, [...(emitted.get(id) ?? []), Date.now()]);
    });
    tab.watch([device.id, other.id]);
    await sleep(50);
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 1600) {
      n++;
      await Promise.all([
        devicePost(t, `/api/v1/${device.token}/telemetry`, { counter: n }),
        devicePost(t, `/api/v1/${other.token}/telemetry`, { counter: -n }),
      ]);
    }
    const posted = n;
    expect(posted).toBeGreaterThan(8);
    const newest = (id: number) => tab.of(id).at(-1)?.data.values[0]?.value;
    expect(await until(() => newest(device.id) === posted && newest(other.id) === -posted, 1500)).toBe(true);
    for (const id of [device.id, other.id]) {
      const events = tab.of(id);
      expect(events.length).toBeGreaterThanOrEqual(3);
      expect(events.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / LIVE_VALUES_MIN_GAP_MS) + 1);
      // every event the server let go reached the socket, each spaced at least ~500 ms (timer jitter of a few ms allowed)
      const sent = emitted.get(id) ?? [];
      expect(sent.length).toBe(events.length);
      for (let i = 1; i < sent.length; i++) expect((sent[i] ?? 0) - (sent[i - 1] ?? 0)).toBeGreaterThanOrEqual(LIVE_VALUES_MIN_GAP_MS - 30);
    }
    stopListening();
    tab.ws.close();
  });

  it('never sends values to another tenant or to users who may not see the device’s site', async () => {
    const mine = await asset('Visible site');
    const hidden = await asset('Hidden site');
    const seen = await makeDevice(t.db, t.tenantA, { assetId: mine });
    const secret = await makeDevice(t.db, t.tenantA, { assetId: hidden });
    onlySite = mine;
    try {
      const limited = await open(await t.login('customer'));
      const foreign = await open(await t.login('customeradmin', HOST_B), HOST_B);
      const admin = await open(await t.login('customeradmin'));
      for (const tab of [limited, foreign, admin]) tab.watch([seen.id, secret.id]);
      await sleep(50);
      await devicePost(t, `/api/v1/${seen.token}/telemetry`, { v: 1 });
      await devicePost(t, `/api/v1/${secret.token}/telemetry`, { v: 2 });
      expect(await until(() => admin.of(seen.id).length > 0 && admin.of(secret.id).length > 0)).toBe(true);
      expect(await until(() => limited.of(seen.id).length > 0)).toBe(true);
      await sleep(300);
      expect(limited.of(secret.id)).toEqual([]);
      expect(foreign.values).toEqual([]);
      for (const tab of [limited, foreign, admin]) tab.ws.close();
    } finally {
      onlySite = null;
    }
  });

  it('costs nothing for devices nobody watches', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    const tab = await open(await t.login('customeradmin'));
    await devicePost(t, `/api/v1/${device.token}/telemetry`, { v: 1 });
    await sleep(300);
    expect(tab.of(device.id)).toEqual([]);
    tab.ws.close();
  });
});
