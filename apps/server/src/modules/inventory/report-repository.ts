import type { ConsumptionReportFilter, MovementKind, MovementReportFilter, StockReportFilter } from '@sitewatch/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { contains } from '../sites/scope.ts';
import type { StoreScope } from './repository.ts';

/** The SQL of /inventory-report: stock on hand with its value, the ledger by date range, consumption per site. */

const and = (parts: RawBuilder<unknown>[]) => (parts.length === 0 ? sql`true` : sql.join(parts, sql` and `));
const storeIn = (column: RawBuilder<unknown>, scope: StoreScope) =>
  scope === 'all' ? sql`true` : scope.length === 0 ? sql`false` : sql`${column} in (${sql.join(scope)})`;
/** `to` is a whole day: everything before the next midnight (UTC). */
const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString();
const num = (v: unknown) => Number(v ?? 0);

// ---- stock on hand

export interface StockReportRowDb {
  item_id: number;
  code: string;
  name: string;
  category: string;
  unit: string;
  low_threshold: number;
  unit_cost: string | number;
  store_id: number;
  store_name: string;
  asset_id: number | null;
  on_hand: number;
}

function stockWhere(tenantId: number, scope: StoreScope, f: StockReportFilter) {
  const parts = [sql`b.tenant_id = ${tenantId}`, storeIn(sql.ref('b.store_id'), scope)];
  if (f.storeId) parts.push(sql`b.store_id = ${f.storeId}`);
  if (f.assetId) parts.push(sql`s.asset_id = ${f.assetId}`);
  if (f.category) parts.push(sql`i.category = ${f.category}`);
  if (f.low === 'true') parts.push(sql`i.low_threshold > 0 and b.on_hand < i.low_threshold`);
  if (f.search) {
    const like = contains(f.search);
    parts.push(sql`(i.name ilike ${like} or i.code ilike ${like} or s.name ilike ${like})`);
  }
  return and(parts);
}
const STOCK_FROM = sql`inventory_balances b join inventory_items i on i.id = b.item_id join inventory_stores s on s.id = b.store_id`;

export async function stockReport(
  db: Db,
  tenantId: number,
  scope: StoreScope,
  f: StockReportFilter,
  page: { offset: number; limit: number },
) {
  const where = stockWhere(tenantId, scope, f);
  const [rows, totals] = await Promise.all([
    sql<StockReportRowDb>`
      select b.item_id, i.code, i.name, i.category, i.unit, i.low_threshold, i.unit_cost, b.store_id, s.name as store_name,
             s.asset_id, b.on_hand
      from ${STOCK_FROM} where ${where}
      order by i.name, i.id, s.name, b.store_id
      offset ${page.offset} limit ${page.limit}`.execute(db),
    sql<{ n: string; on_hand: string | null; value: string | null; low: string }>`
      select count(*) as n, sum(b.on_hand) as on_hand, sum(b.on_hand * i.unit_cost) as value,
             count(*) filter (where i.low_threshold > 0 and b.on_hand < i.low_threshold) as low
      from ${STOCK_FROM} where ${where}`.execute(db),
  ]);
  const t = totals.rows[0];
  return {
    rows: rows.rows,
    totalCount: num(t?.n),
    totals: { onHand: num(t?.on_hand), value: Math.round(num(t?.value) * 100) / 100, low: num(t?.low) },
  };
}

// ---- movements

export interface MovementReportRowDb {
  id: string | number;
  created_at: Date | string;
  kind: MovementKind;
  code: string;
  name: string;
  quantity: number;
  from_name: string | null;
  to_name: string | null;
  ticket_id: number | null;
  note: string;
}

function movementWhere(tenantId: number, scope: StoreScope, f: MovementReportFilter) {
  const parts = [sql`m.tenant_id = ${tenantId}`];
  if (scope !== 'all') parts.push(sql`(${storeIn(sql.ref('m.from_store_id'), scope)} or ${storeIn(sql.ref('m.to_store_id'), scope)})`);
  if (f.from) parts.push(sql`m.created_at >= ${`${f.from}T00:00:00Z`}::timestamptz`);
  if (f.to) parts.push(sql`m.created_at < ${dayAfter(f.to)}::timestamptz`);
  if (f.kind) parts.push(sql`m.kind = ${f.kind}`);
  if (f.storeId) parts.push(sql`(m.from_store_id = ${f.storeId} or m.to_store_id = ${f.storeId})`);
  if (f.itemId) parts.push(sql`m.item_id = ${f.itemId}`);
  if (f.ticketId) parts.push(sql`m.ticket_id = ${f.ticketId}`);
  return parts;
}

/** Newest first, by keyset (`before`: the last id of the previous page) or by offset for the screen's pages. */
export function movementPage(
  db: Db,
  tenantId: number,
  scope: StoreScope,
  f: MovementReportFilter,
  page: { before?: number; offset?: number; limit: number },
) {
  const parts = movementWhere(tenantId, scope, f);
  if (page.before !== undefined) parts.push(sql`m.id < ${page.before}`);
  return sql<MovementReportRowDb>`
    select m.id, m.created_at, m.kind, i.code, i.name, m.quantity, fs.name as from_name, ts.name as to_name, m.ticket_id, m.note
    from inventory_movements m
      join inventory_items i on i.id = m.item_id
      left join inventory_stores fs on fs.id = m.from_store_id
      left join inventory_stores ts on ts.id = m.to_store_id
    where ${and(parts)}
    order by m.id desc
    offset ${page.offset ?? 0} limit ${page.limit}`
    .execute(db)
    .then((r) => r.rows);
}

export async function movementTotals(db: Db, tenantId: number, scope: StoreScope, f: MovementReportFilter) {
  const { rows } = await sql<{ kind: MovementKind; n: string; quantity: string }>`
    select m.kind, count(*) as n, sum(m.quantity) as quantity from inventory_movements m
    where ${and(movementWhere(tenantId, scope, f))} group by m.kind order by m.kind`.execute(db);
  return rows.map((r) => ({ kind: r.kind, count: num(r.n), quantity: num(r.quantity) }));
}

// ---- consumption per site

export interface ConsumptionRowDb {
  period: Date | string;
  asset_id: number | null;
  code: string;
  name: string;
  unit: string;
  issued: string | number;
  returned: string | number;
  unit_cost: string | number;
}

function consumptionSource(tenantId: number, scope: StoreScope, f: ConsumptionReportFilter) {
  const parts = [sql`m.tenant_id = ${tenantId}`, sql`m.kind in ('ISSUE', 'RETURN')`, storeIn(sql.ref('s.id'), scope)];
  if (f.from) parts.push(sql`m.created_at >= ${`${f.from}T00:00:00Z`}::timestamptz`);
  if (f.to) parts.push(sql`m.created_at < ${dayAfter(f.to)}::timestamptz`);
  if (f.assetId) parts.push(sql`s.asset_id = ${f.assetId}`);
  if (f.itemId) parts.push(sql`m.item_id = ${f.itemId}`);
  // An issue leaves a store and a return comes back to one: the store's site is where the spare was used.
  return sql`
    select date_trunc(${f.period}, m.created_at at time zone 'UTC') as period, s.asset_id, i.id as item_id, i.code, i.name, i.unit,
           i.unit_cost,
           sum(case when m.kind = 'ISSUE' then m.quantity else 0 end) as issued,
           sum(case when m.kind = 'RETURN' then m.quantity else 0 end) as returned
    from inventory_movements m
      join inventory_stores s on s.id = coalesce(m.from_store_id, m.to_store_id)
      join inventory_items i on i.id = m.item_id
    where ${and(parts)}
    group by 1, 2, 3, 4, 5, 6, 7`;
}

export async function consumptionReport(
  db: Db,
  tenantId: number,
  scope: StoreScope,
  f: ConsumptionReportFilter,
  page: { offset: number; limit: number },
) {
  const source = consumptionSource(tenantId, scope, f);
  const [rows, totals] = await Promise.all([
    sql<ConsumptionRowDb>`select * from (${source}) c order by c.period desc, c.asset_id nulls last, c.code offset ${page.offset} limit ${page.limit}`.execute(
      db,
    ),
    sql<{ n: string; issued: string | null; returned: string | null; value: string | null }>`
      select count(*) as n, sum(issued) as issued, sum(returned) as returned, sum((issued - returned) * unit_cost) as value
      from (${source}) c`.execute(db),
  ]);
  const t = totals.rows[0];
  const issued = num(t?.issued);
  const returned = num(t?.returned);
  return {
    rows: rows.rows,
    totalCount: num(t?.n),
    totals: { issued, returned, consumed: issued - returned, value: Math.round(num(t?.value) * 100) / 100 },
  };
}

// ---- purchase requests reach the ledger and the item's cost through these

/** The last purchase price of items (a received purchase request sets it). */
export async function setUnitCosts(db: Db, tenantId: number, costs: Array<{ itemId: number; unitCost: number }>) {
  for (const c of costs) {
    await db
      .updateTable('inventory_items')
      .set({ unit_cost: c.unitCost })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', c.itemId)
      .execute();
  }
}

/** Items stocked in a store that are below their threshold there. */
export async function lowInStore(db: Db, tenantId: number, storeId: number) {
  const { rows } = await sql<{ item_id: number; on_hand: number; low_threshold: number; unit_cost: string | number }>`
    select i.id as item_id, coalesce(b.on_hand, 0) as on_hand, i.low_threshold, i.unit_cost
    from inventory_items i join inventory_balances b on b.item_id = i.id and b.store_id = ${storeId} and b.tenant_id = ${tenantId}
    where i.tenant_id = ${tenantId} and i.low_threshold > 0 and b.on_hand < i.low_threshold
    order by i.name, i.id
    limit 100`.execute(db);
  return rows;
}

/** Code, name, unit and cost of items of the tenant (the lines of a purchase request). */
export const itemsByIds = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('inventory_items')
        .select(['id', 'code', 'name', 'unit', 'unit_cost', 'tracking'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute();

/** Names of stores of the tenant. */
export const storesByIds = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('inventory_stores').select(['id', 'name']).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
