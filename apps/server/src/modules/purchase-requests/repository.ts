import type { PrQuery, PrReportFilter, PrState } from '@sitewatch/contracts';
import { type RawBuilder, sql, type Updateable } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { contains } from '../sites/scope.ts';
import type { PurchaseRequestsTable } from './tables.ts';

/** The only SQL on purchase_requests and purchase_request_lines. `scope`: the store ids the caller sees, or 'all'. */
export type Scope = 'all' | number[];

const columns = [
  'id',
  'title',
  'state',
  'source',
  'store_id',
  'asset_id',
  'ticket_id',
  'ticket_ref',
  'requester_id',
  'decided_by',
  'note',
  'reason',
  'total',
  'created_at',
  'updated_at',
  'submitted_at',
  'decided_at',
  'received_at',
] as const;

export type RequestRow = Awaited<ReturnType<typeof findRequest>> & object;

export const findRequest = (db: Db, tenantId: number, id: number, opts: { lock?: boolean } = {}) => {
  const q = db.selectFrom('purchase_requests').select(columns).where('tenant_id', '=', tenantId).where('id', '=', id);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
};

export const linesOf = (db: Db, tenantId: number, requestIds: number[]) =>
  requestIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('purchase_request_lines')
        .select(['id', 'request_id', 'item_id', 'quantity', 'unit_cost'])
        .where('tenant_id', '=', tenantId)
        .where('request_id', 'in', requestIds)
        .orderBy('id')
        .execute();

export async function insertRequest(
  trx: Db,
  row: {
    tenant_id: number;
    title: string;
    state: PrState;
    source: 'MANUAL' | 'TICKET' | 'LOW_STOCK';
    store_id: number;
    asset_id: number | null;
    ticket_id: number | null;
    ticket_ref: string | null;
    requester_id: number;
    note: string;
    total: number;
    created_at: Date;
    updated_at: Date;
    submitted_at: Date | null;
  },
) {
  const r = await trx.insertInto('purchase_requests').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function replaceLines(
  trx: Db,
  tenantId: number,
  requestId: number,
  lines: Array<{ itemId: number; quantity: number; unitCost: number }>,
) {
  await trx.deleteFrom('purchase_request_lines').where('tenant_id', '=', tenantId).where('request_id', '=', requestId).execute();
  if (lines.length === 0) return;
  await trx
    .insertInto('purchase_request_lines')
    .values(
      lines.map((l) => ({ tenant_id: tenantId, request_id: requestId, item_id: l.itemId, quantity: l.quantity, unit_cost: l.unitCost })),
    )
    .execute();
}

export const updateRequest = (trx: Db, tenantId: number, id: number, patch: Updateable<PurchaseRequestsTable>) =>
  trx.updateTable('purchase_requests').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();

export const deleteRequest = (trx: Db, tenantId: number, id: number) =>
  trx.deleteFrom('purchase_requests').where('tenant_id', '=', tenantId).where('id', '=', id).execute();

// ---- lists and the report

type Filter = Partial<Pick<PrQuery, 'state' | 'source' | 'storeId' | 'assetId' | 'ticketId' | 'requesterId' | 'from' | 'to' | 'search'>>;

const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString();

function where(tenantId: number, scope: Scope, f: Filter): RawBuilder<unknown> {
  const parts = [sql`p.tenant_id = ${tenantId}`];
  if (scope !== 'all') parts.push(scope.length === 0 ? sql`false` : sql`p.store_id in (${sql.join(scope)})`);
  if (f.state) parts.push(sql`p.state = ${f.state}`);
  if (f.source) parts.push(sql`p.source = ${f.source}`);
  if (f.storeId) parts.push(sql`p.store_id = ${f.storeId}`);
  if (f.assetId) parts.push(sql`p.asset_id = ${f.assetId}`);
  if (f.ticketId) parts.push(sql`p.ticket_id = ${f.ticketId}`);
  if (f.requesterId) parts.push(sql`p.requester_id = ${f.requesterId}`);
  if (f.from) parts.push(sql`p.created_at >= ${`${f.from}T00:00:00Z`}::timestamptz`);
  if (f.to) parts.push(sql`p.created_at < ${dayAfter(f.to)}::timestamptz`);
  if (f.search) {
    const like = contains(f.search);
    parts.push(
      sql`(p.title ilike ${like} or ('PR-' || lpad(p.id::text, 5, '0')) ilike ${like} or coalesce(p.ticket_ref, '') ilike ${like})`,
    );
  }
  return sql.join(parts, sql` and `);
}

export type ListRow = RequestRow & { line_count: number };

/** Newest first; `before` pages by keyset (exports), `offset` by number (screens). */
export async function listRequests(
  db: Db,
  tenantId: number,
  scope: Scope,
  f: Filter,
  page: { offset?: number; before?: number; limit: number },
): Promise<ListRow[]> {
  const keyset = page.before !== undefined ? sql` and p.id < ${page.before}` : sql``;
  const { rows } = await sql<ListRow>`
    select ${sql.join(columns.map((c) => sql.ref(`p.${c}`)))},
      (select count(*)::int from purchase_request_lines l where l.request_id = p.id) as line_count
    from purchase_requests p
    where ${where(tenantId, scope, f)}${keyset}
    order by p.id desc
    offset ${page.offset ?? 0} limit ${page.limit}`.execute(db);
  return rows;
}

/** Count and value of everything the filters match, per state or per month of creation. */
export async function groupTotals(db: Db, tenantId: number, scope: Scope, f: Filter, by: 'state' | 'month') {
  const key = by === 'state' ? sql`p.state` : sql`to_char(p.created_at at time zone 'UTC', 'YYYY-MM')`;
  const { rows } = await sql<{ key: string; n: string; total: string | null }>`
    select ${key} as key, count(*) as n, sum(p.total) as total from purchase_requests p
    where ${where(tenantId, scope, f)} group by 1 order by 1`.execute(db);
  return rows.map((r) => ({ key: r.key, count: Number(r.n), total: Math.round(Number(r.total ?? 0) * 100) / 100 }));
}

export type { PrReportFilter };
