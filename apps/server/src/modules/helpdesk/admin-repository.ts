import { type Insertable, sql, type Updateable } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { EscalationPoliciesTable, IssueTypesTable } from './tables.ts';

/** SQL of the helpdesk's configuration tables (users are read through the users module's directory). */

/** The unfinished tickets assigned to each of these users; users without any are left out. */
export const unfinishedTicketCounts = (db: Db, tenantId: number, userIds: number[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('tickets as t')
        .select(['t.assigned_to', (eb) => eb.fn.countAll<number>().as('n')])
        .where('t.tenant_id', '=', tenantId)
        .where('t.assigned_to', 'in', userIds)
        // Literal statuses, so that the partial index of unfinished tickets per assignee applies.
        .where(sql<boolean>`t.assigned_to is not null and t.status not in ('RESOLVED', 'CLOSED')`)
        .groupBy('t.assigned_to')
        .execute();

// Issue types ---------------------------------------------------------------------------------------------------

const issueTypeColumns = [
  'id',
  'name',
  'sub_types',
  'ticket_types',
  'default_priority',
  'sla_hours',
  'description',
  'active',
  'created_at',
  'updated_at',
] as const;
export type IssueTypeRow = Awaited<ReturnType<typeof findIssueType>> & {};

export const findIssueType = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('issue_types').select(issueTypeColumns).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const findIssueTypeByName = (db: Db, tenantId: number, name: string) =>
  db
    .selectFrom('issue_types')
    .select(issueTypeColumns)
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();

export const countIssueTypes = (db: Db, tenantId: number) =>
  db
    .selectFrom('issue_types')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));

export async function listIssueTypes(
  db: Db,
  tenantId: number,
  opts: { offset: number; limit: number; search?: string; ticketType?: string; active?: boolean },
) {
  let q = db.selectFrom('issue_types').where('tenant_id', '=', tenantId);
  if (opts.search) q = q.where('name', 'ilike', `%${opts.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
  if (opts.ticketType) q = q.where(sql<boolean>`${opts.ticketType} = any(ticket_types)`);
  if (opts.active !== undefined) q = q.where('active', '=', opts.active);
  const [rows, total] = await Promise.all([
    q.select(issueTypeColumns).orderBy(sql`lower(name)`).orderBy('id').offset(opts.offset).limit(opts.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export const insertIssueType = (db: Db, values: Insertable<IssueTypesTable>) =>
  db.insertInto('issue_types').values(values).returning(issueTypeColumns).executeTakeFirstOrThrow();

export const updateIssueType = (db: Db, tenantId: number, id: number, values: Updateable<IssueTypesTable>) =>
  db
    .updateTable('issue_types')
    .set({ ...values, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning(issueTypeColumns)
    .executeTakeFirst();

export const deleteIssueType = (db: Db, tenantId: number, id: number) =>
  db
    .deleteFrom('issue_types')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numDeletedRows) > 0);

// Escalation policies -------------------------------------------------------------------------------------------

const policyColumns = [
  'id',
  'name',
  'description',
  'ticket_types',
  'priorities',
  'events',
  'stop_at',
  'levels',
  'active',
  'created_at',
  'updated_at',
] as const;

export const findPolicy = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('escalation_policies').select(policyColumns).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
export type PolicyRow = NonNullable<Awaited<ReturnType<typeof findPolicy>>>;

export const activePolicies = (db: Db, tenantId: number) =>
  db
    .selectFrom('escalation_policies')
    .select(policyColumns)
    .where('tenant_id', '=', tenantId)
    .where('active', '=', true)
    .orderBy('id')
    .execute();

export const policiesByIds = (db: Db, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([] as (PolicyRow & { tenant_id: number })[])
    : db
        .selectFrom('escalation_policies')
        .select([...policyColumns, 'tenant_id'])
        .where('id', 'in', ids)
        .execute();

export async function listPolicies(db: Db, tenantId: number, opts: { offset: number; limit: number; search?: string }) {
  let q = db.selectFrom('escalation_policies').where('tenant_id', '=', tenantId);
  if (opts.search) q = q.where('name', 'ilike', `%${opts.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
  const [rows, total] = await Promise.all([
    q.select(policyColumns).orderBy(sql`lower(name)`).orderBy('id').offset(opts.offset).limit(opts.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function activeTicketCounts(db: Db, tenantId: number, policyIds: number[]) {
  if (policyIds.length === 0) return new Map<number, number>();
  const rows = await db
    .selectFrom('tickets')
    .select(['escalation_policy_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('escalation_policy_id', 'in', policyIds)
    .where('escalation_due_at', 'is not', null)
    .groupBy('escalation_policy_id')
    .execute();
  return new Map(rows.map((r) => [r.escalation_policy_id as number, Number(r.n)]));
}

export const insertPolicy = (db: Db, values: Insertable<EscalationPoliciesTable>) =>
  db.insertInto('escalation_policies').values(values).returning(policyColumns).executeTakeFirstOrThrow();

export const updatePolicy = (db: Db, tenantId: number, id: number, values: Updateable<EscalationPoliciesTable>) =>
  db
    .updateTable('escalation_policies')
    .set({ ...values, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning(policyColumns)
    .executeTakeFirst();

export const deletePolicy = (db: Db, tenantId: number, id: number) =>
  db
    .deleteFrom('escalation_policies')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numDeletedRows) > 0);

/** Tickets under a deleted or deactivated policy stop escalating. */
export const stopPolicyTimers = (db: Db, tenantId: number, policyId: number) =>
  db
    .updateTable('tickets')
    .set({ escalation_due_at: null })
    .where('tenant_id', '=', tenantId)
    .where('escalation_policy_id', '=', policyId)
    .where('escalation_due_at', 'is not', null)
    .execute();

// Configuration and preferences -----------------------------------------------------------------------------------

export const findConfig = (db: Db, tenantId: number) =>
  db
    .selectFrom('helpdesk_config')
    .select('config')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
    .then((r) => r?.config ?? {});

export const saveConfig = (db: Db, tenantId: number, config: Record<string, unknown>) =>
  db
    .insertInto('helpdesk_config')
    .values({ tenant_id: tenantId, config: JSON.stringify(config), updated_at: sql`now()` })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ config: JSON.stringify(config), updated_at: sql`now()` }))
    .execute();

export const findPrefs = (db: Db, tenantId: number, userId: number, keys: string[]) =>
  db
    .selectFrom('ticket_user_prefs')
    .select(['key', 'value'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('key', 'in', keys)
    .execute();

export const prefsOfUsers = (db: Db, tenantId: number, userIds: number[], key: string) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('ticket_user_prefs')
        .select(['user_id', 'value'])
        .where('tenant_id', '=', tenantId)
        .where('user_id', 'in', userIds)
        .where('key', '=', key)
        .execute();

export const savePrefs = (db: Db, tenantId: number, userId: number, key: string, value: Record<string, unknown>) =>
  db
    .insertInto('ticket_user_prefs')
    .values({ tenant_id: tenantId, user_id: userId, key, value: JSON.stringify(value), updated_at: sql`now()` })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value: JSON.stringify(value), updated_at: sql`now()` }))
    .execute();

/** The tenant's issue types among these ids (names for another domain's lists). */
export const issueTypesByIds = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([] as { id: number; name: string; active: boolean }[])
    : db
        .selectFrom('issue_types')
        .select(['id', 'name', 'active'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .orderBy('name')
        .execute();
