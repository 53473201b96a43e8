/**
 * Stock on hand at scale, on PostgreSQL: 10,000 items in 20 stores over 1,000,000 ledger movements.
 * - p50/p95 of a store's page of stock on hand (first page of 20 with its count), through the inventory service
 *   the route runs (goal: p95 <= 100 ms);
 * - p50/p95 of an item's total (its page: stock per store and serials), and of the same total summed from the ledger
 *   alone, to show the truth stays fast too;
 * - p50/p95 of one movement (lock, check, append, add to the derived balances) at that size.
 * Run: node --import tsx bench/field/stock-on-hand.ts [--keep]   (BENCH_DATABASE_URL overrides the admin URL)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { INVENTORY_PERMISSIONS } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { createInventoryModule } from '../../apps/server/src/modules/inventory/index.ts';
import type { SiteDirectory } from '../../apps/server/src/modules/sites/directory.ts';
import type { UserDirectory } from '../../apps/server/src/modules/users/directory.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import { createEventBus } from '../../apps/server/src/platform/events.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { systemClock } from '../../apps/server/src/platform/module.ts';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = process.env.BENCH_DATABASE_NAME ?? 'bench_inventory';
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const STORES = 20;
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 1_000_000);
const keep = process.argv.includes('--keep');

const url = databaseUrl(ADMIN_URL, DB_NAME);
const admin = (statement: string) => adminQuery(ADMIN_URL, statement);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * p) - 1)] ?? 0;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function timed(runs: number, fn: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn(i);
    times.push(performance.now() - s);
  }
  return { p50: pct(times, 0.5), p95: pct(times, 0.95) };
}

console.log(`load average before: ${load()}`);
await admin(`drop database if exists ${DB_NAME} with (force)`);
await admin(`create database ${DB_NAME}`);
const database = openPostgres(url, 4);
const db = database.db;
try {
  await migrateToLatest(db);
  const tenantId = await seedFoundation(db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
  const t0 = performance.now();
  await sql`insert into inventory_stores (tenant_id, name) select ${tenantId}, 'Store ' || g from generate_series(1, ${STORES}) g`.execute(
    db,
  );
  await sql`
    insert into inventory_items (tenant_id, code, name, category, tracking, low_threshold)
    select ${tenantId}, 'ITM-' || g, 'Spare part ' || g, 'Category ' || (g % 25), 'QUANTITY', (g % 7) * 3
    from generate_series(1, ${ITEMS}) g
  `.execute(db);
  const stores = (await db.selectFrom('inventory_stores').select('id').where('tenant_id', '=', tenantId).orderBy('id').execute()).map(
    (r) => r.id,
  );
  const [firstItem] = await db
    .selectFrom('inventory_items')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .limit(1)
    .execute();
  const itemBase = (firstItem?.id ?? 1) - 1;
  const storeBase = (stores[0] ?? 1) - 1;
  // Every item is received into every store first (500 each), then the rest of the ledger moves small amounts out
  // of and between stores (transfers, issues, write-offs), so no balance goes negative.
  const receipts = ITEMS * STORES;
  await sql`
    insert into inventory_movements (tenant_id, kind, item_id, quantity, to_store_id, note, created_at)
    select ${tenantId}, 'RECEIVE', ${itemBase} + 1 + (g / ${STORES}), 500, ${storeBase} + 1 + (g % ${STORES}), 'Bench', now() - interval '400 days'
    from generate_series(0, ${receipts - 1}) g
  `.execute(db);
  const rest = MOVEMENTS - receipts;
  const chunk = 200_000;
  for (let done = 0; done < rest; done += chunk) {
    const n = Math.min(chunk, rest - done);
    await sql`
      insert into inventory_movements (tenant_id, kind, item_id, quantity, from_store_id, to_store_id, note, created_at)
      select ${tenantId}, k, item, q, src, case when k = 'TRANSFER' then ${storeBase} + 1 + ((src - ${storeBase}) % ${STORES}) else null end, '',
             now() - random() * interval '390 days'
      from (
        select (array['TRANSFER', 'ISSUE', 'WRITE_OFF'])[1 + floor(random() * 3)::int] as k,
               ${itemBase} + 1 + floor(random() * ${ITEMS})::int as item,
               1 + floor(random() * 3)::int as q,
               ${storeBase} + 1 + floor(random() * ${STORES})::int as src
        from generate_series(1, ${n})
      ) x
    `.execute(db);
  }
  await sql`
    insert into inventory_balances (tenant_id, item_id, store_id, on_hand)
    select ${tenantId}, item_id, store_id, sum(q) from (
      select item_id, to_store_id as store_id, quantity as q from inventory_movements where to_store_id is not null
      union all
      select item_id, from_store_id, -quantity from inventory_movements where from_store_id is not null
    ) x group by item_id, store_id
  `.execute(db);
  await sql`analyze`.execute(db);
  const total = await db
    .selectFrom('inventory_movements')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(
    `seeded ${ITEMS.toLocaleString()} items, ${STORES} stores, ${Number(total.n).toLocaleString()} movements in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const directory = { visibleAssetIds: async () => 'all', asset: async () => null } as unknown as SiteDirectory;
  const users = { byIds: async () => [], withRoles: async () => [] } as unknown as UserDirectory;
  const inventory = createInventoryModule({
    db,
    events: createEventBus(),
    clock: systemClock,
    directory,
    users,
    tickets: { visible: async () => null, addHistory: async () => undefined },
    devices: { device: async () => null, replaceHardware: async () => null },
  }).ports;
  const actor = {
    userId: 1,
    tenantId,
    roles: ['customeradmin'],
    permissions: new Set<string>(Object.values(INVENTORY_PERMISSIONS)),
  };
  const mismatches = await inventory.balanceMismatches(tenantId);
  console.log(`derived balances that differ from the ledger: ${mismatches.length}`);

  const store = (i: number) => stores[i % stores.length] as number;
  const item = (i: number) => itemBase + 1 + ((i * 7919) % ITEMS);
  await timed(20, (i) => inventory.catalog.stock(actor, { storeId: store(i), page: 1, limit: 20 }));
  const storePage = await timed(200, (i) => inventory.catalog.stock(actor, { storeId: store(i), page: 1 + (i % 5), limit: 20 }));
  const lowPage = await timed(100, (i) => inventory.catalog.stock(actor, { storeId: store(i), page: 1, limit: 20, low: 'true' }));
  const searchPage = await timed(100, (i) => inventory.catalog.stock(actor, { page: 1, limit: 20, search: `part ${(i * 37) % ITEMS}` }));
  const itemTotal = await timed(200, (i) => inventory.catalog.getItem(actor, item(i)));
  const ledgerTotal = await timed(200, async (i) => {
    for (let s = 0; s < 3; s++) await inventory.ledgerOnHand(tenantId, item(i), store(i + s));
  });
  const moves = await timed(200, (i) =>
    inventory.moves.move(
      actor,
      { kind: 'TRANSFER', itemId: item(i), storeId: store(i), toStoreId: store(i + 1), quantity: 1, note: '' },
      null,
    ),
  );
  console.log(
    `store page of stock on hand (20 of ${ITEMS.toLocaleString()}, with count): p50 ${ms(storePage.p50)}, p95 ${ms(storePage.p95)}`,
  );
  console.log(`store page, low stock only: p50 ${ms(lowPage.p50)}, p95 ${ms(lowPage.p95)}`);
  console.log(`all stores, searched: p50 ${ms(searchPage.p50)}, p95 ${ms(searchPage.p95)}`);
  console.log(`an item's total (its page: stock per store, serials): p50 ${ms(itemTotal.p50)}, p95 ${ms(itemTotal.p95)}`);
  console.log(`an item's on hand in 3 stores from the ledger alone: p50 ${ms(ledgerTotal.p50)}, p95 ${ms(ledgerTotal.p95)}`);
  console.log(`one movement (transfer): p50 ${ms(moves.p50)}, p95 ${ms(moves.p95)}`);
  console.log(`derived balances that differ from the ledger after the moves: ${(await inventory.balanceMismatches(tenantId)).length}`);
  console.log(`load average after: ${load()}`);
} finally {
  await database.close();
  if (!keep) await admin(`drop database if exists ${DB_NAME} with (force)`);
}
