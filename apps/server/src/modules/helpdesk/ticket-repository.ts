import { TERMINAL_STATUSES, TICKET_LIMITS, TICKET_NUMBER_PREFIX, TICKET_STATUSES } from '@sitewatch/contracts';
import { type Expression, type InsertObject, type SelectQueryBuilder, type SqlBool, sql, type Updateable } from 'kysely';
import type { Database } from '../../db/types.ts';
import { compiledStatements } from '../../platform/compiled-statements.ts';
import type { Db } from '../../platform/db.ts';
import type { StoredChange, TicketsTable } from './tables.ts';

/**
 * The only SQL of tickets themselves. Every function takes the tenant; callers pass `db` or a transaction. Rows carry
 * user ids only: the service names them through the users module's directory (user-names.ts).
 */

/** The columns a ticket list shows (mapper.ts toSummary): lists skip the checklist, metadata and history columns. */
const SUMMARY_COLUMNS = [
  't.id',
  't.ticket_no',
  't.type',
  't.status',
  't.priority',
  't.event',
  't.sub_event',
  't.title',
  't.description',
  't.assigned_to',
  't.vendor_id',
  't.created_by',
  't.created_by_email',
  't.location_id',
  't.entity_id',
  't.entity_profile_type',
  't.on_hold',
  't.acknowledged',
  't.event_date',
  't.due_date',
  't.resolved_date',
  't.assigned_date',
  't.city',
  't.asset_type',
  't.device_name',
  't.additional_information',
  't.sla_breached',
  't.sla_paused_at',
  't.escalation_level',
  't.attachment_count',
  't.thumbnail_id',
  't.rating',
  't.version',
  't.created_at',
  't.updated_at',
] as const;

/** A whole ticket: the list's columns and its checklist, metadata, status history, watchers, rating and escalation. */
const ticketSelect = (db: Db) =>
  db
    .selectFrom('tickets as t')
    .select([
      ...SUMMARY_COLUMNS,
      't.tenant_id',
      't.metadata',
      't.status_ageing',
      't.watchers',
      't.checklist',
      't.cost_incurred',
      't.rating_comment',
      't.rated_by',
      't.rated_at',
      't.rating_ticket_id',
      't.parent_id',
      't.escalation_policy_id',
      't.escalation_cycle',
      't.escalation_due_at',
    ]);

export type TicketRow = Awaited<ReturnType<ReturnType<typeof ticketSelect>['executeTakeFirstOrThrow']>>;

const summarySelect = (db: Db) => db.selectFrom('tickets as t').select(SUMMARY_COLUMNS);

export type TicketSummaryRow = Awaited<ReturnType<ReturnType<typeof summarySelect>['executeTakeFirstOrThrow']>>;

export const findTicket = (db: Db, tenantId: number, id: number) =>
  ticketSelect(db).where('t.tenant_id', '=', tenantId).where('t.id', '=', id).executeTakeFirst();

/**
 * The newest tickets in these statuses assigned to a user at one site, ids and versions only (tickets_assigned_open_idx
 * or tickets_assigned_idx narrows to the user's tickets).
 */
export const assignedAtSite = (db: Db, tenantId: number, userId: number, siteId: number, statuses: readonly string[], limit: number) =>
  db
    .selectFrom('tickets as t')
    .select(['t.id', 't.version'])
    .where('t.tenant_id', '=', tenantId)
    .where('t.assigned_to', '=', userId)
    .where('t.location_id', '=', siteId)
    .where('t.status', 'in', [...statuses])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();

/** Locks the ticket row for the rest of the transaction (a change is read, checked and written under the lock). */
export async function lockTicket(trx: Db, tenantId: number, id: number) {
  const locked = await trx
    .selectFrom('tickets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return locked ? findTicket(trx, tenantId, id) : undefined;
}

export async function nextTicketNumbers(trx: Db, tenantId: number, count: number): Promise<number> {
  const row = await trx
    .insertInto('ticket_counters')
    .values({ tenant_id: tenantId, value: count })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ value: sql`ticket_counters.value + ${count}` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value) - count + 1;
}

export const insertTicket = (trx: Db, values: InsertObject<Database, 'tickets'>) =>
  trx.insertInto('tickets').values(values).returning(['id', 'ticket_no', 'created_at']).executeTakeFirstOrThrow();

/**
 * Writes a change under the version the caller read: returns false when someone else changed the ticket since.
 * The status ageing is updated by the database function from the status the row had.
 */
export async function updateTicket(
  trx: Db,
  tenantId: number,
  id: number,
  version: number,
  set: Updateable<TicketsTable>,
  newStatus: string | null,
): Promise<boolean> {
  const result = await trx
    .updateTable('tickets')
    .set({
      ...set,
      ...(newStatus ? { status_ageing: sql`helpdesk_ageing(status_ageing, status, ${newStatus}, now())` } : {}),
      version: sql`version + 1`,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const insertHistory = (
  trx: Db,
  entry: {
    tenantId: number;
    ticketId: number;
    actorId: number | null;
    action: string;
    changes: StoredChange[];
    note?: string | null;
    performedAt?: Date | null;
  },
) =>
  trx
    .insertInto('ticket_history')
    .values({
      tenant_id: entry.tenantId,
      ticket_id: entry.ticketId,
      actor_id: entry.actorId,
      action: entry.action,
      changes: JSON.stringify(entry.changes),
      note: entry.note ?? null,
      performed_at: entry.performedAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

/** Who may be shown which tickets: all of the tenant, or those at some sites plus the ones the user takes part in. */
export interface TicketScope {
  userId: number;
  allSites: boolean;
  assetIds: number[];
  /** Ticket types whose tickets this user sees only when they raised them (the types' createdBy setting). */
  ownOnlyTypes: readonly string[];
  /** The vendor the user works for: its tickets are theirs to see too. */
  vendorId?: number;
}

export interface ResolvedFilter {
  type: string;
  status?: string[];
  priority?: string[];
  event?: string;
  subEvent?: string;
  assignedTo?: number | 'none';
  createdBy?: number;
  vendor?: number;
  mineOf?: number;
  locationId?: number;
  entityId?: number;
  onHold?: boolean;
  acknowledged?: boolean;
  overdue?: boolean;
  search?: string;
  /** The tickets the search's rare words match, when they are few: the search looks among them only. */
  wordCandidates?: number[];
  from?: string;
  to?: string;
  dateField: 'createdAt' | 'updatedAt';
}

/** Tickets `userId` watches; the watchers index holds only tickets that have watchers, hence the first test. */
const watchedBy = (userId: number) => sql<boolean>`(t.watchers <> '{}' and t.watchers @> array[${userId}]::int[])`;

/** A whole ticket number as people type it: a type's prefix, a dash and digits, in any case. */
const TICKET_NUMBER = new RegExp(`^(${Object.values(TICKET_NUMBER_PREFIX).join('|')})-\\d+$`, 'i');

/** The words of a search text, and their tsquery: every word as a prefix, all required. */
const searchWords = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
const prefixQuery = (words: string[]) => words.map((w) => `${w}:*`).join(' & ');

/** A search whose rare words match at most this many tickets of a tenant looks among those tickets only. */
export const FEW_WORD_MATCHES = 1000;

/**
 * The words PostgreSQL's statistics of ticket texts count in more than FEW_WORD_MATCHES tickets (of all tenants).
 * Without statistics yet, none.
 */
export async function frequentWords(db: Db): Promise<string[]> {
  const { rows } = await sql<{ words: string[] | null; freqs: number[] | null; tickets: number }>`
    select s.most_common_elems::text::text[] as words, s.most_common_elem_freqs as freqs, c.reltuples as tickets
    from pg_stats s
    join pg_namespace n on n.nspname = s.schemaname
    join pg_class c on c.relnamespace = n.oid and c.relname = s.tablename
    where s.schemaname = current_schema() and s.tablename = 'tickets' and s.attname = 'search'
  `.execute(db);
  const { words, freqs, tickets } = rows[0] ?? {};
  if (!words || !freqs || !(Number(tickets) > 0)) return [];
  return words.filter((_, i) => Number(freqs[i] ?? 0) * Number(tickets) > FEW_WORD_MATCHES);
}

/**
 * The tickets of a tenant that the rare words of a search match, when there are at most FEW_WORD_MATCHES of them;
 * undefined when the search is a ticket number, when every word begins a `frequent` word, or when the rare words
 * match more. Looked up through the GIN index with the rare words alone: the index reads every ticket a common
 * word is in (200–300 ms over 1,000,000 tickets), while in the list's order a rare word was looked for through every
 * ticket (5.6 s for a word no ticket has). The list then applies all the words to these tickets only.
 */
export async function wordCandidates(db: Db, tenantId: number, search: string, frequent: readonly string[]): Promise<number[] | undefined> {
  const text = search.trim();
  if (TICKET_NUMBER.test(text)) return undefined;
  const words = searchWords(text);
  if (words.length === 0) return [];
  const rare = words.filter((w) => !frequent.some((f) => f.startsWith(w)));
  if (rare.length === 0) return undefined;
  const rows = await db
    .selectFrom('tickets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`search @@ to_tsquery('simple', ${prefixQuery(rare)})`)
    .limit(sql.lit(FEW_WORD_MATCHES + 1))
    .execute();
  return rows.length > FEW_WORD_MATCHES ? undefined : rows.map((r) => Number(r.id));
}

/** The query with every filter and the visibility scope applied; it must select from `tickets as t`. */
// biome-ignore lint/suspicious/noExplicitAny: the filters only touch columns of `t`, whatever else is joined
export function applyFilter<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  tenantId: number,
  f: ResolvedFilter,
  scope: TicketScope,
): Q {
  // biome-ignore lint/suspicious/noExplicitAny: see above
  let q = query as unknown as SelectQueryBuilder<{ t: TicketsTable }, 't', any>;
  q = q.where('t.tenant_id', '=', tenantId);
  if (f.type !== 'all') q = q.where('t.type', '=', f.type);
  if (f.status?.length) q = f.status.length === 1 ? q.where('t.status', '=', f.status[0] as string) : q.where('t.status', 'in', f.status);
  if (f.priority?.length) q = q.where('t.priority', 'in', f.priority);
  if (f.event) q = q.where(sql<boolean>`lower(t.event) = lower(${f.event})`);
  if (f.subEvent) q = q.where(sql<boolean>`lower(t.sub_event) = lower(${f.subEvent})`);
  if (f.assignedTo === 'none') q = q.where('t.assigned_to', 'is', null);
  else if (f.assignedTo !== undefined) q = q.where('t.assigned_to', '=', f.assignedTo);
  if (f.createdBy !== undefined) q = q.where('t.created_by', '=', f.createdBy);
  if (f.vendor !== undefined) q = q.where('t.vendor_id', '=', f.vendor);
  if (f.mineOf !== undefined) {
    const me = f.mineOf;
    q = q.where((eb) => eb.or([eb('t.assigned_to', '=', me), eb('t.created_by', '=', me), watchedBy(me)]));
  }
  if (f.locationId !== undefined) q = q.where('t.location_id', '=', f.locationId);
  if (f.entityId !== undefined) q = q.where('t.entity_id', '=', f.entityId);
  if (f.onHold !== undefined) q = q.where('t.on_hold', '=', f.onHold);
  if (f.acknowledged !== undefined) q = q.where('t.acknowledged', '=', f.acknowledged);
  if (f.overdue !== undefined) q = q.where('t.sla_breached', '=', f.overdue);
  if (f.search) {
    const text = f.search.trim();
    if (TICKET_NUMBER.test(text)) {
      // A whole ticket number is that ticket, found through the tenant's unique index of numbers.
      q = q.where('t.ticket_no', '=', text.toUpperCase());
    } else if (f.wordCandidates) {
      const tsq = prefixQuery(searchWords(text));
      q = q.where(sql<boolean>`t.id = any(${sql.val(f.wordCandidates)}::bigint[])`);
      if (tsq) q = q.where(sql<boolean>`t.search @@ to_tsquery('simple', ${tsq})`);
    } else {
      // Words that match many tickets. The number side has no index, so they are matched in the list's own order
      // and not through the GIN index: the planner's estimates for word prefixes are far too low, and a common word
      // looked up through the index took seconds where the ordered scan finds a page at once.
      const tsq = prefixQuery(searchWords(text));
      q = q.where((eb) =>
        eb.or([
          sql<boolean>`lower(t.ticket_no) = ${text.toLowerCase()}`,
          ...(tsq ? [sql<boolean>`t.search @@ to_tsquery('simple', ${tsq})`] : []),
        ]),
      );
    }
  }
  const dateColumn = f.dateField === 'updatedAt' ? 't.updated_at' : 't.created_at';
  if (f.from) q = q.where(dateColumn, '>=', new Date(f.from));
  if (f.to) q = q.where(dateColumn, '<=', new Date(f.to));
  for (const condition of visibleTo(scope, f.type)) q = q.where(condition);
  return q as unknown as Q;
}

/**
 * The visibility scope as conditions on `tickets as t`: the one rule of ticket lists, counts, exports and dashboard
 * widgets. `type` is the single type a list is filtered to, if any (the createdBy rule then reduces to one column).
 */
export function visibleTo(scope: TicketScope, type = 'all'): Expression<SqlBool>[] {
  const me = scope.userId;
  const out: Expression<SqlBool>[] = [];
  if (!scope.allSites) {
    const sites = scope.assetIds;
    const either = [
      ...(sites.length ? [sql<boolean>`t.location_id in (${sql.join(sites)})`] : []),
      sql<boolean>`t.assigned_to = ${me}`,
      sql<boolean>`t.created_by = ${me}`,
      watchedBy(me),
      ...(scope.vendorId !== undefined ? [sql<boolean>`t.vendor_id = ${scope.vendorId}`] : []),
    ];
    out.push(sql<boolean>`(${sql.join(either, sql` or `)})`);
  }
  if (type !== 'all') {
    if (scope.ownOnlyTypes.includes(type)) out.push(sql<boolean>`t.created_by = ${me}`);
  } else if (scope.ownOnlyTypes.length) {
    out.push(sql<boolean>`(t.type not in (${sql.join([...scope.ownOnlyTypes])}) or t.created_by = ${me})`);
  }
  return out;
}

const SORT_COLUMNS = {
  createdAt: 't.created_at',
  updatedAt: 't.updated_at',
  dueDate: 't.due_date',
  eventDate: 't.event_date',
  ticketId: 't.id',
} as const;

/** Which page of the list, in which order (`priorities` ranks the priority column when the list is ordered by it). */
export interface ListPage {
  offset: number;
  limit: number;
  orderBy: string;
  priorities: string[];
}

/**
 * A page of the filtered list and the count of the whole list in one statement: the count (exact up to the cap)
 * rides on every row as an uncorrelated subquery, run once. An empty page counts on its own; above the cap the
 * planner's estimate is taken (a million-row count is not worth its time).
 */
export async function listTickets(
  db: Db,
  tenantId: number,
  f: ResolvedFilter,
  scope: TicketScope,
  statement: ListStatement,
): Promise<{ rows: TicketSummaryRow[]; count: { count: number; exact: boolean } }> {
  const found = (await db.executeQuery(statement)).rows;
  // The count rides along on each row; callers map rows field by field, so it is not copied out of them.
  const rows: TicketSummaryRow[] = found;
  const first = found[0];
  if (!first) return { rows, count: await countTickets(db, tenantId, f, scope) };
  const n = Number(first.list_count);
  return { rows, count: n <= TICKET_LIMITS.listCountCap ? { count: n, exact: true } : await estimateAboveCap(db, tenantId, f, scope) };
}

/**
 * A screen asks for the same page again and again (every change pushed to it refetches it), so its statement is kept;
 * a search is rarely asked twice and its word candidates can be many, so it is not.
 */
const statementKey = (f: ResolvedFilter, inputs: unknown[]) => (f.search ? null : JSON.stringify(inputs));

const listStatements = compiledStatements<TicketSummaryRow & { list_count: number }>();
export type ListStatement = ReturnType<typeof listStatementOf>;

/** The statement of a page of the list (`listTickets` runs it); the same inputs give the same statement object. */
export const listStatementOf = (db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope, page: ListPage) =>
  listStatements(statementKey(f, [tenantId, f, scope, page]), () => listStatement(db, tenantId, f, scope, page));

function listStatement(db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope, page: ListPage) {
  const desc = page.orderBy.startsWith('-');
  const field = page.orderBy.replace(/^-/, '');
  const direction = desc ? 'desc' : 'asc';
  const capped = db.selectFrom(matchingTickets(db, tenantId, f, scope).as('s')).select((eb) => eb.fn.countAll<number>().as('n'));
  let q = applyFilter(summarySelect(db), tenantId, f, scope).select(capped.as('list_count'));
  if (field === 'priority') {
    q = q.orderBy(sql`array_position(${sql.val(page.priorities)}::text[], t.priority)`, (ob) => (desc ? ob.desc() : ob.asc()).nullsLast());
  } else if (field === 'status') {
    q = q.orderBy(sql`array_position(${sql.val([...TICKET_STATUSES])}::text[], t.status)`, direction);
  } else if (field !== 'ticketId') {
    const column = SORT_COLUMNS[field as keyof typeof SORT_COLUMNS] ?? 't.created_at';
    q = field === 'dueDate' ? q.orderBy(column, (ob) => (desc ? ob.desc() : ob.asc()).nullsLast()) : q.orderBy(column, direction);
  }
  // Page bounds are written into the statement: with them as parameters the planner cannot cost a reusable plan and
  // plans every call anew (the first pages of the usual page sizes are a handful of statements).
  return q.orderBy('t.id', direction).offset(sql.lit(page.offset)).limit(sql.lit(page.limit));
}

/** The filtered tickets, one column, at most one past the count cap. */
const matchingTickets = (db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope) =>
  applyFilter(db.selectFrom('tickets as t').select(sql<number>`1`.as('one')), tenantId, f, scope).limit(
    sql.lit(TICKET_LIMITS.listCountCap + 1),
  );

/** Exact count up to the cap, a planner estimate above it (a million-row count is not worth its time). */
export async function countTickets(
  db: Db,
  tenantId: number,
  f: ResolvedFilter,
  scope: TicketScope,
): Promise<{ count: number; exact: boolean }> {
  const capped = await db
    .selectFrom(matchingTickets(db, tenantId, f, scope).as('s'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(capped.n);
  if (n <= TICKET_LIMITS.listCountCap) return { count: n, exact: true };
  return estimateAboveCap(db, tenantId, f, scope);
}

async function estimateAboveCap(db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope) {
  const base = applyFilter(db.selectFrom('tickets as t').select(sql<number>`1`.as('one')), tenantId, f, scope);
  const plan = (await base.explain('json')) as unknown as Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>;
  const estimate = Number(plan[0]?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return { count: Math.max(TICKET_LIMITS.listCountCap + 1, Math.round(estimate)), exact: false };
}

/** The list's status counts, asked for beside every page of the list (grouped by day, `countByDay` is asked too). */
export const statusCountStatementOf = (db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope) =>
  statusCountStatements(statementKey(f, [tenantId, f, scope]), () =>
    applyFilter(db.selectFrom('tickets as t'), tenantId, { ...f, status: undefined }, scope)
      .select(['t.status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('t.status'),
  );

export const countByStatus = async (db: Db, statement: ReturnType<typeof statusCountStatementOf>) =>
  (await db.executeQuery(statement)).rows;

const statusCountStatements = compiledStatements<{ status: string; count: number }>();

/** The filtered tickets counted per day they were raised, in the given time zone, newest day first. */
export async function countByDay(db: Db, statement: ReturnType<typeof dayCountStatementOf>) {
  const { rows } = await db.executeQuery(statement);
  return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
}

export const dayCountStatementOf = (db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope, timeZone: string) =>
  dayCountStatements(statementKey(f, [tenantId, f, scope, timeZone]), () => {
    // Grouped by a date (cheap per row); only the groups are formatted.
    const days = applyFilter(db.selectFrom('tickets as t'), tenantId, f, scope).select(
      sql<string>`(t.created_at at time zone ${timeZone})::date`.as('d'),
    );
    return db
      .selectFrom(days.as('x'))
      .select([sql<string>`to_char(x.d, 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('x.d')
      .orderBy('x.d', 'desc');
  });

const dayCountStatements = compiledStatements<{ day: string; count: number }>();

/** A ticket's children of a kind (work orders raised from it) and its parent. */
export const findLinked = (db: Db, tenantId: number, ids: { parentId: number | null; childrenOf: number }) =>
  db
    .selectFrom('tickets')
    .select(['id', 'ticket_no', 'type', 'status', 'title', 'parent_id'])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('parent_id', '=', ids.childrenOf), ...(ids.parentId ? [eb('id', '=', ids.parentId)] : [])]))
    .orderBy('id')
    .limit(50)
    .execute();

/** An open ticket of the same kind for the same device and event (alarm tickets are not raised twice). */
export const findOpenDuplicate = (db: Db, tenantId: number, type: string, entityId: number, event: string) =>
  db
    .selectFrom('tickets')
    .select(['id', 'ticket_no'])
    .where('tenant_id', '=', tenantId)
    .where('type', '=', type)
    .where('entity_id', '=', entityId)
    .where('event', '=', event)
    .where('status', 'not in', TERMINAL_STATUSES as string[])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const ticketsByIds = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([] as TicketRow[])
    : ticketSelect(db).where('t.tenant_id', '=', tenantId).where('t.id', 'in', ids).execute();

/** Open (not resolved or closed) tickets per vendor, over the whole tenant. */
export async function openCountsByVendor(db: Db, tenantId: number, vendorIds: number[]) {
  if (vendorIds.length === 0) return new Map<number, number>();
  const rows = await db
    .selectFrom('tickets')
    .select(['vendor_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('vendor_id', 'in', vendorIds)
    .where('status', 'not in', TERMINAL_STATUSES as string[])
    .groupBy('vendor_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.vendor_id), Number(r.n)]));
}
