import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import { ESCALATABLE, OVERDUE_FROM } from './ticket-rules.ts';

export const ESCALATION_QUEUE = 'helpdesk.escalate';
/** Escalation timers wake up on multiples of this: tickets due within it share one job (and one sweep). */
export const WAKE_UP_MS = 5_000;

/**
 * Makes sure a wake-up job runs at or just after `dueAt`. Its dedupe key is the wake-up time, so a thousand
 * tickets due together add one job, not a thousand. A time whose job already ran is left to the periodic sweep.
 */
export async function scheduleWakeUp(trx: Db, dueAt: Date) {
  const at = new Date(Math.ceil(dueAt.getTime() / WAKE_UP_MS) * WAKE_UP_MS);
  await enqueueJob(trx, { tenantId: null, queue: ESCALATION_QUEUE, runAt: at, dedupeKey: `due:${at.toISOString()}` });
}

/** Set-based SQL of the SLA sweep: a batch of tickets is locked, changed and given its history in a few statements. */

export interface SweptTicket {
  id: number;
  tenant_id: number;
  ticket_no: string;
  title: string;
  type: string;
  event: string;
  status: string;
  old_status: string;
  priority: string;
  location_id: number | null;
  entity_id: number | null;
  additional_information: Record<string, unknown>;
  created_by: number | null;
  assigned_to: number | null;
  watchers: number[];
  history_id: number;
}

/** Marks a batch of unfinished tickets past their due date at `now` overdue (OPEN and RE-OPENED become OVERDUE). */
export async function markOverdue(db: Db, batch: number, now: Date): Promise<SweptTicket[]> {
  const at = sql`${now}::timestamptz`;
  const result = await sql<SweptTicket>`
    with due as (
      select id, status from tickets
      where due_date < ${at} and not sla_breached and status not in ('RESOLVED', 'CLOSED') and due_date is not null
        and sla_paused_at is null
      order by due_date
      limit ${batch}
      for update skip locked
    ), upd as (
      update tickets t set
        sla_breached = true,
        status = case when t.status = any(${sql.val([...OVERDUE_FROM])}::text[]) then 'OVERDUE' else t.status end,
        status_ageing = case when t.status = any(${sql.val([...OVERDUE_FROM])}::text[])
          then helpdesk_ageing(t.status_ageing, t.status, 'OVERDUE', ${at}) else t.status_ageing end,
        version = t.version + 1,
        updated_at = ${at}
      from due where t.id = due.id
      returning t.id, t.tenant_id, t.ticket_no, t.title, t.type, t.event, t.status, due.status as old_status, t.priority, t.location_id,
        t.entity_id, t.additional_information, t.created_by, t.assigned_to, t.watchers
    ), hist as (
      insert into ticket_history (tenant_id, ticket_id, actor_id, action, changes, note)
      select tenant_id, id, null, 'overdue',
        case when old_status <> status
          then jsonb_build_array(jsonb_build_object('field', 'status', 'from', old_status, 'to', status),
                                 jsonb_build_object('field', 'overdue', 'from', false, 'to', true))
          else jsonb_build_array(jsonb_build_object('field', 'overdue', 'from', false, 'to', true)) end,
        'The due date passed'
      from upd
      returning id, ticket_id
    )
    select upd.*, hist.id as history_id from upd join hist on hist.ticket_id = upd.id
  `.execute(db);
  return result.rows;
}

export interface DueEscalation {
  id: number;
  tenant_id: number;
  status: string;
  assigned_to: number | null;
  escalation_policy_id: number | null;
  escalation_level: number;
}

/** Locks a batch of tickets whose next escalation level is due at `now` (inside the caller's transaction). */
export const lockDueEscalations = (trx: Db, batch: number, now: Date) =>
  trx
    .selectFrom('tickets')
    .select(['id', 'tenant_id', 'status', 'assigned_to', 'escalation_policy_id', 'escalation_level'])
    .where('escalation_due_at', '<=', now)
    .where('sla_paused_at', 'is', null)
    .orderBy('escalation_due_at')
    .limit(batch)
    .forUpdate()
    .skipLocked()
    .execute();

export interface EscalationStep {
  id: number;
  level: number;
  status: string;
  assignee: number | null;
  /** Minutes to the next level, or null when this was the last one. */
  nextWait: number | null;
  changes: string;
  note: string;
}

/** Applies the planned steps at `now` and writes their history; returns the changed tickets. */
export async function applyEscalations(trx: Db, planned: EscalationStep[], now: Date): Promise<SweptTicket[]> {
  if (planned.length === 0) return [];
  const at = sql`${now}::timestamptz`;
  // In the order of the rows on disk, so that a large batch reads and writes each page once.
  const steps = [...planned].sort((a, b) => a.id - b.id);
  const result = await sql<SweptTicket>`
    with v as (
      select * from unnest(
        ${sql.val(steps.map((s) => s.id))}::bigint[], ${sql.val(steps.map((s) => s.level))}::int[],
        ${sql.val(steps.map((s) => s.status))}::text[], ${sql.val(steps.map((s) => s.assignee))}::int[],
        ${sql.val(steps.map((s) => s.nextWait))}::int[], ${sql.val(steps.map((s) => s.changes))}::jsonb[],
        ${sql.val(steps.map((s) => s.note))}::text[]
      ) as v(id, level, status, assignee, next_wait, changes, note)
    ), upd as (
      update tickets t set
        escalation_level = v.level,
        escalation_due_at = case when v.next_wait is null then null else ${at} + make_interval(mins => v.next_wait) end,
        status_ageing = helpdesk_ageing(t.status_ageing, t.status, v.status, ${at}),
        status = v.status,
        assigned_to = coalesce(v.assignee, t.assigned_to),
        assigned_date = case when v.assignee is not null and v.assignee is distinct from t.assigned_to then ${at} else t.assigned_date end,
        acknowledged = case when v.assignee is not null and v.assignee is distinct from t.assigned_to then false else t.acknowledged end,
        version = t.version + 1,
        updated_at = ${at}
      from v where t.id = v.id
      returning t.id, t.tenant_id, t.ticket_no, t.title, t.type, t.event, t.status, t.priority, t.location_id, t.entity_id,
        t.additional_information, t.created_by, t.assigned_to, t.watchers, v.changes, v.note
    ), hist as (
      insert into ticket_history (tenant_id, ticket_id, actor_id, action, changes, note)
      select tenant_id, id, null, 'escalated', changes, note from upd
      returning id, ticket_id
    )
    select upd.id, upd.tenant_id, upd.ticket_no, upd.title, upd.type, upd.event, upd.status, upd.status as old_status, upd.priority,
      upd.location_id, upd.entity_id, upd.additional_information, upd.created_by, upd.assigned_to, upd.watchers, hist.id as history_id
    from upd join hist on hist.ticket_id = upd.id
  `.execute(trx);
  return result.rows;
}

/** Stops the timers of tickets whose policy is gone, inactive or out of levels. */
export const clearEscalation = (trx: Db, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve()
    : trx
        .updateTable('tickets')
        .set({ escalation_due_at: null })
        .where('id', 'in', ids)
        .execute()
        .then(() => undefined);

export { ESCALATABLE };
