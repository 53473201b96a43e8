import { EVENT_TYPES, type InboxItem, NOTIFICATION_EVENTS, TICKET_NOTICE_BATCH } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmPayload, ticketPayload, userIdOf } from '../src/modules/notifications/fixtures.ts';
import type { SiteDirectory } from '../src/modules/sites/index.ts';
import type { DomainEvent } from '../src/platform/events.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

/** The site directory the app sees: the real one, unless a test stands in for it. */
let directoryOverride: SiteDirectory | null = null;
const standIn = (real: SiteDirectory): SiteDirectory => ({
  asset: (...a) => (directoryOverride ?? real).asset(...a),
  device: (...a) => (directoryOverride ?? real).device(...a),
  visibleAssetIds: (...a) => (directoryOverride ?? real).visibleAssetIds(...a),
  usersForAsset: (...a) => (directoryOverride ?? real).usersForAsset(...a),
});

let t: TestApp;
let users: Record<string, number>;
let clients: Record<string, TestClient>;
let otherTenantAdmin: number;

/** Emits a domain event as a service would, and waits until the notifications module handled it. */
async function emit(event: DomainEvent) {
  t.handles.events.emit(event);
  await t.handles.notifications.settled();
}

const inbox = async (client: TestClient, query = '') => {
  const res = await client.get(`/notification/inbox/${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { contents: InboxItem[]; unreadCount: number; totalCount: number };
};

beforeAll(async () => {
  t = await createTestApp({}, { decorate: { directory: (real) => standIn(real) } });
  users = {};
  clients = {};
  for (const name of ['customeradmin', 'fieldexecutive', 'vendor', 'storemanager', 'customer']) {
    users[name] = await userIdOf(t.db, t.tenantA, name);
    clients[name] = await t.login(name);
  }
  otherTenantAdmin = await userIdOf(t.db, t.tenantB, 'customeradmin');
});
afterAll(() => t?.close());

describe('notification targeting', () => {
  it("puts a ticket assigned to a user in that user's inbox, with its link and data, and nobody else's", async () => {
    const p = ticketPayload({ assignedTo: users.fieldexecutive, actorId: users.customeradmin, ownerId: users.customeradmin });
    await emit({ type: EVENT_TYPES.ticketAssigned, tenantId: t.tenantA, payload: p });
    const { contents, unreadCount, totalCount } = await inbox(clients.fieldexecutive as TestClient);
    expect(totalCount).toBe(1);
    expect(unreadCount).toBe(1);
    const item = contents[0] as InboxItem;
    expect(item.isRead).toBe(false);
    expect(item.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(item.notification.message).toBe(`Ticket ${p.ticketId} has been assigned to you: ${p.title}`);
    expect(item.notification.actor?.email).toBe('customeradmin@demo.example.com');
    expect(item.notification.metadata).toEqual({
      url: `/tickets/all/view/?ticketId=${p.id}&historyId=${p.historyId}`,
      urlMask: '/tickets/all/view/?ticketId={id}',
      data: {
        id: p.id,
        priority: 'MAJOR',
        event: 'Power Failure',
        status: 'OPEN',
        type: 'TICKET',
        additionalInformation: { assetLabel: 'Store 7' },
        entityId: 70,
        locationId: 7,
      },
    });
    // the actor assigned it and hears nothing; an uninvolved user neither
    expect((await inbox(clients.customeradmin as TestClient)).totalCount).toBe(0);
    expect((await inbox(clients.vendor as TestClient)).totalCount).toBe(0);
  });

  it('tells the owner, the assignee and the watchers about a status change, but not the one who made it', async () => {
    const before = Object.fromEntries(
      await Promise.all(Object.entries(clients).map(async ([name, c]) => [name, (await inbox(c)).totalCount] as const)),
    );
    const p = ticketPayload({
      ownerId: users.storemanager,
      assignedTo: users.fieldexecutive,
      watcherIds: [users.vendor as number],
      actorId: users.fieldexecutive,
      status: 'RESOLVED',
      changes: ['status', 'resolvedDate'],
    });
    await emit({ type: EVENT_TYPES.ticketUpdated, tenantId: t.tenantA, payload: p });
    const after = async (name: string) => (await inbox(clients[name] as TestClient)).totalCount - (before[name] as number);
    expect(await after('storemanager')).toBe(1);
    expect(await after('vendor')).toBe(1);
    expect(await after('fieldexecutive')).toBe(0);
    expect(await after('customeradmin')).toBe(0);
    const latest = (await inbox(clients.vendor as TestClient)).contents[0] as InboxItem;
    expect(latest.notification.message).toBe(`Ticket ${p.ticketId} status changed to RESOLVED: ${p.title}`);
    expect(latest.notification.verb).toBe('ticket.updated');
  });

  it('ignores ticket updates that do not change the status', async () => {
    const before = (await inbox(clients.storemanager as TestClient)).totalCount;
    await emit({
      type: EVENT_TYPES.ticketUpdated,
      tenantId: t.tenantA,
      payload: ticketPayload({ ownerId: users.storemanager, changes: ['title'] }),
    });
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(before);
  });

  it('tells the escalation targets the helpdesk names about an escalation, and the assignee and owner otherwise', async () => {
    const before = (await inbox(clients.customeradmin as TestClient)).totalCount;
    const beforeOwner = (await inbox(clients.storemanager as TestClient)).totalCount;
    const p = ticketPayload({ ownerId: users.storemanager });
    await emit({ type: EVENT_TYPES.ticketEscalated, tenantId: t.tenantA, userIds: [users.customeradmin as number], payload: p });
    const admin = await inbox(clients.customeradmin as TestClient);
    expect(admin.totalCount).toBe(before + 1);
    expect(admin.contents[0]?.notification.message).toBe(`Ticket ${p.ticketId} has been escalated: ${p.title}`);
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(beforeOwner);
    await emit({ type: EVENT_TYPES.ticketEscalated, tenantId: t.tenantA, payload: ticketPayload({ ownerId: users.storemanager }) });
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(beforeOwner + 1);
  });

  it('leaves out the users the emitter did not name (they turned that notice off)', async () => {
    const before = (await inbox(clients.storemanager as TestClient)).totalCount;
    const beforeVendor = (await inbox(clients.vendor as TestClient)).totalCount;
    const p = ticketPayload({ ownerId: users.storemanager, watcherIds: [users.vendor as number], status: 'CLOSED', changes: ['status'] });
    await emit({ type: EVENT_TYPES.ticketUpdated, tenantId: t.tenantA, userIds: [users.vendor as number], payload: p });
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(before);
    expect((await inbox(clients.vendor as TestClient)).totalCount).toBe(beforeVendor + 1);
    // an assignment tells only the assignee, even when the event names the watchers too
    const q = ticketPayload({ assignedTo: users.storemanager, watcherIds: [users.vendor as number] });
    await emit({
      type: EVENT_TYPES.ticketAssigned,
      tenantId: t.tenantA,
      userIds: [users.storemanager as number, users.vendor as number],
      payload: q,
    });
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(before + 1);
    expect((await inbox(clients.vendor as TestClient)).totalCount).toBe(beforeVendor + 1);
  });

  it('notifies the users who look after the site of an alarm', async () => {
    const asked: Array<[number, number]> = [];
    directoryOverride = {
      asset: async () => null,
      device: async () => null,
      visibleAssetIds: async () => 'all',
      usersForAsset: async (tenantId, assetId) => {
        asked.push([tenantId, assetId]);
        return [users.customer as number];
      },
    };
    try {
      const before = (await inbox(clients.customer as TestClient)).totalCount;
      await emit({ type: EVENT_TYPES.alarmRaised, tenantId: t.tenantA, payload: alarmPayload({ assetId: 8 }) });
      const result = await inbox(clients.customer as TestClient);
      expect(asked).toEqual([[t.tenantA, 8]]);
      expect(result.totalCount).toBe(before + 1);
      expect(result.contents[0]?.notification.message).toBe('CRITICAL alarm on UPS-88 · Store 8: Battery low');
      expect(result.contents[0]?.notification.metadata.url).toBe('/devices/88/view');
      expect(result.contents[0]?.notification.metadata.data).toMatchObject({ id: 88, locationId: 8, type: 'ALARM' });
    } finally {
      directoryOverride = null;
    }
  });

  it("never puts an event of one tenant in another tenant's inbox, even when the event names that user", async () => {
    const intruder = await t.login('customeradmin', HOST_B);
    const before = (await inbox(intruder)).totalCount;
    await emit({
      type: EVENT_TYPES.ticketAssigned,
      tenantId: t.tenantA,
      userIds: [otherTenantAdmin],
      payload: ticketPayload({ assignedTo: otherTenantAdmin }),
    });
    await emit({ type: EVENT_TYPES.alarmRaised, tenantId: t.tenantA, userIds: [otherTenantAdmin], payload: alarmPayload() });
    expect((await inbox(intruder)).totalCount).toBe(before);
  });

  it('handles the same event twice as one notification', async () => {
    const before = (await inbox(clients.vendor as TestClient)).totalCount;
    const p = ticketPayload({ assignedTo: users.vendor });
    await emit({ type: EVENT_TYPES.ticketAssigned, tenantId: t.tenantA, payload: p });
    await emit({ type: EVENT_TYPES.ticketAssigned, tenantId: t.tenantA, payload: p });
    expect((await inbox(clients.vendor as TestClient)).totalCount).toBe(before + 1);
  });
});

describe('notification config', () => {
  /** Saves a user's ticket notification config through the ticket list option. */
  async function configure(
    name: string,
    events: Record<string, boolean>,
    types = ['TICKET', 'WORKORDERTICKET', 'AIAlarmTicket', 'AlarmTicket'],
  ) {
    const res = await (clients[name] as TestClient).put('/helpdesk/preferences/', {
      type: 'all',
      notifications: { events: { created: true, assigned: true, updated: true, escalated: true, ...events }, types, popup: true },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('gives a user only the kinds of ticket event and the ticket types their config keeps, even when the event names them', async () => {
    await configure('storemanager', { updated: false, escalated: true }, ['TICKET']);
    const before = (await inbox(clients.storemanager as TestClient)).totalCount;
    const named = [users.storemanager as number];
    const status = { status: 'RESOLVED', changes: ['status'], ownerId: users.storemanager };
    await emit({ type: EVENT_TYPES.ticketUpdated, tenantId: t.tenantA, userIds: named, payload: ticketPayload(status) });
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(before);
    await emit({
      type: EVENT_TYPES.ticketEscalated,
      tenantId: t.tenantA,
      userIds: named,
      payload: ticketPayload({ type: 'WORKORDERTICKET' }),
    });
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(before);
    await emit({ type: EVENT_TYPES.ticketEscalated, tenantId: t.tenantA, userIds: named, payload: ticketPayload() });
    const after = await inbox(clients.storemanager as TestClient);
    expect(after.totalCount).toBe(before + 1);
    expect(after.contents[0]?.notification.verb).toBe(EVENT_TYPES.ticketEscalated);
    // Without named users the owner is the audience: the config applies all the same.
    await emit({ type: EVENT_TYPES.ticketUpdated, tenantId: t.tenantA, payload: ticketPayload(status) });
    expect((await inbox(clients.storemanager as TestClient)).totalCount).toBe(before + 1);
    await configure('storemanager', {});
  });

  it('sends the assignment notice of a new ticket only to an assignee who keeps assignments on', async () => {
    await configure('customer', { assigned: false });
    const before = (await inbox(clients.customer as TestClient)).totalCount;
    const p = ticketPayload({ assignedTo: users.customer, watcherIds: [users.vendor as number], actorId: users.customeradmin });
    const beforeVendor = (await inbox(clients.vendor as TestClient)).totalCount;
    await emit({
      type: EVENT_TYPES.ticketCreated,
      tenantId: t.tenantA,
      userIds: [users.customer as number, users.vendor as number],
      payload: p,
    });
    await emit({ type: EVENT_TYPES.ticketAssigned, tenantId: t.tenantA, userIds: [users.customer as number], payload: p });
    expect((await inbox(clients.customer as TestClient)).totalCount).toBe(before);
    expect((await inbox(clients.vendor as TestClient)).contents[0]?.notification.verb).toBe(EVENT_TYPES.ticketCreated);
    expect((await inbox(clients.vendor as TestClient)).totalCount).toBe(beforeVendor + 1);
    await configure('customer', {});
  });

  it('stores a batch of ticket events at once and pushes a heavy recipient one count instead of each item', async () => {
    await configure('vendor', { escalated: false });
    const pushed: Array<{ type: string; userIds?: number[] }> = [];
    const stop = t.handles.events.subscribe((e) => pushed.push(e));
    const before = (await inbox(clients.customer as TestClient)).totalCount;
    const beforeVendor = (await inbox(clients.vendor as TestClient)).totalCount;
    const events = Array.from({ length: 30 }, () => ({
      type: EVENT_TYPES.ticketEscalated,
      userIds: [users.customer as number, users.vendor as number],
      payload: ticketPayload(),
    }));
    await emit({ type: TICKET_NOTICE_BATCH, tenantId: t.tenantA, payload: { events } });
    // The same batch handled again adds nothing.
    await emit({ type: TICKET_NOTICE_BATCH, tenantId: t.tenantA, payload: { events } });
    stop?.();
    const customer = await inbox(clients.customer as TestClient, '?limit=100');
    expect(customer.totalCount).toBe(before + 30);
    expect(new Set(customer.contents.slice(0, 30).map((i) => i.notification.metadata.data.id))).toEqual(
      new Set(events.map((e) => e.payload.id)),
    );
    expect((await inbox(clients.vendor as TestClient)).totalCount).toBe(beforeVendor);
    const toCustomer = pushed.filter((e) => e.userIds?.length === 1 && e.userIds[0] === users.customer);
    expect(toCustomer.filter((e) => e.type === NOTIFICATION_EVENTS.created)).toHaveLength(0);
    expect(toCustomer.filter((e) => e.type === NOTIFICATION_EVENTS.updated)).toHaveLength(1);
    await configure('vendor', {});
  });
});

describe('inbox', () => {
  let reader: TestClient;
  beforeAll(async () => {
    reader = await t.login('regionalhead');
    const id = await userIdOf(t.db, t.tenantA, 'regionalhead');
    for (let i = 0; i < 23; i++) {
      await emit({ type: EVENT_TYPES.ticketAssigned, tenantId: t.tenantA, payload: ticketPayload({ assignedTo: id, title: `Item ${i}` }) });
    }
  });

  it('pages by 10 by default, newest first, with the unread and total counts', async () => {
    const first = await inbox(reader);
    expect(first.contents).toHaveLength(10);
    expect(first.totalCount).toBe(23);
    expect(first.unreadCount).toBe(23);
    expect(first.contents[0]?.notification.message).toContain('Item 22');
    const third = await inbox(reader, '?page=3&limit=10&orderBy=-createdAt');
    expect(third.contents.map((c) => c.notification.message.split(': ')[1])).toEqual(['Item 2', 'Item 1', 'Item 0']);
    const oldest = await inbox(reader, '?page=1&limit=1&orderBy=createdAt');
    expect(oldest.contents[0]?.notification.message).toContain('Item 0');
  });

  it('refuses unknown and malformed query parameters with a 400', async () => {
    for (const query of ['?limit=abc', '?page=0', '?orderBy=-title', '?limit=1000', '?color=red']) {
      const res = await reader.get(`/notification/inbox/${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().detail).toBeTruthy();
    }
  });

  it('marks one item read and unread again, and needs both its id and its uuid', async () => {
    const item = (await inbox(reader)).contents[0] as InboxItem;
    const read = await reader.put(`/notification/inbox/${item.id}/`, { isRead: true, uuid: item.uuid });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ item: { id: item.id, isRead: true }, unreadCount: 22 });
    const wrongUuid = await reader.put(`/notification/inbox/${item.id}/`, { isRead: false, uuid: '00000000-0000-4000-8000-000000000000' });
    expect(wrongUuid.statusCode).toBe(404);
    const malformed = await reader.put(`/notification/inbox/${item.id}/`, { isRead: 'yes', uuid: item.uuid });
    expect(malformed.statusCode).toBe(400);
    const unread = await reader.put(`/notification/inbox/${item.id}/`, { isRead: false, uuid: item.uuid });
    expect(unread.json()).toMatchObject({ item: { isRead: false }, unreadCount: 23 });
  });

  it("does not let a user change another user's item", async () => {
    const item = (await inbox(reader)).contents[0] as InboxItem;
    const other = await (clients.vendor as TestClient).put(`/notification/inbox/${item.id}/`, { isRead: true, uuid: item.uuid });
    expect(other.statusCode).toBe(404);
    const intruder = await t.login('customeradmin', HOST_B);
    const foreign = await intruder.put(`/notification/inbox/${item.id}/`, { isRead: true, uuid: item.uuid });
    expect(foreign.statusCode).toBe(404);
    expect((await inbox(reader)).contents[0]?.isRead).toBe(false);
  });

  it('keeps the unread count exact under concurrent marks', async () => {
    const all = (await inbox(reader, '?limit=100')).contents;
    const toRead = all.slice(0, 15);
    const toggled = all.slice(15, 20);
    await Promise.all([
      ...toRead.map((i) => reader.put(`/notification/inbox/${i.id}/`, { isRead: true, uuid: i.uuid })),
      ...toggled.flatMap((i) => [
        reader.put(`/notification/inbox/${i.id}/`, { isRead: true, uuid: i.uuid }),
        reader.put(`/notification/inbox/${i.id}/`, { isRead: true, uuid: i.uuid }),
      ]),
    ]);
    const after = await inbox(reader);
    expect(after.unreadCount).toBe(23 - 20);
    const unreadRows = await t.db
      .selectFrom('notification_inbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', await userIdOf(t.db, t.tenantA, 'regionalhead'))
      .where('is_read', '=', false)
      .executeTakeFirstOrThrow();
    expect(Number(unreadRows.n)).toBe(after.unreadCount);
    const unreadOnly = await inbox(reader, '?isRead=false&limit=100');
    expect(unreadOnly.contents).toHaveLength(3);
  });

  it('marks all as read, also while single items are marked unread at the same time', async () => {
    const all = (await inbox(reader, '?limit=100')).contents;
    const results = await Promise.all([
      reader.post('/notification/inbox/mark-all-as-read/'),
      ...all.slice(0, 5).map((i) => reader.put(`/notification/inbox/${i.id}/`, { isRead: false, uuid: i.uuid })),
    ]);
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const after = await inbox(reader, '?limit=100');
    expect(after.unreadCount).toBe(after.contents.filter((c) => !c.isRead).length);
    const again = await reader.post('/notification/inbox/mark-all-as-read/');
    expect(again.json().unreadCount).toBe(0);
    expect((await inbox(reader)).unreadCount).toBe(0);
  });
});
