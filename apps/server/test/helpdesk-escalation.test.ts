import { EVENT_TYPES, type TicketEventType } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../src/platform/events.ts';
import { getTicket, history, makeSite, put, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let fe: TestClient;
let intruder: TestClient;
const ids: Record<string, number> = {};
const events: DomainEvent<TicketEventType>[] = [];
/** The app's clock: the tests step over waits instead of sleeping or moving stored times. */
const clock = createTestClock();

/** The wake-up jobs of the escalation timers that still wait. */
const wakeUps = () =>
  t.db
    .selectFrom('jobs')
    .select(['id', 'status', 'run_at', 'dedupe_key', 'tenant_id'])
    .where('queue', '=', 'helpdesk.escalate')
    .where('status', '=', 'queued')
    .orderBy('run_at')
    .execute();

/** The waiting wake-up that fires a level due at `due`: at that time or within the next few seconds. */
async function wakeUpFor(due: string | Date | null | undefined) {
  const at = new Date(due as string).getTime();
  return (await wakeUps()).find((j) => {
    const runAt = new Date(j.run_at).getTime();
    return runAt >= at && runAt - at < 5000;
  });
}

/**
 * Steps the clock past a ticket's pending escalation and the wake-up that fires it (a few seconds later), as if
 * the wait had gone by; with no ticket (or none pending), past the longest wait of the tests' policies.
 */
async function timePasses(ticketId: number) {
  const pending = await t.db.selectFrom('tickets').select('escalation_due_at').where('id', '=', ticketId).executeTakeFirst();
  const target = pending?.escalation_due_at ? new Date(pending.escalation_due_at).getTime() : clock.now().getTime() + 31 * 60_000;
  clock.advance(Math.max(0, target + 6000 - clock.now().getTime()));
}

async function policy(body: Record<string, unknown>) {
  const res = await admin.post('/helpdesk/escalation-policies/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.login('customeradmin');
  fe = await t.login('fieldexecutive');
  intruder = await t.login('customeradmin', HOST_B);
  for (const name of ['customeradmin', 'customer', 'fieldexecutive', 'areahead', 'regionalhead'])
    ids[name] = await userId(t, t.tenantA, name);
  t.handles.events.subscribe((e) => {
    if (e.type.startsWith('ticket.')) events.push(e as DomainEvent<TicketEventType>);
  });
});
afterAll(() => t?.close());

describe('escalation policies', () => {
  it('validates levels and their users, and keeps names unique per tenant', async () => {
    const empty = await admin.post('/helpdesk/escalation-policies/', { name: 'P', levels: [] });
    expect(empty.json().detail).toContain('Add at least one level');
    const nobody = await admin.post('/helpdesk/escalation-policies/', {
      name: 'P',
      levels: [{ waitMinutes: 5, notify: { assignee: false } }],
    });
    expect(nobody.json().detail).toContain('A level needs an assignee, a role or someone to notify');
    const bUser = await userId(t, t.tenantB, 'vendor');
    const foreign = await admin.post('/helpdesk/escalation-policies/', { name: 'P', levels: [{ waitMinutes: 5, assigneeId: bUser }] });
    expect(foreign.statusCode).toBe(400);
    await policy({ name: 'Unique', priorities: ['LOW'], levels: [{ waitMinutes: 5, role: 'areahead' }] });
    const twice = await admin.post('/helpdesk/escalation-policies/', { name: 'unique', levels: [{ waitMinutes: 5, role: 'areahead' }] });
    expect(twice.statusCode).toBe(409);
    expect(
      (await fe.post('/helpdesk/escalation-policies/', { name: 'X', levels: [{ waitMinutes: 5, role: 'areahead' }] })).statusCode,
    ).toBe(403);
    const list = (await intruder.get('/helpdesk/escalation-policies/')).json();
    expect(list.totalCount).toBe(0);
  });
});

describe('escalation timers', () => {
  let policyId: number;
  beforeAll(async () => {
    policyId = (
      await policy({
        name: 'Critical power',
        ticketTypes: ['TICKET'],
        priorities: ['CRITICAL'],
        stopAt: 'RESOLVED',
        levels: [
          {
            waitMinutes: 30,
            assigneeId: ids.fieldexecutive,
            notify: { assignee: true, owner: true },
            message: 'No response in 30 minutes',
          },
          { waitMinutes: 60, role: 'areahead', notify: { assignee: true, userIds: [ids.regionalhead] } },
        ],
      })
    ).id;
  });

  it('schedules the first level as a wake-up job when a matching ticket is raised', async () => {
    const ticket = await raise(admin, { priority: 'CRITICAL' });
    expect(ticket.escalation).toMatchObject({ policyId, policyName: 'Critical power', level: 0, levels: 2 });
    const due = new Date(ticket.escalation?.nextAt as string).getTime();
    expect(due - clock.now().getTime()).toBeGreaterThan(29 * 60_000);
    const wake = await wakeUpFor(ticket.escalation?.nextAt);
    expect(wake).toMatchObject({ status: 'queued', tenant_id: null, dedupe_key: `due:${new Date(wake?.run_at as Date).toISOString()}` });
    // Not due yet: draining runs nothing.
    await t.app.jobs.drain();
    expect((await getTicket(admin, ticket.id)).escalationLevel).toBe(0);
    const other = await raise(admin, { priority: 'MINOR' });
    expect(other.escalation).toBeNull();
  });

  it('escalates on time in the background, level by level, with history and events, once', async () => {
    const ticket = await raise(admin, { priority: 'CRITICAL' });
    events.length = 0;
    await timePasses(ticket.id);
    await t.app.jobs.drain();
    const first = await getTicket(admin, ticket.id);
    expect(first).toMatchObject({ status: 'ESCALATE', escalationLevel: 1, assignedTo: ids.fieldexecutive });
    expect(first.escalation?.level).toBe(1);
    const entries = await history(admin, ticket.id);
    expect(entries.at(-1)).toMatchObject({
      action: 'escalated',
      note: 'No response in 30 minutes',
      changes: [
        { field: 'escalationLevel', from: 0, to: 1 },
        { field: 'status', from: 'OPEN', to: 'ESCALATE' },
        { field: 'assignedTo', from: null, to: ids.fieldexecutive },
      ],
    });
    const escalated = events.find((e) => e.type === EVENT_TYPES.ticketEscalated && e.payload.id === ticket.id);
    expect(escalated?.userIds?.sort()).toEqual([ids.customeradmin, ids.fieldexecutive].sort());
    expect(escalated?.payload.historyId).toBe(entries.at(-1)?.history_id);
    expect(events.some((e) => e.type === EVENT_TYPES.ticketAssigned && e.userIds?.includes(ids.fieldexecutive as number))).toBe(true);

    // The next level has its wake-up.
    expect(await wakeUpFor(first.escalation?.nextAt)).toBeDefined();

    // A wake-up firing again (a retry, a second worker, the periodic sweep) changes nothing.
    const engine = t.handles.helpdesk.escalation;
    expect((await engine?.sweep())?.escalated).toBe(0);
    const { enqueueJob } = await import('../src/platform/jobs/queue.ts');
    await enqueueJob(t.db, { tenantId: null, queue: 'helpdesk.escalate', dedupeKey: `again-${ticket.id}` });
    await t.app.jobs.drain();
    expect(await history(admin, ticket.id)).toHaveLength(entries.length);

    await timePasses(ticket.id);
    await t.app.jobs.drain();
    const second = await getTicket(admin, ticket.id);
    expect(second).toMatchObject({ status: 'ESCALATE', escalationLevel: 2, assignedTo: ids.areahead });
    expect(second.escalation?.nextAt).toBeNull();
    const last = events.filter((e) => e.type === EVENT_TYPES.ticketEscalated && e.payload.id === ticket.id).at(-1);
    expect(last?.userIds?.sort()).toEqual([ids.areahead, ids.regionalhead].sort());
  });

  it('stops escalating once the ticket reaches the policy end, and starts again when it is re-opened', async () => {
    const ticket = await raise(admin, { priority: 'CRITICAL', assignedTo: ids.fieldexecutive });
    const resolved = await put(fe, ticket.id, { status: 'RESOLVED' });
    expect(resolved.json().escalation.nextAt).toBeNull();
    // Its wake-up still comes: the resolved ticket stays as it is.
    await timePasses(0);
    await t.app.jobs.drain();
    expect((await getTicket(admin, ticket.id)).status).toBe('RESOLVED');

    const reopened = await put(admin, ticket.id, { status: 'RE-OPENED' });
    expect(reopened.json().escalation).toMatchObject({ level: 0 });
    expect(reopened.json().escalation.nextAt).not.toBeNull();
    expect(await wakeUpFor(reopened.json().escalation.nextAt)).toBeDefined();
    await timePasses(ticket.id);
    await t.app.jobs.drain();
    expect(await getTicket(admin, ticket.id)).toMatchObject({ status: 'ESCALATE', escalationLevel: 1 });
  });

  it('escalates what is due in the periodic sweep too, and stops timers of a deactivated policy', async () => {
    const a = await raise(admin, { priority: 'CRITICAL' });
    const b = await raise(admin, { priority: 'CRITICAL' });
    await t.db
      .updateTable('tickets')
      .set({ escalation_due_at: new Date(Date.now() - 1000) })
      .where('id', 'in', [a.id, b.id])
      .execute();
    const result = await t.handles.helpdesk.escalation.sweep();
    expect(result?.escalated).toBe(2);
    expect((await getTicket(admin, a.id)).escalationLevel).toBe(1);

    const current = (await admin.get(`/helpdesk/escalation-policies/${policyId}/`)).json();
    expect(current.activeTickets).toBeGreaterThan(0);
    const off = await admin.put(`/helpdesk/escalation-policies/${policyId}/`, { ...current, active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().activeTickets).toBe(0);
    expect((await getTicket(admin, b.id)).escalation?.nextAt).toBeNull();
  });

  it('keeps the timers in the database, so they survive a restart', async () => {
    const current = (await admin.get(`/helpdesk/escalation-policies/${policyId}/`)).json() as Record<string, unknown>;
    await admin.put(`/helpdesk/escalation-policies/${policyId}/`, { ...current, active: true });
    const ticket = await raise(admin, { priority: 'CRITICAL' });
    const stored = await t.db
      .selectFrom('tickets')
      .select(['escalation_due_at', 'escalation_policy_id', 'escalation_level'])
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ escalation_policy_id: policyId, escalation_level: 0 });
    expect(await wakeUpFor(stored.escalation_due_at)).toMatchObject({ status: 'queued' });
  });

  it('assigns a role level to the least loaded user of that role', async () => {
    const p = await policy({ name: 'Vendor desk', priorities: ['MAJOR'], levels: [{ waitMinutes: 1, role: 'vendor' }] });
    expect(p.id).toBeGreaterThan(0);
    const ticket = await raise(admin, { priority: 'MAJOR' });
    await timePasses(ticket.id);
    await t.app.jobs.drain();
    expect((await getTicket(admin, ticket.id)).assignedTo).toBe(await userId(t, t.tenantA, 'vendor'));
  });
});

describe('escalation sweep in bulk', () => {
  it('escalates a large backlog once under two concurrent sweeps, each with its history entry, and notifies by config', async () => {
    const p = await policy({
      name: 'Bulk desk',
      priorities: ['MINOR'],
      levels: [
        { waitMinutes: 10, role: 'areahead', notify: { assignee: true, owner: false, userIds: [ids.regionalhead, ids.customer] } },
        { waitMinutes: 20, assigneeId: ids.customeradmin, notify: { assignee: true } },
      ],
    });
    // The regional head turned escalations off in the ticket list's notification config.
    const regional = await t.login('regionalhead');
    const off = await regional.put('/helpdesk/preferences/', {
      type: 'all',
      notifications: { events: { created: true, assigned: true, updated: true, escalated: false } },
    });
    expect(off.statusCode, off.body).toBe(200);
    const customer = await t.login('customer');
    const inboxCount = async (client: TestClient) => (await client.get('/notification/inbox/?limit=1')).json().totalCount as number;
    const before = { regional: await inboxCount(regional), customer: await inboxCount(customer) };

    const jobsBefore = (await wakeUps()).length;
    const started = Date.now();
    const tickets = [];
    for (let i = 0; i < 30; i++) tickets.push(await raise(admin, { priority: 'MINOR', title: `Bulk ${i}` }));
    const bulkIds = tickets.map((x) => x.id);
    expect(tickets.every((x) => x.escalation?.policyId === p.id)).toBe(true);
    // Tickets due within the same few seconds share one wake-up job.
    expect((await wakeUps()).length - jobsBefore).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 5000) + 1);
    await t.db
      .updateTable('tickets')
      .set({ escalation_due_at: new Date(Date.now() - 1000) })
      .where('id', 'in', bulkIds)
      .execute();
    events.length = 0;
    const engine = t.handles.helpdesk.escalation;
    const [a, b] = await Promise.all([engine?.sweep({ batch: 7 }), engine?.sweep({ batch: 7 })]);
    expect((a?.escalated ?? 0) + (b?.escalated ?? 0)).toBe(30);
    // After a restart nothing fires again: the level is stored with the ticket. The next level has its wake-up.
    expect((await engine?.sweep())?.escalated).toBe(0);
    const next = await t.db
      .selectFrom('tickets')
      .select('escalation_due_at')
      .where('id', '=', bulkIds[0] as number)
      .executeTakeFirstOrThrow();
    expect(await wakeUpFor(next.escalation_due_at)).toBeDefined();

    const entries = await t.db
      .selectFrom('ticket_history')
      .select(['ticket_id', 'changes'])
      .where('ticket_id', 'in', bulkIds)
      .where('action', '=', 'escalated')
      .execute();
    expect(entries).toHaveLength(30);
    expect(new Set(entries.map((e) => e.ticket_id))).toEqual(new Set(bulkIds));
    const areahead = ids.areahead as number;
    for (const id of bulkIds.slice(0, 3)) {
      expect(await getTicket(admin, id)).toMatchObject({ status: 'ESCALATE', escalationLevel: 1, assignedTo: areahead });
      expect((await history(admin, id)).at(-1)).toMatchObject({
        action: 'escalated',
        changes: [
          { field: 'escalationLevel', from: 0, to: 1 },
          { field: 'status', from: 'OPEN', to: 'ESCALATE' },
          { field: 'assignedTo', from: null, to: areahead },
        ],
      });
    }

    await t.handles.notifications.settled();
    expect(await inboxCount(customer)).toBe(before.customer + 30);
    expect(await inboxCount(regional)).toBe(before.regional);
    const item = (await customer.get('/notification/inbox/?limit=1')).json().contents[0];
    expect(item.notification.verb).toBe(EVENT_TYPES.ticketEscalated);
    expect(item.notification.metadata.data).toMatchObject({ event: 'Power Failure', type: 'TICKET', priority: 'MINOR' });
    expect(item.notification.metadata.url).toMatch(/^\/tickets\/all\/view\/\?ticketId=\d+&historyId=\d+$/);
  });

  it('gives each batch of a backlog to the least loaded member of the role, counting what the sweep assigned before', async () => {
    const city = await policy({ name: 'City desk', priorities: ['LOW'], levels: [{ waitMinutes: 5, role: 'citylead' }] });
    const lead = await t.db
      .selectFrom('users')
      .selectAll()
      .where('tenant_id', '=', t.tenantA)
      .where('username', '=', 'citylead')
      .executeTakeFirstOrThrow();
    const second = await t.db
      .insertInto('users')
      .values({
        tenant_id: t.tenantA,
        username: 'citylead2',
        email: 'citylead2@example.com',
        firstname: 'Second',
        lastname: 'City Lead',
        mobile: null,
        password_hash: lead.password_hash,
        roles: ['citylead'],
        group_ids: lead.group_ids,
        profile: JSON.stringify(lead.profile),
        notification_config: JSON.stringify(lead.notification_config),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unfinished = async (userId: number) =>
      Number(
        (
          await t.db
            .selectFrom('tickets')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('assigned_to', '=', userId)
            .where('status', 'not in', ['RESOLVED', 'CLOSED'])
            .executeTakeFirstOrThrow()
        ).n,
      );
    const loads = new Map([
      [lead.id, await unfinished(lead.id)],
      [second.id, 0],
    ]);
    const tickets = [];
    for (let i = 0; i < 9; i++) tickets.push(await raise(admin, { priority: 'MAJOR', title: `City ${i}` }));
    await t.db
      .updateTable('tickets')
      .set({ escalation_policy_id: city.id, escalation_level: 0, escalation_due_at: new Date(Date.now() - 1000), assigned_to: null })
      .where(
        'id',
        'in',
        tickets.map((x) => x.id),
      )
      .execute();
    // Three batches of three, one after the other: each goes to whoever has the fewest then (ties: the lower id).
    const expected = new Map([...loads.keys()].map((id) => [id, 0]));
    for (let batch = 0; batch < 3; batch++) {
      const [pick] = [...loads].sort((a, b) => a[1] - b[1] || a[0] - b[0])[0] as [number, number];
      loads.set(pick, (loads.get(pick) ?? 0) + 3);
      expected.set(pick, (expected.get(pick) ?? 0) + 3);
    }
    expect((await t.handles.helpdesk.escalation?.sweep({ batch: 3, workers: 1 }))?.escalated).toBe(9);
    const assigned = await t.db
      .selectFrom('tickets')
      .select('assigned_to')
      .where(
        'id',
        'in',
        tickets.map((x) => x.id),
      )
      .execute();
    const got = new Map([...expected.keys()].map((id) => [id, assigned.filter((r) => r.assigned_to === id).length]));
    expect(got).toEqual(expected);
    expect(got.get(second.id)).toBeGreaterThan(0);
  });
});

describe('SLA sweep', () => {
  // With no escalation policy in force, the hours the tests step over only breach the SLA.
  beforeAll(async () => {
    const { contents } = (await admin.get('/helpdesk/escalation-policies/?limit=100')).json() as { contents: Array<{ id: number }> };
    expect(contents.length).toBeGreaterThan(0);
    for (const { id } of contents) {
      const current = (await admin.get(`/helpdesk/escalation-policies/${id}/`)).json() as Record<string, unknown>;
      expect((await admin.put(`/helpdesk/escalation-policies/${id}/`, { ...current, active: false })).statusCode).toBe(200);
    }
  });

  it('marks tickets past their due date overdue once, turning OPEN into OVERDUE', async () => {
    const site = await makeSite(admin, 'Overdue site');
    const inAnHour = () => new Date(clock.now().getTime() + 3600_000).toISOString();
    const open = await raise(admin, { locationId: site.id, dueDate: inAnHour() });
    const working = await raise(admin, { assignedTo: ids.fieldexecutive, dueDate: inAnHour() });
    await put(fe, working.id, { status: 'INPROGRESS' });
    await t.handles.helpdesk.escalation.sweep();
    expect((await getTicket(admin, open.id)).overdue).toBe(false);
    clock.advance(3601_000);
    events.length = 0;
    const first = await t.handles.helpdesk.escalation.sweep();
    expect(first?.overdue).toBeGreaterThanOrEqual(2);
    expect(await getTicket(admin, open.id)).toMatchObject({ status: 'OVERDUE', overdue: true });
    expect(await getTicket(admin, working.id)).toMatchObject({ status: 'INPROGRESS', overdue: true });
    expect((await history(admin, open.id)).at(-1)).toMatchObject({ action: 'overdue', note: 'The due date passed' });
    expect(
      events.some((e) => e.type === EVENT_TYPES.ticketUpdated && e.payload.id === open.id && e.payload.changes.includes('status')),
    ).toBe(true);
    const again = await t.handles.helpdesk.escalation.sweep();
    expect(again?.overdue).toBe(0);
    // A new due date clears the mark; the overdue ticket can be picked up.
    const moved = await put(admin, open.id, { dueDate: new Date(clock.now().getTime() + 86_400_000).toISOString(), status: 'INPROGRESS' });
    expect(moved.json()).toMatchObject({ overdue: false, status: 'INPROGRESS' });
    const list = (await admin.get('/helpdesk/tickets/?overdue=true&limit=100')).json();
    expect(list.contents.map((c: { id: number }) => c.id)).toContain(working.id);
  });

  it('runs as a scheduled job in the queue', async () => {
    const ticket = await raise(admin, { dueDate: new Date(clock.now().getTime() + 3600_000).toISOString() });
    clock.advance(3601_000);
    const { enqueueJob } = await import('../src/platform/jobs/queue.ts');
    await enqueueJob(t.db, { tenantId: null, queue: 'helpdesk.sla-sweep', dedupeKey: `test-${Date.now()}` });
    await t.app.jobs.drain();
    expect((await getTicket(admin, ticket.id)).status).toBe('OVERDUE');
  });
});
