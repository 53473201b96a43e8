import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { applyFilter, type TicketScope } from './ticket-repository.ts';

const FINISHED = ['RESOLVED', 'CLOSED'];

/** Pauses the SLA of the sites' unfinished tickets at `at`, with a history entry each; returns the tickets paused. */
export async function pauseSla(db: Db, tenantId: number, siteIds: number[], at: Date, note: string) {
  if (siteIds.length === 0) return [];
  const t = sql`${at}::timestamptz`;
  const result = await sql<{ id: number }>`
    with p as (
      update tickets set sla_paused_at = ${t}, version = version + 1, updated_at = ${t}
      where tenant_id = ${tenantId} and location_id = any(${sql.val(siteIds)}::int[]) and sla_paused_at is null
        and status <> all(${sql.val(FINISHED)}::text[]) and not sla_breached
      returning id, tenant_id
    ), h as (
      insert into ticket_history (tenant_id, ticket_id, actor_id, action, changes, note)
      select tenant_id, id, null, 'slaPaused', '[]'::jsonb, ${note} from p
      returning ticket_id
    )
    select ticket_id as id from h`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * Resumes the sites' paused tickets at `at`: their due date and next escalation move on by the time they were
 * paused, so the window does not count against the SLA. Returns the tickets with their new escalation times.
 */
export async function resumeSla(db: Db, tenantId: number, siteIds: number[], at: Date, note: string) {
  if (siteIds.length === 0) return [];
  const t = sql`${at}::timestamptz`;
  const result = await sql<{ id: number; escalation_due_at: Date | null; due_date: Date | null }>`
    with p as (
      select id, due_date, sla_paused_at from tickets
      where tenant_id = ${tenantId} and location_id = any(${sql.val(siteIds)}::int[]) and sla_paused_at is not null
      for update
    ), upd as (
      update tickets x set
        due_date = x.due_date + greatest(${t} - p.sla_paused_at, interval '0'),
        escalation_due_at = x.escalation_due_at + greatest(${t} - p.sla_paused_at, interval '0'),
        sla_paused_at = null, version = x.version + 1, updated_at = ${t}
      from p where x.id = p.id
      returning x.id, x.tenant_id, x.due_date, x.escalation_due_at, p.due_date as old_due
    ), h as (
      insert into ticket_history (tenant_id, ticket_id, actor_id, action, changes, note)
      select tenant_id, id, null, 'slaResumed',
        case when old_due is null then '[]'::jsonb
          else jsonb_build_array(jsonb_build_object('field', 'dueDate', 'from', to_jsonb(old_due), 'to', to_jsonb(due_date))) end,
        ${note}
      from upd
      returning ticket_id
    )
    select upd.id, upd.escalation_due_at, upd.due_date from upd join h on h.ticket_id = upd.id`.execute(db);
  return result.rows;
}

export interface DueRow {
  id: number;
  ticket_no: string;
  title: string;
  type: string;
  location_id: number | null;
  due_date: Date | null;
  escalation_due_at: Date | null;
}

/** Unfinished tickets in the scope with a work-order due date or an escalation due time in [from, to). */
export function dueInRange(db: Db, tenantId: number, scope: TicketScope, from: Date, to: Date, siteIds: number[] | null, limit: number) {
  let q = db
    .selectFrom('tickets as t')
    .select(['t.id', 't.ticket_no', 't.title', 't.type', 't.location_id', 't.due_date', 't.escalation_due_at'])
    .where('t.status', 'not in', FINISHED)
    .where((eb) =>
      eb.or([
        eb.and([eb('t.type', '=', 'WORKORDERTICKET'), eb('t.due_date', '>=', from), eb('t.due_date', '<', to)]),
        eb.and([eb('t.escalation_due_at', '>=', from), eb('t.escalation_due_at', '<', to)]),
      ]),
    );
  if (siteIds) q = siteIds.length ? q.where('t.location_id', 'in', siteIds) : q.where(sql<boolean>`false`);
  q = applyFilter(q, tenantId, { type: 'all', dateField: 'createdAt' }, scope);
  return q.orderBy('t.id').limit(limit).execute() as Promise<DueRow[]>;
}
