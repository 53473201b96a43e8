import { EVENT_TYPES, type TicketEventPayload } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpdeskOf } from '../src/modules/helpdesk/index.ts';
import type { DomainEvent } from '../src/platform/events.ts';
import { pushOf } from '../src/platform/push/index.ts';
import { getTicket, history, makeSite, put, raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let fe: TestClient;
let intruder: TestClient;
const ids: Record<string, number> = {};
const events: DomainEvent<TicketEventPayload>[] = [];

const jobsOf = (ticketId: number) =>
  t.db
    .selectFrom('jobs')
    .select(['id', 'status', 'run_at', 'dedupe_key', 'payload'])
    .where('queue', '=', 'helpdesk.escalate')
    .where(sql<boolean>`(payload->>'ticketId')::bigint = ${ticketId}`)
    .orderBy('id')
    .execute();

/** Moves a ticket's pending escalation (and its timer job) to the past, as if the wait had gone by. */
async function timePasses(ticketId: number) {
  await t.db
    .updateTable('tickets')
    .set({ escalation_due_at: new Date(Date.now() - 1000) })
    .where('id', '=', ticketId)
    .where('escalation_due_at', 'is not', null)
    .execute();
  await t.db
    .updateTable('jobs')
    .set({ run_at: new Date(Date.now() - 1000) })
    .where('queue', '=', 'helpdesk.escalate')
    .where('status', '=', 'queued')
    .where(sql<boolean>`(payload->>'ticketId')::bigint = ${ticketId}`)
    .execute();
}

async function policy(body: Record<string, unknown>) {
  const res = await admin.post('/helpdesk/escalation-policies/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  fe = await t.login('fieldexecutive');
  intruder = await t.login('customeradmin', HOST_B);
  for (const name of ['customeradmin', 'customer', 'fieldexecutive', 'areahead', 'regionalhead'])
    ids[name] = await userId(t, t.tenantA, name);
  pushOf(t.app.server)?.context.events.subscribe((e) => {
    if (e.type.startsWith('ticket.')) events.push(e as DomainEvent<TicketEventPayload>);
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

  it('schedules the first level as a fire-once job when a matching ticket is raised', async () => {
    const ticket = await raise(admin, { priority: 'CRITICAL' });
    expect(ticket.escalation).toMatchObject({ policyId, policyName: 'Critical power', level: 0, levels: 2 });
    const due = new Date(ticket.escalation?.nextAt as string).getTime();
    expect(due - Date.now()).toBeGreaterThan(29 * 60_000);
    const jobs = await jobsOf(ticket.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'queued', dedupe_key: `${t.tenantA}:${ticket.id}:0:1` });
    expect(Math.abs(new Date(jobs[0]?.run_at as Date).getTime() - due)).toBeLessThan(1000);
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

    const jobs = await jobsOf(ticket.id);
    expect(jobs.map((j) => j.dedupe_key)).toEqual([`${t.tenantA}:${ticket.id}:0:1`, `${t.tenantA}:${ticket.id}:0:2`]);
    expect(jobs[0]?.status).toBe('completed');

    // The same timer firing again (a retry, a second worker, the sweep) changes nothing.
    const engine = helpdeskOf(t.app.server)?.escalation;
    expect(await engine?.escalateTicket(t.tenantA, ticket.id, 0, 1)).toBe(0);
    expect((await engine?.sweep())?.escalated).toBe(0);
    expect(await history(admin, ticket.id)).toHaveLength(entries.length);

    await timePasses(ticket.id);
    await t.app.jobs.drain();
    const second = await getTicket(admin, ticket.id);
    expect(second).toMatchObject({ status: 'ESCALATE', escalationLevel: 2, assignedTo: ids.areahead });
    expect(second.escalation?.nextAt).toBeNull();
    const last = events.filter((e) => e.type === EVENT_TYPES.ticketEscalated && e.payload.id === ticket.id).at(-1);
    expect(last?.userIds?.sort()).toEqual([ids.areahead, ids.regionalhead].sort());
    expect(await jobsOf(ticket.id)).toHaveLength(2);
  });

  it('stops escalating once the ticket reaches the policy end, and starts again when it is re-opened', async () => {
    const ticket = await raise(admin, { priority: 'CRITICAL', assignedTo: ids.fieldexecutive });
    const resolved = await put(fe, ticket.id, { status: 'RESOLVED' });
    expect(resolved.json().escalation.nextAt).toBeNull();
    await t.db
      .updateTable('jobs')
      .set({ run_at: new Date(Date.now() - 1000) })
      .where('dedupe_key', '=', `${t.tenantA}:${ticket.id}:0:1`)
      .execute();
    await t.app.jobs.drain();
    expect((await getTicket(admin, ticket.id)).status).toBe('RESOLVED');

    const reopened = await put(admin, ticket.id, { status: 'RE-OPENED' });
    expect(reopened.json().escalation).toMatchObject({ level: 0 });
    expect(reopened.json().escalation.nextAt).not.toBeNull();
    expect((await jobsOf(ticket.id)).map((j) => j.dedupe_key)).toContain(`${t.tenantA}:${ticket.id}:1:1`);
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
    const result = await helpdeskOf(t.app.server)?.escalation.sweep();
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
    const [job] = await jobsOf(ticket.id);
    expect(job).toMatchObject({ status: 'queued', payload: { ticketId: ticket.id, cycle: 0, level: 1 } });
    const stored = await t.db
      .selectFrom('tickets')
      .select(['escalation_due_at', 'escalation_policy_id'])
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(stored.escalation_policy_id).toBe(policyId);
    expect(Math.abs((stored.escalation_due_at as Date).getTime() - new Date(job?.run_at as Date).getTime())).toBeLessThan(1000);
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

describe('SLA sweep', () => {
  it('marks tickets past their due date overdue once, turning OPEN into OVERDUE', async () => {
    const site = await makeSite(admin, 'Overdue site');
    const open = await raise(admin, { locationId: site.id, dueDate: new Date(Date.now() + 3600_000).toISOString() });
    const working = await raise(admin, { assignedTo: ids.fieldexecutive, dueDate: new Date(Date.now() + 3600_000).toISOString() });
    await put(fe, working.id, { status: 'INPROGRESS' });
    await t.db
      .updateTable('tickets')
      .set({ due_date: new Date(Date.now() - 60_000) })
      .where('id', 'in', [open.id, working.id])
      .execute();
    events.length = 0;
    const first = await helpdeskOf(t.app.server)?.escalation.sweep();
    expect(first?.overdue).toBeGreaterThanOrEqual(2);
    expect(await getTicket(admin, open.id)).toMatchObject({ status: 'OVERDUE', overdue: true });
    expect(await getTicket(admin, working.id)).toMatchObject({ status: 'INPROGRESS', overdue: true });
    expect((await history(admin, open.id)).at(-1)).toMatchObject({ action: 'overdue', note: 'The due date passed' });
    expect(
      events.some((e) => e.type === EVENT_TYPES.ticketUpdated && e.payload.id === open.id && e.payload.changes.includes('status')),
    ).toBe(true);
    const again = await helpdeskOf(t.app.server)?.escalation.sweep();
    expect(again?.overdue).toBe(0);
    // A new due date clears the mark; the overdue ticket can be picked up.
    const moved = await put(admin, open.id, { dueDate: new Date(Date.now() + 86_400_000).toISOString(), status: 'INPROGRESS' });
    expect(moved.json()).toMatchObject({ overdue: false, status: 'INPROGRESS' });
    const list = (await admin.get('/helpdesk/tickets/?overdue=true&limit=100')).json();
    expect(list.contents.map((c: { id: number }) => c.id)).toContain(working.id);
  });

  it('runs as a scheduled job in the queue', async () => {
    const ticket = await raise(admin, { dueDate: new Date(Date.now() + 3600_000).toISOString() });
    await t.db
      .updateTable('tickets')
      .set({ due_date: new Date(Date.now() - 60_000) })
      .where('id', '=', ticket.id)
      .execute();
    const { enqueueJob } = await import('../src/platform/jobs/queue.ts');
    await enqueueJob(t.db, { tenantId: null, queue: 'helpdesk.sla-sweep', dedupeKey: `test-${Date.now()}` });
    await t.app.jobs.drain();
    expect((await getTicket(admin, ticket.id)).status).toBe('OVERDUE');
  });
});
