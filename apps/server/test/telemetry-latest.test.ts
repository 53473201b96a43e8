import { type DeviceValuesPayload, EVENT_TYPES, type PushEnvelope } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { devicePost, makeDevice } from './telemetry-fixtures.ts';

let t: TestApp;
let admin: TestClient;
let port: number;

beforeAll(async () => {
  // the coalesced write of the latest values does not come during a test unless the test asks for it
  t = await createTestApp({ TELEMETRY_TOKEN_CACHE_SECONDS: '0', TELEMETRY_FLUSH_MS: '10', TELEMETRY_LATEST_FLUSH_MS: '3600000' });
  admin = await t.login('customeradmin');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => t?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const valuesOf = (rows: Array<{ key: string; value: unknown }>) => Object.fromEntries(rows.map((r) => [r.key, r.value]));

describe('latest values a device was answered for', () => {
  it('are shown by the device page and the batch read at once, before they are written to the latest values', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    expect((await devicePost(t, `/api/v1/${device.token}/attributes`, { fw_version: '7.1.3' })).statusCode).toBe(200);
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, { cell1Signal: -71, mode: 'auto' })).statusCode).toBe(200);
    // not yet in the table: the coalesced write is an hour away
    const inTable = await t.db.selectFrom('telemetry_latest').select('key').where('device_id', '=', device.id).execute();
    expect(inTable).toEqual([]);

    const latest = (await admin.get(`/api/telemetry/devices/${device.id}/latest/`)).json();
    expect(valuesOf(latest.telemetry)).toEqual({ cell1Signal: -71, mode: 'auto' });
    expect(latest.telemetry.map((r: { key: string }) => r.key)).toEqual(['cell1Signal', 'mode']);
    expect(valuesOf(latest.attributes)).toEqual({ fw_version: '7.1.3' });

    const batch = (await admin.get(`/api/telemetry/latest/?ids=${device.id}&keys=cell1Signal`)).json();
    expect(batch.contents).toEqual([expect.objectContaining({ deviceId: device.id, values: { cell1Signal: -71 } })]);

    // a newer stored value wins over the one waiting; the one waiting wins over an older stored one
    await t.handles.telemetry.ingest.buffer.drain();
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, { cell1Signal: -65 })).statusCode).toBe(200);
    const after = (await admin.get(`/api/telemetry/devices/${device.id}/latest/`)).json();
    expect(valuesOf(after.telemetry)).toEqual({ cell1Signal: -65, mode: 'auto' });
  });

  it('are not shown to another tenant', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, { secret: 1 })).statusCode).toBe(200);
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(`/api/telemetry/devices/${device.id}/latest/`)).statusCode).toBe(404);
  });

  it('are pushed when written to a page that began watching after the device reported', async () => {
    const device = await makeDevice(t.db, t.tenantA);
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, { cell1Signal: -80 })).statusCode).toBe(200);
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { host: admin.host, cookie } });
    const received: DeviceValuesPayload[] = [];
    let hello = false;
    ws.on('message', (raw) => {
      const envelope = JSON.parse(String(raw)) as PushEnvelope<DeviceValuesPayload>;
      if (envelope.type === 'hello') hello = true;
      if (envelope.type === EVENT_TYPES.deviceValues) received.push(envelope.data);
    });
    for (let i = 0; i < 100 && !hello; i++) await sleep(20);
    ws.send(JSON.stringify({ type: 'watch', deviceIds: [device.id] }));
    await sleep(100);
    expect(received).toEqual([]);
    // the coalesced write (in this process or an ingest process of its own) is followed by a push
    await t.handles.telemetry.ingest.buffer.drain();
    for (let i = 0; i < 100 && received.length === 0; i++) await sleep(20);
    expect(received[0]).toMatchObject({ deviceId: device.id, values: [expect.objectContaining({ key: 'cell1Signal', value: -80 })] });
    ws.close();
  });
});
