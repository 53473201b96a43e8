import type { MovementKind, Tracking } from '@sitewatch/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { contains } from '../sites/scope.ts';

/** The stores a caller sees: all of the tenant's, or these ids. */
export type StoreScope = 'all' | number[];

const inScope = (column: string, scope: StoreScope): Expression<SqlBool> =>
  scope === 'all'
    ? sql<SqlBool>`true`
    : scope.length === 0
      ? sql<SqlBool>`false`
      : sql<SqlBool>`${sql.ref(column)} in (${sql.join(scope)})`;

// ---- stores

export type StoreRow = { id: number; name: string; asset_id: number | null; manager_ids: number[] };

/** Ids of the stores a non-admin sees: at no site, at one of their sites, or managed by them. */
export async function storeIdsFor(db: Db, tenantId: number, userId: number, assetIds: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('inventory_stores')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb('asset_id', 'is', null),
        ...(assetIds.length > 0 ? [eb('asset_id', 'in', assetIds)] : []),
        sql<SqlBool>`${userId} = any(manager_ids)`,
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}

export const listStores = (db: Db, tenantId: number, scope: StoreScope, opts: { search?: string; offset: number; limit: number }) => {
  let q = db.selectFrom('inventory_stores').where('tenant_id', '=', tenantId).where(inScope('id', scope));
  if (opts.search) q = q.where('name', 'ilike', contains(opts.search));
  return Promise.all([
    q.select(['id', 'name', 'asset_id', 'manager_ids']).orderBy('name').orderBy('id').offset(opts.offset).limit(opts.limit).execute(),
    q
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
  ]);
};

export const findStore = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('inventory_stores')
    .select(['id', 'name', 'asset_id', 'manager_ids'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();

export const storesByIds = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([] as StoreRow[])
    : db
        .selectFrom('inventory_stores')
        .select(['id', 'name', 'asset_id', 'manager_ids'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute();

export const storeNameTaken = (db: Db, tenantId: number, name: string, exceptId?: number) =>
  db
    .selectFrom('inventory_stores')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst()
    .then(Boolean);

export const insertStore = (db: Db, tenantId: number, v: { name: string; assetId: number | null; managerIds: number[] }) =>
  db
    .insertInto('inventory_stores')
    .values({ tenant_id: tenantId, name: v.name, asset_id: v.assetId, manager_ids: v.managerIds })
    .returning(['id', 'name', 'asset_id', 'manager_ids'])
    .executeTakeFirstOrThrow();

export const updateStore = (db: Db, tenantId: number, id: number, v: { name: string; assetId: number | null; managerIds: number[] }) =>
  db
    .updateTable('inventory_stores')
    .set({ name: v.name, asset_id: v.assetId, manager_ids: v.managerIds, updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning(['id', 'name', 'asset_id', 'manager_ids'])
    .executeTakeFirst();

export const storeHasMovements = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('inventory_movements')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('from_store_id', '=', id), eb('to_store_id', '=', id)]))
    .limit(1)
    .executeTakeFirst()
    .then(Boolean);

export const deleteStore = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('inventory_stores').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

/** Items below their threshold, per store. */
export async function lowCounts(db: Db, tenantId: number, storeIds: number[]) {
  if (storeIds.length === 0) return new Map<number, number>();
  const rows = await db
    .selectFrom('inventory_balances as b')
    .innerJoin('inventory_items as i', 'i.id', 'b.item_id')
    .select(['b.store_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('b.tenant_id', '=', tenantId)
    .where('b.store_id', 'in', storeIds)
    .whereRef('b.on_hand', '<', 'i.low_threshold')
    .groupBy('b.store_id')
    .execute();
  return new Map(rows.map((r) => [r.store_id, Number(r.n)]));
}

// ---- items

export type ItemRow = {
  id: number;
  code: string;
  name: string;
  category: string;
  make: string;
  model: string;
  unit: string;
  tracking: Tracking;
  low_threshold: number;
};
const ITEM_COLUMNS = ['id', 'code', 'name', 'category', 'make', 'model', 'unit', 'tracking', 'low_threshold'] as const;

export function listItems(
  db: Db,
  tenantId: number,
  f: { search?: string; code?: string; category?: string; offset: number; limit: number },
) {
  let q = db.selectFrom('inventory_items').where('tenant_id', '=', tenantId);
  if (f.code) q = q.where(sql`upper(code)`, '=', f.code.toUpperCase());
  if (f.category) q = q.where('category', '=', f.category);
  if (f.search) {
    const like = contains(f.search);
    q = q.where((eb) =>
      eb.or([eb('name', 'ilike', like), eb('code', 'ilike', like), eb('model', 'ilike', like), eb('make', 'ilike', like)]),
    );
  }
  return Promise.all([
    q
      .select([...ITEM_COLUMNS])
      .orderBy('name')
      .orderBy('id')
      .offset(f.offset)
      .limit(f.limit)
      .execute() as Promise<ItemRow[]>,
    q
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
  ]);
}

export const findItem = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('inventory_items')
    .select([...ITEM_COLUMNS])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst() as Promise<ItemRow | undefined>;

export const codeTaken = (db: Db, tenantId: number, code: string, exceptId?: number) =>
  db
    .selectFrom('inventory_items')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql`upper(code)`, '=', code.toUpperCase())
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst()
    .then(Boolean);

type ItemValues = { code: string; name: string; category: string; make: string; model: string; unit: string; lowStockThreshold: number };
const itemValues = (v: ItemValues) => ({
  code: v.code,
  name: v.name,
  category: v.category,
  make: v.make,
  model: v.model,
  unit: v.unit,
  low_threshold: v.lowStockThreshold,
});

export const insertItem = (db: Db, tenantId: number, v: ItemValues & { tracking: Tracking }) =>
  db
    .insertInto('inventory_items')
    .values({ tenant_id: tenantId, tracking: v.tracking, ...itemValues(v) })
    .returning([...ITEM_COLUMNS])
    .executeTakeFirstOrThrow() as Promise<ItemRow>;

export const updateItem = (db: Db, tenantId: number, id: number, v: ItemValues) =>
  db
    .updateTable('inventory_items')
    .set({ ...itemValues(v), updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning([...ITEM_COLUMNS])
    .executeTakeFirst() as Promise<ItemRow | undefined>;

export const itemHasMovements = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('inventory_movements')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('item_id', '=', id)
    .limit(1)
    .executeTakeFirst()
    .then(Boolean);

export const deleteItem = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('inventory_items').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const categories = (db: Db, tenantId: number) =>
  db
    .selectFrom('inventory_items')
    .select('category')
    .distinct()
    .where('tenant_id', '=', tenantId)
    .where('category', '!=', '')
    .orderBy('category')
    .limit(500)
    .execute()
    .then((rows) => rows.map((r) => r.category));

/** Totals on hand per item over the stores in scope. */
export async function totalsOf(db: Db, tenantId: number, itemIds: number[], scope: StoreScope) {
  if (itemIds.length === 0) return new Map<number, number>();
  const rows = await db
    .selectFrom('inventory_balances')
    .select(['item_id', (eb) => eb.fn.sum<string>('on_hand').as('n')])
    .where('tenant_id', '=', tenantId)
    .where('item_id', 'in', itemIds)
    .where(inScope('store_id', scope))
    .groupBy('item_id')
    .execute();
  return new Map(rows.map((r) => [r.item_id, Number(r.n)]));
}

// ---- stock on hand

export interface StockFilter {
  storeIds: StoreScope;
  search?: string;
  category?: string;
  tracking?: Tracking;
  low?: boolean;
}

function stockQuery(db: Db, tenantId: number, f: StockFilter) {
  let q = db
    .selectFrom('inventory_balances as b')
    .innerJoin('inventory_items as i', 'i.id', 'b.item_id')
    .where('b.tenant_id', '=', tenantId)
    .where(inScope('b.store_id', f.storeIds));
  if (f.category) q = q.where('i.category', '=', f.category);
  if (f.tracking) q = q.where('i.tracking', '=', f.tracking);
  if (f.low) q = q.whereRef('b.on_hand', '<', 'i.low_threshold');
  if (f.search) {
    const like = contains(f.search);
    q = q.where((eb) => eb.or([eb('i.name', 'ilike', like), eb('i.code', 'ilike', like), eb('i.model', 'ilike', like)]));
  }
  return q;
}

/** A page of stock rows by item name; the count needs no join unless a filter reads the item. */
export const listStock = (db: Db, tenantId: number, f: StockFilter, page: { offset: number; limit: number }) =>
  Promise.all([
    stockQuery(db, tenantId, f)
      .innerJoin('inventory_stores as s', 's.id', 'b.store_id')
      .select([
        'i.id as item_id',
        'i.code',
        'i.name',
        'i.category',
        'i.unit',
        'i.tracking',
        'i.low_threshold',
        's.id as store_id',
        's.name as store_name',
        'b.on_hand',
      ])
      .orderBy('i.name')
      .orderBy('i.id')
      .orderBy('b.store_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    (f.category || f.tracking || f.low || f.search
      ? stockQuery(db, tenantId, f)
      : db.selectFrom('inventory_balances as b').where('b.tenant_id', '=', tenantId).where(inScope('b.store_id', f.storeIds))
    )
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
  ]);

export const stockOfItem = (db: Db, tenantId: number, itemId: number, scope: StoreScope) =>
  db
    .selectFrom('inventory_balances as b')
    .innerJoin('inventory_stores as s', 's.id', 'b.store_id')
    .select(['s.id as store_id', 's.name as store_name', 'b.on_hand'])
    .where('b.tenant_id', '=', tenantId)
    .where('b.item_id', '=', itemId)
    .where(inScope('b.store_id', scope))
    .orderBy('s.name')
    .execute();

export const serialsOfItem = (db: Db, tenantId: number, itemId: number) =>
  db
    .selectFrom('inventory_serials as r')
    .leftJoin('inventory_stores as s', 's.id', 'r.store_id')
    .select(['r.id', 'r.serial', 'r.store_id', 's.name as store_name', 'r.status', 'r.ticket_id'])
    .where('r.tenant_id', '=', tenantId)
    .where('r.item_id', '=', itemId)
    .orderBy('r.serial')
    .limit(1000)
    .execute();

// ---- the ledger

/** On hand of an item in a store: the sum of the ledger (receipts and transfers in, minus issues, transfers out, write-offs). */
export async function ledgerOnHand(db: Db, tenantId: number, itemId: number, storeId: number): Promise<number> {
  const row = await sql<{ n: string | null }>`
    select coalesce((select sum(quantity) from inventory_movements where tenant_id = ${tenantId} and to_store_id = ${storeId} and item_id = ${itemId}), 0)
         - coalesce((select sum(quantity) from inventory_movements where tenant_id = ${tenantId} and from_store_id = ${storeId} and item_id = ${itemId}), 0) as n
  `.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

/**
 * Makes sure the balance rows exist and locks them, in store order (so two moves never wait on each other
 * crosswise), and answers what each store holds: the no-op update on conflict locks an existing row and returns it
 * in the same statement as the insert of a missing one.
 */
export async function lockBalances(trx: Db, tenantId: number, itemId: number, storeIds: number[]): Promise<Map<number, number>> {
  const ids = [...new Set(storeIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const rows = await trx
    .insertInto('inventory_balances')
    .values(ids.map((storeId) => ({ tenant_id: tenantId, item_id: itemId, store_id: storeId, on_hand: 0 })))
    .onConflict((oc) => oc.columns(['tenant_id', 'item_id', 'store_id']).doUpdateSet({ on_hand: sql<number>`inventory_balances.on_hand` }))
    .returning(['store_id', 'on_hand'])
    .execute();
  return new Map(rows.map((r) => [r.store_id, r.on_hand]));
}

/**
 * Adds each store's change to its balance row, locked by `lockBalances` (the constraint refuses a negative result):
 * a movement costs the same however long the ledger is; `balanceMismatches` compares the rows with the ledger.
 */
export async function addToBalances(trx: Db, tenantId: number, itemId: number, changes: Map<number, number>) {
  if (changes.size === 0) return;
  const cases = [...changes].map(([storeId, n]) => sql`when ${storeId}::int then ${n}::int`);
  await trx
    .updateTable('inventory_balances')
    .set({ on_hand: sql<number>`on_hand + case store_id ${sql.join(cases, sql` `)} end` })
    .where('tenant_id', '=', tenantId)
    .where('item_id', '=', itemId)
    .where('store_id', 'in', [...changes.keys()])
    .execute();
}

export type SerialRow = { id: number; serial: string; store_id: number | null; status: string; ticket_id: number | null };

/** The item's serial rows of these numbers (case-insensitive), locked for the transaction. */
export const lockSerials = (trx: Db, tenantId: number, itemId: number, serials: string[]) =>
  trx
    .selectFrom('inventory_serials')
    .select(['id', 'serial', 'store_id', 'status', 'ticket_id'])
    .where('tenant_id', '=', tenantId)
    .where('item_id', '=', itemId)
    .where(
      sql`upper(serial)`,
      'in',
      serials.map((s) => s.toUpperCase()),
    )
    .orderBy('id')
    .forUpdate()
    .execute() as Promise<SerialRow[]>;

export const insertSerials = (trx: Db, tenantId: number, itemId: number, serials: string[]) =>
  trx
    .insertInto('inventory_serials')
    .values(serials.map((serial) => ({ tenant_id: tenantId, item_id: itemId, serial, store_id: null, status: 'IN_STORE' as const })))
    .returning(['id', 'serial', 'store_id', 'status', 'ticket_id'])
    .execute() as Promise<SerialRow[]>;

/** Where each serial is by the ledger: its latest movement (one index probe per serial, however many it has). */
export async function ledgerSerialState(trx: Db, tenantId: number, serialIds: number[]) {
  if (serialIds.length === 0) return new Map<number, { kind: MovementKind; to_store_id: number | null; ticket_id: number | null }>();
  const rows = await sql<{ serial_id: number; kind: MovementKind; to_store_id: number | null; ticket_id: number | null }>`
    select s.id as serial_id, m.kind, m.to_store_id, m.ticket_id
    from (values ${sql.join(serialIds.map((id) => sql`(${id}::int)`))}) as s(id)
    cross join lateral (
      select kind, to_store_id, ticket_id from inventory_movements
      where serial_id = s.id and tenant_id = ${tenantId}
      order by id desc limit 1
    ) m
  `.execute(trx);
  return new Map(rows.rows.map((r) => [r.serial_id, r]));
}

export const setSerialState = (
  trx: Db,
  tenantId: number,
  ids: number[],
  state: { store_id: number | null; status: 'IN_STORE' | 'ISSUED' | 'WRITTEN_OFF'; ticket_id: number | null },
) =>
  ids.length === 0
    ? Promise.resolve()
    : trx.updateTable('inventory_serials').set(state).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();

/** Units of an item issued to a ticket and not returned. */
export async function issuedToTicket(trx: Db, tenantId: number, itemId: number, ticketId: number): Promise<number> {
  const row = await trx
    .selectFrom('inventory_movements')
    .select(sql<string>`coalesce(sum(case when kind = 'ISSUE' then quantity else -quantity end), 0)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('item_id', '=', itemId)
    .where('ticket_id', '=', ticketId)
    .where('kind', 'in', ['ISSUE', 'RETURN'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewMovement {
  kind: MovementKind;
  item_id: number;
  quantity: number;
  from_store_id: number | null;
  to_store_id: number | null;
  serial_id: number | null;
  ticket_id: number | null;
  device_id: number | null;
  note: string;
  actor_id: number | null;
  created_at: Date;
  performed_at: Date | null;
}

/** Appends the rows; answers each one's id with its serial. */
export const insertMovements = (trx: Db, tenantId: number, rows: NewMovement[]) =>
  trx
    .insertInto('inventory_movements')
    .values(rows.map((r) => ({ tenant_id: tenantId, ...r })))
    .returning(['id', 'serial_id'])
    .execute()
    .then((r) => r.map((x) => ({ id: Number(x.id), serialId: x.serial_id })));

export interface MovementFilter {
  scope: StoreScope;
  itemId?: number;
  storeId?: number;
  ticketId?: number;
  kind?: MovementKind;
}

function movementQuery(db: Db, tenantId: number, f: MovementFilter) {
  let q = db.selectFrom('inventory_movements as m').where('m.tenant_id', '=', tenantId);
  if (f.scope !== 'all') {
    const scope = f.scope;
    q = q.where((eb) => eb.or([inScope('m.from_store_id', scope), inScope('m.to_store_id', scope)]));
  }
  if (f.itemId !== undefined) q = q.where('m.item_id', '=', f.itemId);
  if (f.storeId !== undefined) {
    const id = f.storeId;
    q = q.where((eb) => eb.or([eb('m.from_store_id', '=', id), eb('m.to_store_id', '=', id)]));
  }
  if (f.ticketId !== undefined) q = q.where('m.ticket_id', '=', f.ticketId);
  if (f.kind) q = q.where('m.kind', '=', f.kind);
  return q;
}

export const listMovements = (db: Db, tenantId: number, f: MovementFilter, page: { offset: number; limit: number }) =>
  Promise.all([
    movementQuery(db, tenantId, f)
      .innerJoin('inventory_items as i', 'i.id', 'm.item_id')
      .leftJoin('inventory_stores as sf', 'sf.id', 'm.from_store_id')
      .leftJoin('inventory_stores as st', 'st.id', 'm.to_store_id')
      .leftJoin('inventory_serials as r', 'r.id', 'm.serial_id')
      .select([
        'm.id',
        'm.kind',
        'm.item_id',
        'i.code as item_code',
        'i.name as item_name',
        'm.quantity',
        'm.from_store_id',
        'sf.name as from_name',
        'm.to_store_id',
        'st.name as to_name',
        'r.serial',
        'm.ticket_id',
        'm.note',
        'm.actor_id',
        'm.created_at',
        'm.performed_at',
      ])
      .orderBy('m.id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    movementQuery(db, tenantId, f)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
  ]);
export type MovementRow = Awaited<ReturnType<typeof listMovements>>[0][number];

/** Every (item, store) whose derived balance differs from the ledger (the check the tests run). */
export async function balanceMismatches(db: Db, tenantId: number) {
  const rows = await sql<{ item_id: number; store_id: number; balance: string | null; ledger: string | null }>`
    with ledger as (
      select item_id, store_id, sum(q) as n from (
        select item_id, to_store_id as store_id, quantity as q from inventory_movements where tenant_id = ${tenantId} and to_store_id is not null
        union all
        select item_id, from_store_id, -quantity from inventory_movements where tenant_id = ${tenantId} and from_store_id is not null
      ) x group by item_id, store_id
    )
    select coalesce(b.item_id, l.item_id) as item_id, coalesce(b.store_id, l.store_id) as store_id, b.on_hand as balance, l.n as ledger
    from (select * from inventory_balances where tenant_id = ${tenantId}) b
    full join ledger l on l.item_id = b.item_id and l.store_id = b.store_id
    where coalesce(b.on_hand, 0) <> coalesce(l.n, 0) or coalesce(l.n, 0) < 0
  `.execute(db);
  return rows.rows.map((r) => ({ itemId: r.item_id, storeId: r.store_id, balance: Number(r.balance ?? 0), ledger: Number(r.ledger ?? 0) }));
}
