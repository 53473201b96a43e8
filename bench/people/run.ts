/**
 * The user activity log at scale, on PostgreSQL with 5,000,000 entries over 13 months (two tenants):
 * - p95 of the first page of /user-activity-logs filtered by user, action and the last 30 days (goal <= 150 ms),
 *   through the same query the HTTP route runs;
 * - exporting 100,000 entries as CSV through the export source the downloads job centre runs (goal <= 10 s).
 * Run: node --import tsx bench/people/run.ts [--keep]   (BENCH_DATABASE_URL overrides the admin URL)
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { createActivityLogModule } from '../../apps/server/src/modules/activity-log/index.ts';
import * as activity from '../../apps/server/src/platform/activity-log.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import type { JobWorker } from '../../apps/server/src/platform/jobs/worker.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { systemClock } from '../../apps/server/src/platform/module.ts';
import { adminQuery } from '../../apps/server/test/support/pg-admin.ts';
import { csvLine } from '../../packages/contracts/src/index.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DATABASE_NAME ?? 'bench_people';
const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const EXPORT_ROWS = 100_000;
const ACTORS = 400;
const ACTIONS = ['login.password', 'logout', 'token.refresh', 'user.update', 'user.create', 'group.update', 'session.revoke', 'login.otp'];
const keep = process.argv.includes('--keep');

const url = new URL(ADMIN_URL);
url.pathname = `/${DB_NAME}`;
const admin = (statement: string) => adminQuery(ADMIN_URL, statement);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

await admin(`drop database if exists ${DB_NAME}`);
await admin(`create database ${DB_NAME}`);
const database = openPostgres(url.toString(), 4);
const db = database.db;
try {
  await migrateToLatest(db);
  const tenantA = await seedFoundation(db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
  const tenantB = await seedFoundation(db, DEMO_TENANTS[1] as (typeof DEMO_TENANTS)[0]);
  const now = new Date();
  for (let back = 0; back <= 13; back++)
    await activity.ensureMonth(db, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)));

  const t0 = performance.now();
  const chunk = 500_000;
  for (let done = 0; done < ROWS; done += chunk) {
    const n = Math.min(chunk, ROWS - done);
    // 80% of the entries in tenant A; times spread evenly over the last 395 days.
    await sql`
      insert into user_activity_logs (tenant_id, created_at, actor_id, action, outcome, object_type, object_id, ip, before, after)
      select case when random() < 0.8 then ${tenantA}::int else ${tenantB}::int end,
             now() - random() * interval '395 days',
             1 + floor(random() * ${ACTORS})::int,
             (${ACTIONS}::text[])[1 + floor(random() * ${ACTIONS.length})::int],
             case when random() < 0.05 then 'failure' else 'success' end,
             'user', (1 + floor(random() * 1000)::int)::text, '10.0.0.1',
             '{"roles": ["vendor"]}'::jsonb, '{"roles": ["storemanager"]}'::jsonb
      from generate_series(1, ${n})`.execute(db);
  }
  await sql`analyze user_activity_logs`.execute(db);
  console.log(`inserted ${ROWS.toLocaleString()} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // The route's query: first page (50) of one user's entries of one action in the last 30 days.
  const times: number[] = [];
  const from = new Date(Date.now() - 30 * 86_400_000);
  for (let i = 0; i < 120; i++) {
    const userId = 1 + Math.floor(Math.random() * ACTORS);
    const action = ACTIONS[Math.floor(Math.random() * ACTIONS.length)] as string;
    const s = performance.now();
    await activity.page(db, tenantA, { userId, action, from }, undefined, 50);
    if (i >= 20) times.push(performance.now() - s);
  }
  console.log(
    `filtered page (user, action, 30 days): p95 ${p95(times).toFixed(1)} ms, median ${median(times).toFixed(1)} ms (goal <= 150 ms)`,
  );
  const dated: number[] = [];
  for (let i = 0; i < 60; i++) {
    const s = performance.now();
    await activity.page(db, tenantA, { action: ACTIONS[i % ACTIONS.length], from }, undefined, 50);
    if (i >= 10) dated.push(performance.now() - s);
  }
  console.log(`filtered page (action, 30 days): p95 ${p95(dated).toFixed(1)} ms`);

  // The export source the downloads runner pages through, with the CSV lines it writes.
  const module = createActivityLogModule({
    db,
    clock: systemClock,
    jobs: {} as JobWorker,
    tenants: async () => [],
    userNames: async () => new Map(),
  });
  const source = module.ports.exportSource;
  const scope = { tenantId: tenantA, userId: 1, roles: ['customeradmin'], permissions: ['view_user'] };
  const params = { from: new Date(Date.now() - 395 * 86_400_000).toISOString() };
  const e0 = performance.now();
  let rows = 0;
  let bytes = 0;
  let cursor: string | null = null;
  do {
    const pageSize = Math.min(source.pageSize ?? 1000, EXPORT_ROWS - rows);
    const result = await source.fetchPage(scope, params, cursor, pageSize);
    for (const row of result.rows) bytes += csvLine(source.columns.map((c) => row[c.key])).length;
    rows += result.rows.length;
    cursor = result.nextCursor;
  } while (cursor && rows < EXPORT_ROWS);
  console.log(
    `export of ${rows.toLocaleString()} entries: ${((performance.now() - e0) / 1000).toFixed(2)} s, ${(bytes / 1e6).toFixed(1)} MB CSV (goal <= 10 s)`,
  );
} finally {
  await database.close();
  if (!keep) await admin(`drop database if exists ${DB_NAME}`);
}
