import { EVENT_TYPES, PUSH_CLOSE, type PushEnvelope } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { alarmPayload, ticketPayload, userIdOf } from '../src/modules/notifications/fixtures.ts';
import type { SiteDirectory } from '../src/modules/sites/index.ts';
import type { DomainEvent, WireEvent } from '../src/platform/events.ts';
import { createFanout, transportFor } from '../src/platform/push/fanout.ts';
import { freshDatabase } from './support/database.ts';
import { createTestApp, HOST_A, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

/** The site directory the app sees: the real one, unless a test stands in for it. */
let directoryOverride: SiteDirectory | null = null;
const standIn = (real: SiteDirectory): SiteDirectory => ({
  asset: (...a) => (directoryOverride ?? real).asset(...a),
  device: (...a) => (directoryOverride ?? real).device(...a),
  visibleAssetIds: (...a) => (directoryOverride ?? real).visibleAssetIds(...a),
  usersForAsset: (...a) => (directoryOverride ?? real).usersForAsset(...a),
});

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({}, { decorate: { directory: (real) => standIn(real) } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => t?.close());

/** A socket that records every envelope it receives. */
class Tab {
  received: PushEnvelope[] = [];
  closed: { code: number } | null = null;
  private waiters: Array<() => void> = [];
  readonly ws: WebSocket;
  constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (raw) => {
      this.received.push(JSON.parse(String(raw)));
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      for (const w of this.waiters.splice(0)) w();
    });
  }
  /** Waits until an envelope of the type arrives (or the timeout passes, then returns undefined). */
  async next(type: string, timeoutMs = 2000): Promise<PushEnvelope | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((m) => m.type === type);
      if (found) {
        this.received.splice(this.received.indexOf(found), 1);
        return found;
      }
      if (Date.now() > deadline || this.closed) return undefined;
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
  close() {
    this.ws.close();
  }
}

function connect(headers: Record<string, string>): Promise<Tab> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    const tab = new Tab(ws);
    ws.once('open', () => resolve(tab));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const open = async (client: TestClient, host = client.host) => {
  const tab = await connect({ host, cookie: cookieOf(client) });
  expect(await tab.next('hello')).toBeTruthy();
  return tab;
};
const emit = (event: DomainEvent) => t.handles.events.emit(event);

describe('/ws', () => {
  it('refuses a socket without a session, with another tenant’s session, and from another origin', async () => {
    await expect(connect({ host: HOST_A })).rejects.toThrow('HTTP 401');
    const intruder = await t.login('customeradmin', HOST_B);
    await expect(connect({ host: HOST_A, cookie: cookieOf(intruder) })).rejects.toThrow('HTTP 401');
    await expect(connect({ host: 'nowhere.example.net', cookie: cookieOf(intruder) })).rejects.toThrow('HTTP 421');
    const admin = await t.login('customeradmin');
    await expect(connect({ host: HOST_A, cookie: cookieOf(admin), origin: 'https://evil.example.com' })).rejects.toThrow('HTTP 403');
    const same = await connect({ host: HOST_A, cookie: cookieOf(admin), origin: `http://${HOST_A}` });
    same.close();
  });

  it('accepts a bearer token instead of the cookie, and answers pings', async () => {
    const admin = await t.login('customeradmin');
    const tab = await connect({ host: HOST_A, authorization: `Bearer ${admin.access}` });
    expect(await tab.next('hello')).toMatchObject({ data: { userId: admin.user?.id } });
    tab.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await tab.next('pong')).toBeTruthy();
    tab.close();
  });

  it('delivers a new notification to the sockets of its user only, within the tenant', async () => {
    const fe = await t.login('fieldexecutive');
    const feId = await userIdOf(t.db, t.tenantA, 'fieldexecutive');
    const tabs = [await open(fe), await open(fe)];
    const other = await open(await t.login('vendor'));
    const foreign = await open(await t.login('fieldexecutive', HOST_B), HOST_B);
    const sent = Date.now();
    emit({ type: EVENT_TYPES.ticketAssigned, tenantId: t.tenantA, payload: ticketPayload({ assignedTo: feId }) });
    for (const tab of tabs) {
      const message = await tab.next('notification.created');
      expect(message?.data).toMatchObject({ isRead: false, notification: { verb: 'ticket.assigned' } });
    }
    expect(Date.now() - sent).toBeLessThan(1000);
    expect(await other.next('notification.created', 300)).toBeUndefined();
    expect(await foreign.next('notification.created', 300)).toBeUndefined();
    for (const tab of [...tabs, other, foreign]) tab.close();
  });

  it('tells the other tabs of a user that the unread count changed', async () => {
    const fe = await t.login('fieldexecutive');
    const tab = await open(fe);
    const res = await fe.post('/notification/inbox/mark-all-as-read/');
    expect(res.statusCode).toBe(200);
    expect(await tab.next('notification.updated')).toMatchObject({ data: { unreadCount: 0 } });
    tab.close();
  });

  it('broadcasts ticket and alarm events only to users allowed to see them, never across tenants', async () => {
    const viewer = await open(await t.login('customer')); // Viewers: view_ticket, view_device
    const foreign = await open(await t.login('customeradmin', HOST_B), HOST_B);
    // no site on them, so no site filter applies (see the next test)
    emit({ type: EVENT_TYPES.ticketUpdated, tenantId: t.tenantA, payload: ticketPayload({ changes: ['title'], locationId: null }) });
    expect(await viewer.next('ticket.updated')).toBeTruthy();
    emit({ type: EVENT_TYPES.alarmRaised, tenantId: t.tenantA, payload: alarmPayload({ assetId: null }) });
    expect(await viewer.next('alarm.raised')).toMatchObject({ data: { deviceLabel: 'UPS-88' } });
    expect(await foreign.next('ticket.updated', 300)).toBeUndefined();
    expect(await foreign.next('alarm.raised', 300)).toBeUndefined();
    // job progress and unknown kinds are never broadcast: they reach only the users they name
    emit({ type: EVENT_TYPES.jobProgress, tenantId: t.tenantA, payload: { jobId: 1, kind: 'users', status: 'processing', progress: 5 } });
    expect(await viewer.next('job.progress', 300)).toBeUndefined();
    viewer.close();
    foreign.close();
  });

  it('filters broadcast alarms by the sites a user may see', async () => {
    directoryOverride = {
      asset: async () => null,
      device: async () => null,
      visibleAssetIds: async (_tenant, _user, roles) => (roles.includes('customeradmin') ? 'all' : [8]),
      usersForAsset: async () => [],
    };
    try {
      const limited = await open(await t.login('customer'));
      const admin = await open(await t.login('customeradmin'));
      emit({ type: EVENT_TYPES.alarmRaised, tenantId: t.tenantA, payload: alarmPayload({ assetId: 9, deviceLabel: 'elsewhere' }) });
      emit({ type: EVENT_TYPES.alarmRaised, tenantId: t.tenantA, payload: alarmPayload({ assetId: 8, deviceLabel: 'mine' }) });
      expect(await admin.next('alarm.raised')).toMatchObject({ data: { deviceLabel: 'elsewhere' } });
      expect(await limited.next('alarm.raised')).toMatchObject({ data: { deviceLabel: 'mine' } });
      expect(limited.received.filter((m) => m.type === 'alarm.raised')).toEqual([]);
      limited.close();
      admin.close();
    } finally {
      directoryOverride = null;
    }
  });

  it('closes the sockets of a session that signed out', async () => {
    const user = await t.login('vendor');
    const tab = await open(user);
    expect((await user.get('/logout/')).statusCode).toBe(200);
    await t.handles.push?.checkSessions();
    await tab.next('never', 1000);
    expect(tab.closed?.code).toBe(PUSH_CLOSE.sessionEnded);
  });

  it('closes the sockets of a user who was deactivated, and keeps the others with their permissions', async () => {
    const deactivated = await open(await t.login('storemanager'));
    const staying = await open(await t.login('fieldexecutive'));
    const feId = await userIdOf(t.db, t.tenantA, 'fieldexecutive');
    const feConnections = () => [...(t.handles.push?.hub.connections() ?? [])].filter((c) => c.tenantId === t.tenantA && c.userId === feId);
    const before = feConnections().map((c) => ({ roles: c.roles, permissions: [...c.permissions].sort() }));
    expect(before[0]?.permissions.length).toBeGreaterThan(0);
    const users = () => t.db.updateTable('users').where('tenant_id', '=', t.tenantA).where('username', '=', 'storemanager');
    await users().set({ is_active: false }).execute();
    try {
      await t.handles.push?.checkSessions();
      await deactivated.next('never', 1000);
      expect(deactivated.closed?.code).toBe(PUSH_CLOSE.sessionEnded);
      expect(staying.closed).toBeNull();
      expect(feConnections().map((c) => ({ roles: c.roles, permissions: [...c.permissions].sort() }))).toEqual(before);
      expect(before[0]?.roles).toEqual(['fieldexecutive']);
    } finally {
      await users().set({ is_active: true }).execute();
      staying.close();
    }
  });
});

describe('fan-out across server processes', () => {
  it('delivers an event published by one process to the sockets of another through LISTEN/NOTIFY', async () => {
    const database = await freshDatabase();
    const log = { info() {}, warn() {}, error() {} };
    const seen: Record<string, WireEvent[]> = { a: [], b: [] };
    const nodes = {
      a: createFanout({ db: database.db, transport: transportFor(database, log), deliver: (e) => seen.a?.push(e), log }),
      b: createFanout({ db: database.db, transport: transportFor(database, log), deliver: (e) => seen.b?.push(e), log }),
    };
    try {
      await nodes.a.start();
      await nodes.b.start();
      const event: WireEvent = { type: 'notification.created', tenantId: 1, userIds: [3], payload: { id: 9 } };
      await nodes.a.publish(event);
      const big: WireEvent = { type: 'ticket.updated', tenantId: 1, payload: { text: 'x'.repeat(20_000) } };
      await nodes.b.publish(big);
      const deadline = Date.now() + 3000;
      while ((seen.b?.length ?? 0) < 2 || (seen.a?.length ?? 0) < 2) {
        if (Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      // a delivered its own event locally once and received b's event once; the same for b
      expect(seen.a).toHaveLength(2);
      expect(seen.a).toEqual(expect.arrayContaining([event, { type: 'ticket.updated', tenantId: 1, payload: { truncated: true } }]));
      expect(seen.b).toHaveLength(2);
      expect(seen.b).toEqual(expect.arrayContaining([event, big]));

      // A burst in one tick travels in a few NOTIFY payloads and arrives whole, in order.
      const burst = Array.from({ length: 300 }, (_, i) => ({ type: 'job.progress', tenantId: 1, userIds: [i + 1], payload: { jobId: i } }));
      await Promise.all(burst.map((e) => nodes.a.publish(e)));
      const until = Date.now() + 5000;
      while ((seen.b?.length ?? 0) < 302 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(seen.b?.slice(2)).toEqual(burst);
    } finally {
      await nodes.a.stop();
      await nodes.b.stop();
      await database.close();
    }
  });
});
