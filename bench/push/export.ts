/**
 * Export throughput: a 100,000-row CSV (the tenant's sign-in log) exported as a background job through the real
 * app (queue, worker, keyset pages, CSV encoding, streaming into the blob store), with the memory it takes.
 * Run: node --import tsx bench/push/export.ts   (BENCH_PG=postgres://..., ROWS=100000; BENCH_PGLITE=1 for embedded)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { DEMO_PASSWORD, DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { type DbHandle, openPglite, openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';

const ADMIN_URL = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.ROWS ?? 100_000);
const usePglite = process.env.BENCH_PGLITE === '1';
const dbName = `sw_bench_export_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'sw-bench-export-'));

const admin = (statement: string) => adminQuery(ADMIN_URL, statement);

async function main() {
  let database: DbHandle;
  if (usePglite) database = await openPglite(null);
  else {
    await admin(`create database ${dbName}`);
    database = openPostgres(databaseUrl(ADMIN_URL, dbName), 10);
  }
  try {
    await migrateToLatest(database.db);
    const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
    await sql`
      insert into audit_log (tenant_id, user_id, username, action, outcome, ip, user_agent, detail, created_at)
      select ${tenantId}, null, 'user' || (g % 500), 'login.password', case when g % 7 = 0 then 'failure' else 'success' end,
             '10.0.' || (g % 250) || '.' || (g % 200), 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
             case when g % 7 = 0 then '{"reason":"wrong_password"}'::jsonb else '{}'::jsonb end,
             now() - make_interval(secs => g)
      from generate_series(1, ${ROWS}) g`.execute(database.db);
    // PostgreSQL's autovacuum analyzes a table after such a load; PGlite has no autovacuum, and without
    // statistics the planner reads the tenant's whole log for every page (STALE_STATS=1 shows that case).
    if (process.env.STALE_STATS !== '1') await sql`analyze audit_log`.execute(database.db);

    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DEMO: 'false',
      DATA_DIR: dataDir,
      WEB_DIST: '/nonexistent',
      CAPTCHA_FIXED_ANSWER: 'BENCH',
    });
    const { app } = await buildApp({ config, database, logger: false });
    await app.ready();
    const headers: Record<string, string> = { host: 'localhost' };
    const csrf = await app.inject({ method: 'GET', url: '/api/auth/csrf/', headers });
    const cookies = new Map<string, string>();
    const keep = (res: { cookies: Array<{ name: string; value: string }> }) => {
      for (const c of res.cookies) cookies.set(c.name, c.value);
    };
    keep(csrf);
    const withCookies = () => ({
      ...headers,
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrftoken': cookies.get('csrftoken') ?? '',
    });
    const captcha = (await app.inject({ method: 'GET', url: '/api/auth/captcha/', headers: withCookies() })).json();
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: withCookies(),
      payload: { username: 'customeradmin', password: DEMO_PASSWORD, captchaId: captcha.captchaId, captcha: 'BENCH', role: 'auth' },
    });
    keep(login);
    const rowsInLog = ROWS + 1; // and the sign-in just made
    const start = await app.inject({ method: 'POST', url: '/api/exports/', headers: withCookies(), payload: { kind: 'sign-ins' } });
    if (start.statusCode !== 201) throw new Error(start.body);
    const jobId = start.json().jobId as number;

    globalThis.gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const t0 = performance.now();
    await app.jobs.drain();
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    globalThis.gc?.();
    const retained = process.memoryUsage().heapUsed - base.heapUsed;

    const list = (await app.inject({ method: 'GET', url: '/api/batch-playback-download/', headers: withCookies() })).json();
    const job = list.jobs.find((j: { jobId: number }) => j.jobId === jobId);
    const file = join(dataDir, 'blobs', 'exports', String(tenantId), String(jobId), `${job.tasks[0].tid}.csv`);
    const bytes = statSync(file).size;
    console.log(`\nExport benchmark (${usePglite ? 'PGlite' : 'PostgreSQL'}): sign-in log of ${rowsInLog} rows to CSV`);
    console.log(`  status ${job.status}, ${bytes.toLocaleString()} bytes in ${seconds.toFixed(2)} s`);
    console.log(`  ${Math.round(rowsInLog / seconds).toLocaleString()} rows/s, ${(bytes / 1024 / 1024 / seconds).toFixed(1)} MiB/s`);
    console.log(
      `  memory while exporting: peak RSS +${((peakRss - base.rss) / 1024 / 1024).toFixed(1)} MiB, peak heap +${((peakHeap - base.heapUsed) / 1024 / 1024).toFixed(1)} MiB (file ${(bytes / 1024 / 1024).toFixed(1)} MiB); heap kept after GC +${(retained / 1024 / 1024).toFixed(1)} MiB`,
    );
    await app.jobs.stop();
    await app.close();
  } finally {
    await database.close();
    if (!usePglite) await admin(`drop database if exists ${dbName} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
// The job worker's schedules are timers of this process: the figures are printed, so end it.
process.exit(0);
