import type { Ticket, TicketSummary } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEW_WORD_MATCHES, frequentWords, wordCandidates } from '../src/modules/helpdesk/ticket-repository.ts';
import { attach, getTicket, history, makeDevice, makeSite, put, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let fe: TestClient;
let vendor: TestClient;
let intruder: TestClient;
const ids: Record<string, number> = {};
let site: { id: number; name: string };
let device: { id: number; label: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  customer = await t.login('customer');
  fe = await t.login('fieldexecutive');
  vendor = await t.login('vendor');
  intruder = await t.login('customeradmin', HOST_B);
  for (const name of ['customeradmin', 'customer', 'fieldexecutive', 'vendor', 'areahead']) ids[name] = await userId(t, t.tenantA, name);
  site = await makeSite(admin, 'Pune Central');
  device = await makeDevice(admin, site.id, 'GEN-PUNE-1');
  // The customer user and the field executive work at this site.
  for (const who of ['customer', 'fieldexecutive']) {
    const res = await admin.post('/iotapp/user-assets/', { userId: ids[who], assetIds: [site.id] });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => t?.close());

const list = async (client: TestClient, query: string) => {
  const res = await client.get(`/helpdesk/tickets/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { contents: TicketSummary[]; totalCount: number; totalExact: boolean };
};

describe('statuses and priorities', () => {
  it('lists the statuses with the spec colours and their allowed transitions', async () => {
    const res = await customer.get('/helpdesk/status/?limit=50&page=1');
    expect(res.statusCode).toBe(200);
    const { contents, totalCount } = res.json();
    expect(totalCount).toBe(9);
    const colour = Object.fromEntries(contents.map((s: { name: string; color: string }) => [s.name, s.color]));
    expect(colour).toMatchObject({ OPEN: '#ff8a00', INPROGRESS: '#00b7c2', RESOLVED: '#9a55f2', CLOSED: '#4bc177' });
    expect(contents.find((s: { name: string }) => s.name === 'RESOLVED').transitions).toEqual(['CLOSED', 'RE-OPENED']);
    const paged = (await customer.get('/helpdesk/status/?limit=4&page=3')).json();
    expect(paged.contents.map((s: { name: string }) => s.name)).toEqual(['FLAGGED']);
  });

  it('lists the configured priorities', async () => {
    const res = await customer.get('/helpdesk/priority/');
    expect(res.json().contents.map((p: { name: string }) => p.name)).toEqual(['CRITICAL', 'MAJOR', 'MINOR', 'LOW']);
  });
});

describe('raising tickets', () => {
  it('lets a customer user raise a ticket at a site and device, with the spec defaults and labels filled in', async () => {
    const ticket = await raise(customer, { locationId: site.id, entityId: device.id, description: 'Fails on the second crank' });
    expect(ticket).toMatchObject({
      type: 'TICKET',
      status: 'OPEN',
      priority: 'MINOR',
      title: 'Generator not starting',
      event: 'Power Failure',
      locationId: site.id,
      entityId: device.id,
      entityProfileType: 'GENERATOR',
      city: 'Pune',
      assignedTo: null,
      acknowledged: false,
      version: 1,
      additionalInformation: { assetLabel: 'Pune Central', deviceLabel: 'GEN-PUNE-1' },
      createdBy: { id: ids.customer, email: 'customer@demo.example.com' },
    });
    expect(ticket.ticketId).toMatch(/^TKT-\d+$/);
    expect(new Date(ticket.dueDate as string).getTime() - Date.now()).toBeGreaterThan(47 * 3600_000);
    expect(ticket.statusAgeing.OPEN).toMatchObject({ duration: 0, exitedAt: null, count: 1 });
    expect(ticket.can).toMatchObject({ edit: true, assign: false, statuses: ['CLOSED'], rate: false });
    const entries = await history(customer, ticket.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'created', changes: [{ field: 'status', from: null, to: 'OPEN' }] });
  });

  it('numbers tickets per tenant and per type prefix', async () => {
    const a = await raise(fe, { type: 'WORKORDERTICKET' });
    const b = await raise(intruder, {});
    expect(a.ticketId).toMatch(/^WO-\d+$/);
    expect(b.ticketId).toBe('TKT-1');
  });

  it('keeps the other kinds of ticket for users who may add tickets', async () => {
    const res = await customer.post('/helpdesk/tickets/', { title: 'PM visit', event: 'Maintenance', type: 'WORKORDERTICKET' });
    expect(res.statusCode).toBe(403);
    const other = await customer.post('/helpdesk/tickets/', { title: 'x', event: 'y', status: 'INPROGRESS' });
    expect(other.statusCode).toBe(403);
  });

  it('validates the body with the spec messages', async () => {
    const long = await customer.post('/helpdesk/tickets/', { title: 'x'.repeat(251), event: 'Power Failure' });
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toContain('Please use maximum 250 characters');
    const empty = await customer.post('/helpdesk/tickets/', { title: 'Broken', event: '  ' });
    expect(empty.json().detail).toContain("Event name can't be empty");
    const badPriority = await customer.post('/helpdesk/tickets/', { title: 'Broken', event: 'x', priority: 'URGENT' });
    expect(badPriority.statusCode).toBe(400);
    expect(badPriority.json().detail).toBe('Unknown priority: URGENT');
  });

  it("refuses another tenant's site, device and users", async () => {
    const foreignSite = await makeSite(intruder, 'Acme Store 1');
    const res = await customer.post('/helpdesk/tickets/', { title: 'x', event: 'y', locationId: foreignSite.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('The location is not a site of this customer');
    const foreignDevice = await makeDevice(intruder, foreignSite.id);
    const dev = await admin.post('/helpdesk/tickets/', { title: 'x', event: 'y', entityId: foreignDevice.id });
    expect(dev.json().detail).toBe('The device is not a device of this customer');
    const bUser = await userId(t, t.tenantB, 'fieldexecutive');
    const assign = await admin.post('/helpdesk/tickets/', { title: 'x', event: 'y', assignedTo: bUser });
    expect(assign.json().detail).toBe('The assignee is not a user of this customer');
  });

  it('raises tickets without a location', async () => {
    const ticket = await raise(admin, { title: 'Portal login slow', event: 'Software' });
    expect(ticket.locationId).toBeNull();
    expect(ticket.additionalInformation).toMatchObject({ assetLabel: null, deviceLabel: null });
  });
});

describe('lists', () => {
  let mine: Ticket;
  beforeAll(async () => {
    mine = await raise(fe, {
      title: 'Diesel leak near tank',
      event: 'Fuel',
      priority: 'CRITICAL',
      locationId: site.id,
      assignedTo: ids.fieldexecutive,
    });
  });

  it('filters by status, priority, type and date range, paginates in SQL and counts', async () => {
    const all = await list(admin, '?limit=2&page=1');
    expect(all.contents).toHaveLength(2);
    expect(all.totalExact).toBe(true);
    expect(all.totalCount).toBeGreaterThanOrEqual(4);
    const page2 = await list(admin, '?limit=2&page=2');
    expect(page2.contents.map((c) => c.id)).not.toContain(all.contents[0]?.id);
    expect(page2.totalCount).toBe(all.totalCount);
    // a page past the end still counts the whole list
    const beyond = await list(admin, `?limit=2&page=${Math.ceil(all.totalCount / 2) + 1}`);
    expect(beyond).toMatchObject({ contents: [], totalCount: all.totalCount, totalExact: true });
    const critical = await list(admin, '?priority=CRITICAL&status=OPEN,INPROGRESS');
    expect(critical.contents.map((c) => c.id)).toEqual([mine.id]);
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const ranged = await list(admin, `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&type=TICKET`);
    expect(ranged.contents.every((c) => c.type === 'TICKET')).toBe(true);
    const past = await list(admin, `?to=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`);
    expect(past.totalCount).toBe(0);
  });

  it('searches by words and ticket number', async () => {
    expect((await list(admin, '?search=diesel%20tank')).contents.map((c) => c.id)).toEqual([mine.id]);
    expect((await list(admin, `?search=${mine.ticketId}`)).contents.map((c) => c.id)).toEqual([mine.id]);
    expect((await list(admin, `?search=${mine.ticketId.toLowerCase()}`)).contents.map((c) => c.id)).toEqual([mine.id]);
    expect((await list(admin, `?search=${encodeURIComponent(` ${mine.ticketId} `)}`)).contents.map((c) => c.id)).toEqual([mine.id]);
    expect((await list(admin, '?search=TKT-99999999')).totalCount).toBe(0);
    expect((await list(admin, '?search=dies')).contents.map((c) => c.id)).toEqual([mine.id]);
    expect((await list(admin, '?search=nosuchword')).totalCount).toBe(0);
  });

  it('finds a word that matches more tickets than are looked up by id in the list order, within the scope', async () => {
    const word = `common${Date.now()}`;
    const many = FEW_WORD_MATCHES + 2;
    const created = await t.db
      .insertInto('tickets')
      .values(
        Array.from({ length: many }, (_, i) => ({
          tenant_id: t.tenantA,
          ticket_no: `TKT-${900_000 + i}`,
          type: 'TICKET',
          status: 'OPEN',
          priority: 'LOW',
          event: 'HVAC',
          title: `${word} check ${i}`,
          location_id: i === 0 ? site.id : null,
          created_by: ids.customeradmin,
        })),
      )
      .returning('id')
      .execute();
    const found = await list(admin, `?search=${word}&limit=5`);
    expect(found.totalCount).toBe(many);
    expect(found.contents).toHaveLength(5);
    expect((await list(admin, `?search=${word}%20check%200`)).contents.map((c) => c.title)).toContain(`${word} check 0`);
    // The field executive sees only the one at their site, whichever way the words are looked up.
    expect((await list(fe, `?search=${word}`)).totalCount).toBe(1);
    // Once the statistics count the word as frequent, it is not looked up through the index; a rare one beside it is.
    await sql`analyze tickets`.execute(t.db);
    const frequent = await frequentWords(t.db);
    expect(frequent).toContain(word);
    expect(await wordCandidates(t.db, t.tenantA, word, frequent)).toBeUndefined();
    const candidates = await wordCandidates(t.db, t.tenantA, `${word} ${created.length - 1}`, frequent);
    expect(candidates).toContain(Number(created.at(-1)?.id));
    expect(await wordCandidates(t.db, t.tenantA, '-- --', frequent)).toEqual([]);
    await t.db
      .deleteFrom('tickets')
      .where(
        'id',
        'in',
        created.map((r) => r.id),
      )
      .execute();
  });

  it('finds an edited ticket by its new words only, and a status change keeps it found', async () => {
    const ticket = await raise(admin, { title: 'Rectifier module flapping' });
    expect((await list(admin, '?search=flapping')).contents.map((c) => c.id)).toEqual([ticket.id]);
    expect((await put(admin, ticket.id, { title: 'Battery bank swollen' })).statusCode).toBe(200);
    expect((await list(admin, '?search=flapping')).totalCount).toBe(0);
    expect((await list(admin, '?search=swollen')).contents.map((c) => c.id)).toEqual([ticket.id]);
    expect((await put(admin, ticket.id, { status: 'INPROGRESS' })).statusCode).toBe(200);
    expect((await list(admin, '?search=battery%20swoll')).contents.map((c) => c.id)).toEqual([ticket.id]);
  });

  it('shows only my tickets on request, and sorts', async () => {
    const only = await list(fe, '?mine=true');
    expect(only.contents.every((c) => c.assignedTo === ids.fieldexecutive || c.createdBy?.id === ids.fieldexecutive)).toBe(true);
    expect(only.contents.map((c) => c.id)).toContain(mine.id);
    const asc = await list(admin, '?orderBy=createdAt&limit=100');
    const times = asc.contents.map((c) => c.createdAt);
    expect([...times].sort()).toEqual(times);
    const byPriority = await list(admin, '?orderBy=priority&limit=100');
    expect(byPriority.contents[0]?.priority).toBe('CRITICAL');
  });

  it('refuses unknown filters and malformed values with a clear 400', async () => {
    const unknown = await admin.get('/helpdesk/tickets/?colour=red');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toBe('Colour is not a known field');
    expect((await admin.get('/helpdesk/tickets/?status=DONE')).statusCode).toBe(400);
    expect((await admin.get('/helpdesk/tickets/?from=yesterday')).statusCode).toBe(400);
    expect((await admin.get('/helpdesk/tickets/?orderBy=-password')).statusCode).toBe(400);
    const reversed = await admin.get(`/helpdesk/tickets/?from=${new Date().toISOString()}&to=${new Date(Date.now() - 1000).toISOString()}`);
    expect(reversed.json().detail).toBe('Please choose an end date greater than the start date');
  });

  it('counts tickets per status for the status cards', async () => {
    const res = await admin.get('/helpdesk/tickets/stats/?type=all');
    expect(res.statusCode).toBe(200);
    const { contents, total } = res.json();
    expect(contents.find((c: { status: string }) => c.status === 'OPEN')).toMatchObject({ color: '#ff8a00' });
    expect(total).toBe(contents.reduce((a: number, c: { count: number }) => a + c.count, 0));
  });

  it('counts the days of "group by day" over the whole filtered list, not just the page', async () => {
    const at = { '2026-01-12T09:00:00Z': 7, '2026-01-11T20:00:00Z': 5, '2026-01-10T08:00:00Z': 3 };
    const made: number[] = [];
    for (const [when, n] of Object.entries(at)) {
      for (let i = 0; i < n; i++) {
        const ticket = await raise(admin, { event: 'Day count', priority: i % 2 ? 'MINOR' : 'MAJOR' });
        await t.db
          .updateTable('tickets')
          .set({ created_at: new Date(when) })
          .where('id', '=', ticket.id)
          .execute();
        made.push(ticket.id);
      }
    }
    const filter = `event=Day%20count&from=${encodeURIComponent('2026-01-01T00:00:00Z')}&to=${encodeURIComponent('2026-02-01T00:00:00Z')}`;
    const page = await list(admin, `?${filter}&limit=4`);
    expect(page.contents).toHaveLength(4);
    expect(page.totalCount).toBe(15);
    const days = await admin.get(`/helpdesk/tickets/days/?${filter}`);
    expect(days.statusCode, days.body).toBe(200);
    expect(days.json().contents).toEqual([
      { day: '2026-01-12', count: 7 },
      { day: '2026-01-11', count: 5 },
      { day: '2026-01-10', count: 3 },
    ]);
    // Days are counted in the browser's time zone: 20:00 UTC is the next morning in India.
    const india = (await admin.get(`/helpdesk/tickets/days/?${filter}&timeZone=Asia/Kolkata`)).json();
    expect(india.contents).toEqual([
      { day: '2026-01-12', count: 12 },
      { day: '2026-01-10', count: 3 },
    ]);
    // The other filters apply as in the list.
    const major = (await admin.get(`/helpdesk/tickets/days/?${filter}&priority=MAJOR`)).json();
    expect(major.contents).toEqual([
      { day: '2026-01-12', count: 4 },
      { day: '2026-01-11', count: 3 },
      { day: '2026-01-10', count: 2 },
    ]);
    expect((await admin.get(`/helpdesk/tickets/days/?${filter}&timeZone=Mars/Olympus`)).statusCode).toBe(400);
    expect((await intruder.get(`/helpdesk/tickets/days/?${filter}`)).json().contents).toEqual([]);
    expect(made).toHaveLength(15);
  });

  it('shows a user only the tickets of their sites and the ones they take part in', async () => {
    const elsewhere = await raise(admin, {
      title: 'Other site issue',
      event: 'Power Failure',
      locationId: (await makeSite(admin, 'Mumbai')).id,
    });
    const feList = await list(fe, '?limit=100');
    expect(feList.contents.map((c) => c.id)).not.toContain(elsewhere.id);
    expect((await fe.get(`/helpdesk/tickets/${elsewhere.id}/`)).statusCode).toBe(404);
    const vendorList = await list(vendor, '?limit=100');
    expect(vendorList.contents).toEqual([]);
    expect((await list(admin, '?limit=100')).contents.map((c) => c.id)).toContain(elsewhere.id);
  });

  it('keeps tenants apart', async () => {
    const bList = await list(intruder, '?limit=100');
    expect(bList.contents.every((c) => c.ticketId === 'TKT-1' || c.id !== mine.id)).toBe(true);
    expect(bList.contents.map((c) => c.id)).not.toContain(mine.id);
    expect((await intruder.get(`/helpdesk/tickets/${mine.id}/`)).statusCode).toBe(404);
    expect((await intruder.put(`/helpdesk/tickets/${mine.id}/`, { version: 1, title: 'hijack' })).statusCode).toBe(404);
    expect((await intruder.get(`/helpdesk/tickets/${mine.id}/history/`)).statusCode).toBe(404);
  });

  it('restricts lists to own tickets when the type setting createdBy is on', async () => {
    const config = (await admin.get('/helpdesk/config/')).json();
    const settings = { ...config.types.TICKET, createdBy: true };
    expect((await customer.put('/helpdesk/config/', { typeSettings: settings })).statusCode).toBe(403);
    expect((await admin.put('/helpdesk/config/', { typeSettings: settings })).statusCode).toBe(200);
    const own = await list(customer, '?type=TICKET&limit=100');
    expect(own.contents.length).toBeGreaterThan(0);
    expect(own.contents.every((c) => c.createdBy?.id === ids.customer)).toBe(true);
    await admin.put('/helpdesk/config/', { typeSettings: { ...settings, createdBy: false } });
  });
});

describe('status changes', () => {
  it('moves a ticket through its life, stamping resolvedDate and keeping the time spent per status', async () => {
    const ticket = await raise(customer, { locationId: site.id });
    const assigned = await put(admin, ticket.id, { assignedTo: ids.fieldexecutive });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({ assignedTo: ids.fieldexecutive, assignee: { id: ids.fieldexecutive } });
    expect(assigned.json().assignedDate).not.toBeNull();

    const started = await put(fe, ticket.id, { status: 'INPROGRESS', acknowledged: true });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'INPROGRESS', acknowledged: true });

    const refused = await put(fe, ticket.id, { status: 'CLOSED' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(
      'A ticket cannot move from INPROGRESS to CLOSED. From INPROGRESS it can move to OPEN, INREVIEW, RESOLVED, ESCALATE, FLAGGED.',
    );

    const notYours = await put(customer, ticket.id, { status: 'RESOLVED' });
    expect(notYours.statusCode).toBe(403);

    const resolved = await put(fe, ticket.id, { status: 'RESOLVED', note: 'Replaced the starter relay' });
    expect(resolved.statusCode).toBe(200);
    const body = resolved.json() as Ticket;
    expect(body.status).toBe('RESOLVED');
    expect(Math.abs(new Date(body.resolvedDate as string).getTime() - Date.now())).toBeLessThan(60_000);
    expect(Object.keys(body.statusAgeing).sort()).toEqual(['INPROGRESS', 'OPEN', 'RESOLVED']);
    expect(body.statusAgeing.OPEN?.exitedAt).not.toBeNull();
    expect(body.statusAgeing.INPROGRESS?.duration).toBeGreaterThanOrEqual(0);
    expect(body.statusAgeing.RESOLVED).toMatchObject({ exitedAt: null, count: 1 });

    const closed = await put(customer, ticket.id, { status: 'CLOSED' });
    expect(closed.statusCode, closed.body).toBe(200);
    const reopened = await put(customer, ticket.id, { status: 'RE-OPENED' });
    expect(reopened.json()).toMatchObject({ status: 'RE-OPENED', resolvedDate: null });

    const entries = await history(admin, ticket.id);
    expect(entries.map((e) => e.action)).toEqual(['created', 'assigned', 'status', 'status', 'status', 'status']);
    expect(entries[3]).toMatchObject({
      note: 'Replaced the starter relay',
      changes: [{ field: 'status', from: 'INPROGRESS', to: 'RESOLVED' }],
    });
  });

  it('requires an attachment before review when the customer setting says so', async () => {
    const ticket = await raise(fe, { assignedTo: ids.fieldexecutive });
    const refused = await put(fe, ticket.id, { status: 'INREVIEW' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Add at least one attachment before sending the ticket for review');
    expect((await attach(fe, ticket.id)).statusCode).toBe(201);
    expect((await put(fe, ticket.id, { status: 'INREVIEW' })).json().status).toBe('INREVIEW');

    const settings = await admin.put('/iotapp/customer-settings/', {
      ticket: { ...(await admin.get('/iotapp/customer-settings/')).json().settings.ticket, requireAttachmentForReview: false },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const other = await raise(fe, { assignedTo: ids.fieldexecutive });
    // The customer settings are cached for a few seconds by the foundation; wait until the change shows.
    let status = 0;
    for (let i = 0; i < 30 && status !== 200; i++) {
      status = (await put(fe, other.id, { status: 'INREVIEW' })).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    await admin.put('/iotapp/customer-settings/', {
      ticket: { ...(await admin.get('/iotapp/customer-settings/')).json().settings.ticket, requireAttachmentForReview: true },
    });
  });

  it('never loses an update: of two concurrent edits at one version, one wins and the other gets 409', async () => {
    for (let round = 0; round < 3; round++) {
      const ticket = await raise(admin, { locationId: site.id });
      const [a, b] = await Promise.all([
        admin.put(`/helpdesk/tickets/${ticket.id}/`, { version: ticket.version, title: 'Edit by A' }),
        fe.put(`/helpdesk/tickets/${ticket.id}/`, { version: ticket.version, priority: 'MAJOR', status: 'INPROGRESS' }),
      ]);
      const codes = [a.statusCode, b.statusCode].sort();
      expect(codes).toEqual([200, 409]);
      const loser = a.statusCode === 409 ? a : b;
      expect(loser.json().detail).toBe('This ticket was changed by someone else meanwhile. Reload it to see their change, then try again.');
      // The winner's change is in the history, the loser's is not: nothing half-written, nothing lost silently.
      const entries = await history(admin, ticket.id);
      expect(entries).toHaveLength(2);
      const after = await getTicket(admin, ticket.id);
      expect(after.version).toBe(2);
      if (a.statusCode === 200) {
        expect(after).toMatchObject({ title: 'Edit by A', priority: 'MINOR', status: 'OPEN' });
        expect(entries[1]?.changes).toEqual([{ field: 'title', from: 'Generator not starting', to: 'Edit by A' }]);
      } else {
        expect(after).toMatchObject({ title: 'Generator not starting', priority: 'MAJOR', status: 'INPROGRESS' });
      }
      // The stale writer reloads and applies the change on top.
      const retry =
        a.statusCode === 409 ? await put(admin, ticket.id, { title: 'Edit by A' }) : await put(fe, ticket.id, { priority: 'MAJOR' });
      expect(retry.statusCode).toBe(200);
    }
  });

  it('refuses a stale version on its own', async () => {
    const ticket = await raise(admin, {});
    expect((await put(admin, ticket.id, { title: 'first' })).statusCode).toBe(200);
    const stale = await admin.put(`/helpdesk/tickets/${ticket.id}/`, { version: 1, title: 'second' });
    expect(stale.statusCode).toBe(409);
    expect((await getTicket(admin, ticket.id)).title).toBe('first');
  });

  it('answers an unchanged PUT without a new version or history entry', async () => {
    const ticket = await raise(admin, {});
    const same = await admin.put(`/helpdesk/tickets/${ticket.id}/`, { version: 1, title: ticket.title, priority: ticket.priority });
    expect(same.json().version).toBe(1);
    expect(await history(admin, ticket.id)).toHaveLength(1);
  });

  it('keeps assignment for those who may change tickets', async () => {
    const ticket = await raise(customer, {});
    const res = await put(customer, ticket.id, { assignedTo: ids.customer });
    expect(res.statusCode).toBe(403);
    const edit = await put(customer, ticket.id, { description: 'More detail from the reporter' });
    expect(edit.statusCode).toBe(200);
  });
});

describe('ticket view', () => {
  it('records checklists with who ticked them, and the cost incurred', async () => {
    const ticket = await raise(admin, {
      assignedTo: ids.fieldexecutive,
      checklist: [
        { id: 'a', text: 'Check battery' },
        { id: 'b', text: 'Check fuel' },
      ],
    });
    expect(ticket.checklist).toHaveLength(2);
    const ticked = await put(fe, ticket.id, {
      checklist: [
        { id: 'a', text: 'Check battery', done: true },
        { id: 'b', text: 'Check fuel', done: false },
      ],
    });
    expect(ticked.json().checklist[0]).toMatchObject({ done: true, doneBy: ids.fieldexecutive });
    const cost = await put(fe, ticket.id, { costIncurred: { amount: 1250.5, currency: 'INR', note: 'Relay' } });
    expect(cost.json().costIncurred).toEqual({ amount: 1250.5, currency: 'INR', note: 'Relay' });
    expect((await put(fe, ticket.id, { costIncurred: { amount: -1, currency: 'INR' } })).statusCode).toBe(400);
    const entries = await history(admin, ticket.id);
    expect(entries.map((e) => e.action)).toEqual(['created', 'checklist', 'cost']);
  });

  it('adds and removes watchers, each in the history', async () => {
    const ticket = await raise(admin, {});
    const watched = await customer.post(`/helpdesk/tickets/${ticket.id}/watchers/`, {});
    expect(watched.statusCode, watched.body).toBe(404); // not at the customer's site nor theirs: not visible
    const added = await admin.post(`/helpdesk/tickets/${ticket.id}/watchers/`, { userId: ids.customer });
    expect(added.json().watchers.map((w: { id: number }) => w.id)).toEqual([ids.customer]);
    // Now the customer sees it and may leave.
    expect((await customer.get(`/helpdesk/tickets/${ticket.id}/`)).statusCode).toBe(200);
    expect((await list(customer, '?limit=100')).contents.map((c) => c.id)).toContain(ticket.id);
    expect((await list(customer, '?mine=true&limit=100')).contents.map((c) => c.id)).toContain(ticket.id);
    expect((await customer.post(`/helpdesk/tickets/${ticket.id}/watchers/`, { userId: ids.vendor })).statusCode).toBe(403);
    const left = await customer.delete(`/helpdesk/tickets/${ticket.id}/watchers/${ids.customer}/`);
    expect(left.json().watchers).toEqual([]);
    expect((await list(customer, '?limit=100')).contents.map((c) => c.id)).not.toContain(ticket.id);
    expect((await history(admin, ticket.id)).filter((e) => e.action === 'watchers')).toHaveLength(2);
  });

  it('keeps comments apart from the history, newest first by default', async () => {
    const ticket = await raise(customer, { locationId: site.id });
    for (const text of ['First look', 'Parts ordered']) {
      const res = await fe.post(`/helpdesk/tickets/${ticket.id}/comments/`, { text });
      expect(res.statusCode).toBe(201);
    }
    const latest = (await customer.get(`/helpdesk/tickets/${ticket.id}/comments/?page=1&limit=1&orderBy=-updatedAt`)).json();
    expect(latest.totalCount).toBe(2);
    expect(latest.contents[0]).toMatchObject({ text: 'Parts ordered', author: { id: ids.fieldexecutive } });
    expect((await customer.post(`/helpdesk/tickets/${ticket.id}/comments/`, { text: '' })).statusCode).toBe(400);
    const last = (await customer.get(`/helpdesk/tickets/${ticket.id}/history/?page=1&limit=1&orderBy=-updatedAt`)).json();
    expect(last.contents[0].action).toBe('created');
  });

  it('lets only the owner rate a finished ticket; a low rating raises a linked follow-up', async () => {
    const ticket = await raise(customer, { locationId: site.id });
    await put(admin, ticket.id, { assignedTo: ids.fieldexecutive });
    const early = await customer.post(`/helpdesk/tickets/${ticket.id}/rating/`, { rating: 5 });
    expect(early.statusCode).toBe(409);
    await put(fe, ticket.id, { status: 'RESOLVED' });
    const notOwner = await fe.post(`/helpdesk/tickets/${ticket.id}/rating/`, { rating: 5 });
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json().detail).toBe('Only the owner of the ticket can rate it');
    const low = await customer.post(`/helpdesk/tickets/${ticket.id}/rating/`, { rating: 2, comment: 'Took three visits' });
    expect(low.statusCode, low.body).toBe(200);
    const body = low.json();
    expect(body.message).toBe('Your rating has been saved');
    expect(body.ticket.ratingDetail).toMatchObject({ value: 2, comment: 'Took three visits', ratedBy: { id: ids.customer } });
    expect(body.raisedTicket).toMatchObject({ type: 'TICKET', status: 'OPEN' });
    const followUp = await getTicket(customer, body.raisedTicket.id);
    expect(followUp.parent?.id).toBe(ticket.id);
    expect(followUp.createdBy?.id).toBe(ids.customer);
    expect(body.ticket.ratingDetail.raisedTicketId).toBe(followUp.id);
    // A second low rating does not raise another follow-up.
    const again = await customer.post(`/helpdesk/tickets/${ticket.id}/rating/`, { rating: 1 });
    expect(again.json().raisedTicket).toBeNull();
    const fine = await raise(customer, { locationId: site.id });
    await put(admin, fine.id, { assignedTo: ids.fieldexecutive });
    await put(fe, fine.id, { status: 'RESOLVED' });
    expect((await customer.post(`/helpdesk/tickets/${fine.id}/rating/`, { rating: 4 })).json().raisedTicket).toBeNull();
    expect((await customer.post(`/helpdesk/tickets/${fine.id}/rating/`, { rating: 6 })).statusCode).toBe(400);
  });

  it('raises a linked work order from a ticket', async () => {
    const ticket = await raise(customer, { locationId: site.id, entityId: device.id });
    expect((await customer.post(`/helpdesk/tickets/${ticket.id}/work-order/`, {})).statusCode).toBe(403);
    const res = await fe.post(`/helpdesk/tickets/${ticket.id}/work-order/`, { assignedTo: ids.fieldexecutive });
    expect(res.statusCode, res.body).toBe(201);
    const wo = res.json() as Ticket;
    expect(wo).toMatchObject({ type: 'WORKORDERTICKET', locationId: site.id, entityId: device.id, assignedTo: ids.fieldexecutive });
    expect(wo.ticketId).toMatch(/^WO-/);
    expect(wo.parent?.id).toBe(ticket.id);
    const parent = await getTicket(customer, ticket.id);
    expect(parent.workOrders.map((w) => w.id)).toEqual([wo.id]);
    expect((await fe.post(`/helpdesk/tickets/${wo.id}/work-order/`, {})).statusCode).toBe(400);
  });

  it('assigns many tickets at once and reports the ones it could not', async () => {
    const a = await raise(admin, {});
    const b = await raise(admin, {});
    const res = await admin.post('/helpdesk/tickets/assign/', { ticketIds: [a.id, b.id, 999999], assignedTo: ids.vendor });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: [a.id, b.id], failed: [{ id: 999999, detail: 'Not found.' }] });
    expect((await getTicket(admin, b.id)).assignedTo).toBe(ids.vendor);
    expect((await customer.post('/helpdesk/tickets/assign/', { ticketIds: [a.id], assignedTo: null })).statusCode).toBe(403);
  });
});

describe('device alarm actions', () => {
  it('raises a device health ticket when an alarm action asks for one', async () => {
    const res = await admin.post(`/iotapp/devices/${device.id}/alarm-actions/`, {
      telemetryKey: 'maintenance',
      telemetryValue: true,
      createTicket: true,
      description: 'Planned service',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { ticketId } = res.json();
    expect(ticketId).toEqual(expect.any(Number));
    const ticket = await getTicket(admin, ticketId);
    expect(ticket).toMatchObject({
      type: 'AlarmTicket',
      entityId: device.id,
      locationId: site.id,
      description: 'Planned service',
      additionalInformation: { deviceLabel: device.label, assetLabel: site.name },
      createdBy: { id: ids.customeradmin },
    });
    expect(ticket.ticketId).toMatch(/^ALM-/);
  });
});
