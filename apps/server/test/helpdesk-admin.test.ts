import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite, put, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let fe: TestClient;
let intruder: TestClient;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  customer = await t.login('customer');
  fe = await t.login('fieldexecutive');
  intruder = await t.login('customeradmin', HOST_B);
  for (const name of ['customeradmin', 'customer', 'fieldexecutive']) ids[name] = await userId(t, t.tenantA, name);
});
afterAll(() => t?.close());

describe('helpdesk configuration', () => {
  it('answers the spec defaults per ticket type', async () => {
    const config = (await customer.get('/helpdesk/config/')).json();
    expect(config.ratingThreshold).toBe(3);
    expect(config.raiseTicketOnLowRating).toBe(true);
    expect(config.types.TICKET).toMatchObject({
      label: 'Escalation Tickets',
      type: 'TICKET',
      refreshInterval: 10,
      createdBy: false,
      statusCards: ['OPEN', 'INPROGRESS', 'RESOLVED', 'CLOSED'],
      ticketViewConfigs: {
        watchers: true,
        rating: true,
        ratingOwnerOnly: true,
        history: true,
        checklists: true,
        costIncurred: true,
        workOrder: true,
        markAttendance: true,
      },
    });
    expect(config.types.TICKET.tableView.columns).toEqual([
      'ticketId',
      'location',
      'title',
      'event',
      'subEvent',
      'dueDate',
      'createdAt',
      'priority',
      'status',
    ]);
    expect(config.types.TICKET.tableView.hidden).toEqual(
      expect.arrayContaining(['city', 'assetType', 'entity', 'description', 'resolvedDate', 'assignedDate', 'acknowledged']),
    );
  });

  it('changes priorities and type settings for admins only, refusing a refresh under 5 s', async () => {
    const config = (await admin.get('/helpdesk/config/')).json();
    const fast = await admin.put('/helpdesk/config/', { typeSettings: { ...config.types.TICKET, refreshInterval: 4 } });
    expect(fast.statusCode).toBe(400);
    const res = await admin.put('/helpdesk/config/', { priorities: [...config.priorities, { name: 'BLOCKER', color: '#000000' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await customer.get('/helpdesk/priority/')).json().contents.at(-1)).toEqual({ name: 'BLOCKER', color: '#000000' });
    expect(
      (
        await admin.put('/helpdesk/config/', {
          priorities: [
            { name: 'A', color: '#111111' },
            { name: 'A', color: '#222222' },
          ],
        })
      ).statusCode,
    ).toBe(400);
    expect((await fe.put('/helpdesk/config/', { ratingThreshold: 2 })).statusCode).toBe(403);
    expect((await intruder.get('/helpdesk/priority/')).json().contents.map((p: { name: string }) => p.name)).not.toContain('BLOCKER');
    const view = await admin.put('/helpdesk/config/', {
      typeSettings: { ...config.types.TICKET, ticketViewConfigs: { ...config.types.TICKET.ticketViewConfigs, watchers: false } },
    });
    expect(view.statusCode).toBe(200);
    const ticket = await raise(admin, {});
    expect(ticket.can.watch).toBe(false);
    expect((await admin.post(`/helpdesk/tickets/${ticket.id}/watchers/`, {})).statusCode).toBe(403);
    await admin.put('/helpdesk/config/', { typeSettings: config.types.TICKET });
  });
});

describe('list preferences', () => {
  it('remembers columns and view per user and type, and the notification config per user', async () => {
    const initial = (await fe.get('/helpdesk/preferences/?type=TICKET')).json();
    expect(initial.list).toMatchObject({ view: 'table', groupByDay: false, autoRefresh: true, onlyMine: false });
    expect(initial.list.columns).toBeUndefined();
    const saved = await fe.put('/helpdesk/preferences/', {
      type: 'TICKET',
      list: {
        columns: ['ticketId', 'title', 'city', 'status'],
        view: 'compact',
        groupByDay: true,
        autoRefresh: true,
        refreshInterval: 30,
        onlyMine: true,
      },
      notifications: { events: { created: false, assigned: true, updated: true, escalated: true }, types: ['TICKET'], popup: false },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await fe.get('/helpdesk/preferences/?type=TICKET')).json().list).toMatchObject({
      columns: ['ticketId', 'title', 'city', 'status'],
      view: 'compact',
    });
    expect((await fe.get('/helpdesk/preferences/?type=WORKORDERTICKET')).json().list.view).toBe('table');
    expect((await admin.get('/helpdesk/preferences/?type=TICKET')).json().list.view).toBe('table');
    expect((await fe.put('/helpdesk/preferences/', { type: 'TICKET', list: { columns: ['password'] } })).statusCode).toBe(400);
    expect((await fe.put('/helpdesk/preferences/', { type: 'TICKET', list: { refreshInterval: 2 } })).statusCode).toBe(400);
  });

  it('leaves out of the inbox the users whose notification config turns that kind of event or ticket off', async () => {
    const inbox = async (client: TestClient) =>
      (await client.get('/notification/inbox/?limit=100')).json() as { contents: Array<{ notification: { verb: string } }> };
    const settled = () => t.handles.notifications.settled();
    // The field executive turned "created" off above and keeps TICKET only; the customer keeps the defaults.
    const beforeFe = (await inbox(fe)).contents.length;
    const beforeCustomer = (await inbox(customer)).contents.length;
    await raise(admin, { assignedTo: ids.fieldexecutive, watchers: [ids.customer] });
    await settled();
    const feItems = (await inbox(fe)).contents;
    expect(feItems.slice(0, feItems.length - beforeFe).map((i) => i.notification.verb)).toEqual(['ticket.assigned']);
    expect((await inbox(customer)).contents.slice(0, 1).map((i) => i.notification.verb)).toEqual(['ticket.created']);
    expect((await inbox(customer)).contents.length).toBe(beforeCustomer + 1);
    // A work order is not among the field executive's types.
    await raise(admin, { type: 'WORKORDERTICKET', assignedTo: ids.fieldexecutive });
    await settled();
    expect((await inbox(fe)).contents.length).toBe(beforeFe + 1);
  });
});

describe('assignees', () => {
  it("lists the tenant's active users for the pickers, searchable", async () => {
    const res = await customer.get('/helpdesk/assignees/?search=fieldexec');
    expect(res.statusCode).toBe(200);
    expect(res.json().contents).toEqual([
      { id: ids.fieldexecutive, name: expect.any(String), email: 'fieldexecutive@demo.example.com', roles: ['fieldexecutive'] },
    ]);
    const byIds = (await customer.get(`/helpdesk/assignees/?ids=${ids.customer},${ids.fieldexecutive}`)).json();
    expect(byIds.contents).toHaveLength(2);
    expect((await intruder.get(`/helpdesk/assignees/?ids=${ids.customer}`)).json().contents).toEqual([]);
  });
});

describe('dashboard and reports', () => {
  beforeAll(async () => {
    const site = await makeSite(admin, 'Report site');
    const a = await raise(admin, { priority: 'CRITICAL', locationId: site.id, assignedTo: ids.fieldexecutive, event: 'Power Failure' });
    await raise(admin, { priority: 'LOW', event: 'Water' });
    await put(fe, a.id, { status: 'RESOLVED' });
    await raise(intruder, { priority: 'CRITICAL' });
  });

  it('sums up the tickets of the tenant in the range', async () => {
    const res = await admin.get('/helpdesk/dashboard/');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d.total).toBeGreaterThanOrEqual(3);
    expect(d.resolvedInRange).toBe(1);
    expect(d.byStatus.find((s: { key: string }) => s.key === 'RESOLVED')).toMatchObject({ count: 1, color: '#9a55f2' });
    expect(d.byPriority.find((s: { key: string }) => s.key === 'CRITICAL')).toMatchObject({ count: 1 });
    expect(d.perDay.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10) });
    expect(d.avgResolutionHours).toEqual(expect.any(Number));
    const old = (await admin.get(`/helpdesk/dashboard/?to=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`)).json();
    expect(old.total).toBe(0);
    expect((await admin.get('/helpdesk/dashboard/?from=2020-01-01T00:00:00Z')).statusCode).toBe(400);
  });

  it('counts a ticket as resolved on the day it was resolved, not on the day it was raised', async () => {
    const late = await raise(admin, { priority: 'LOW', event: 'Water' });
    await put(admin, late.id, { status: 'RESOLVED' });
    const raisedOn = new Date(Date.now() - 3 * 86_400_000);
    await t.db.updateTable('tickets').set({ created_at: raisedOn }).where('id', '=', late.id).execute();
    const d = (await admin.get('/helpdesk/dashboard/')).json();
    const day = (iso: string) => d.perDay.find((x: { day: string }) => x.day === iso.slice(0, 10));
    expect(day(raisedOn.toISOString())).toMatchObject({ created: 1, resolved: 0 });
    expect(day(new Date().toISOString()).resolved).toBeGreaterThanOrEqual(2);
  });

  it('builds each report kind as columns and rows', async () => {
    for (const kind of ['status', 'issue-type', 'assignee', 'location', 'ageing', 'resolution']) {
      const res = await admin.get(`/helpdesk/reports/?kind=${kind}`);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(200);
      const report = res.json();
      expect(report.kind).toBe(kind);
      expect(report.columns.length).toBeGreaterThan(2);
      expect(report.rows.length).toBeGreaterThan(0);
      for (const row of report.rows) expect(Object.keys(row).sort()).toEqual(report.columns.map((c: { key: string }) => c.key).sort());
    }
    const byAssignee = (await admin.get('/helpdesk/reports/?kind=assignee')).json();
    expect(byAssignee.rows.find((r: { assignee: string }) => r.assignee !== 'Unassigned')).toMatchObject({ resolved: 1 });
    const location = (await admin.get('/helpdesk/reports/?kind=location')).json();
    expect(location.rows.map((r: { location: string }) => r.location)).toContain('Report site');
    expect((await admin.get('/helpdesk/reports/?kind=secret')).statusCode).toBe(400);
    const tenantB = (await intruder.get('/helpdesk/reports/?kind=status')).json();
    expect(tenantB.rows.reduce((a: number, r: { count: number }) => a + r.count, 0)).toBe(1);
  });
});
