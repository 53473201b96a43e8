import { EVENT_TYPES, type PushEnvelope } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { alarmPayload } from '../src/modules/notifications/fixtures.ts';
import { makeDevice, makeSite, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_A, type TestApp, type TestClient } from './support/harness.ts';

/**
 * Site scoping on telemetry, tickets and push: a user assigned to one site sees nothing of another, and the
 * directory that decides it is a required port, so no module can be built (or registered first) without it.
 * The push socket's sites are read while it opens; the directory here answers only when the test lets it, so an
 * event published in that window must not leak.
 */
let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let mine: { id: number };
let theirs: { id: number };
let deviceHere: { id: number };
let deviceThere: { id: number };
let port = 0;
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      decorate: {
        directory: (real) => ({
          ...real,
          visibleAssetIds: async (...args) => {
            await gate;
            return real.visibleAssetIds(...args);
          },
        }),
      },
    },
  );
  admin = await t.login('customeradmin');
  customer = await t.login('customer');
  mine = await makeSite(admin, 'Scoped Mine');
  theirs = await makeSite(admin, 'Scoped Theirs');
  deviceHere = await makeDevice(admin, mine.id, 'SCOPE-HERE');
  deviceThere = await makeDevice(admin, theirs.id, 'SCOPE-THERE');
  const res = await admin.post('/iotapp/user-assets/', { userId: await userId(t, t.tenantA, 'customer'), assetIds: [mine.id] });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => t?.close());

describe('site scoping', () => {
  it('telemetry: a device of a site the user does not see is not found', async () => {
    expect((await customer.get(`/api/telemetry/devices/${deviceHere.id}/latest/`)).statusCode).toBe(200);
    expect((await customer.get(`/api/telemetry/devices/${deviceThere.id}/latest/`)).statusCode).toBe(404);
  });

  it('tickets: a ticket of a site the user does not see is neither listed nor readable', async () => {
    const there = await raise(admin, { locationId: theirs.id, title: 'Scoped elsewhere' });
    const here = await raise(admin, { locationId: mine.id, title: 'Scoped here' });
    expect((await customer.get(`/helpdesk/tickets/${there.id}/`)).statusCode).toBe(404);
    expect((await customer.get(`/helpdesk/tickets/${here.id}/`)).statusCode).toBe(200);
    const list = (await customer.get('/helpdesk/tickets/?limit=100')).json();
    const ids = list.contents.map((c: { id: number }) => c.id);
    expect(ids).toContain(here.id);
    expect(ids).not.toContain(there.id);
  });

  it('push: no event of another site reaches the socket, not even before its sites are known', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const received: PushEnvelope[] = [];
    const cookie = [...customer.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { host: HOST_A, cookie } });
    ws.on('message', (raw) => received.push(JSON.parse(String(raw))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    // the socket is open, its sites not read yet: an alarm of a site the user does not see is published now
    t.handles.events.emit({
      type: EVENT_TYPES.alarmRaised,
      tenantId: t.tenantA,
      payload: alarmPayload({ assetId: theirs.id, deviceLabel: 'early' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    open();
    const hello = Date.now() + 3000;
    while (!received.some((m) => m.type === 'hello') && Date.now() < hello) await new Promise((resolve) => setTimeout(resolve, 20));
    t.handles.events.emit({
      type: EVENT_TYPES.alarmRaised,
      tenantId: t.tenantA,
      payload: alarmPayload({ assetId: theirs.id, deviceLabel: 'theirs' }),
    });
    t.handles.events.emit({
      type: EVENT_TYPES.alarmRaised,
      tenantId: t.tenantA,
      payload: alarmPayload({ assetId: mine.id, deviceLabel: 'mine' }),
    });
    const until = Date.now() + 3000;
    while (!received.some((m) => m.type === 'alarm.raised') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    ws.close();
    const alarms = received.filter((m) => m.type === 'alarm.raised').map((m) => (m.data as { deviceLabel: string }).deviceLabel);
    expect(alarms).toEqual(['mine']);
  });
});
