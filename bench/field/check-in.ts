/**
 * Geofenced check-in over HTTP (goal: p95 <= 100 ms): the app on a fresh database with 2,000 sites, 200 field
 * executives with 10 sites each and open tickets assigned to some of them; 20 signed-in phones check in (one in ten
 * outside the fence, refused) and out, 8 at a time. Prints p50/p95/p99 of the check-in and the machine's load.
 * Run: node --import tsx bench/field/check-in.ts                   (embedded PGlite)
 *      BENCH_PG=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/field/check-in.ts   (PostgreSQL)
 *      CHECKINS=400 CONCURRENCY=2 PORT=8196 to change the volume, the requests in flight or the port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { type DbHandle, openPglite, openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';
import { signIn } from '../support/sign-in.ts';

const PORT = Number(process.env.PORT ?? 8196);
const BASE = `http://localhost:${PORT}`;
const CAPTCHA = 'BENCH';
const SITES = 2_000;
const USERS = 200;
const SITES_PER_USER = 10;
const PHONES = 20;
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const CHECKINS = Number(process.env.CHECKINS ?? 600);

const dataDir = mkdtempSync(join(tmpdir(), 'sw-bench-field-'));
const adminUrl = process.env.BENCH_PG;
const benchDb = `sw_bench_field_${process.pid}`;
const admin = (statement: string) => adminQuery(adminUrl as string, statement);
let database: DbHandle;
if (adminUrl) {
  await admin(`create database ${benchDb}`);
  database = openPostgres(databaseUrl(adminUrl, benchDb), 10);
} else database = await openPglite(join(dataDir, 'db'));
await migrateToLatest(database.db);
const db = database.db;
const tenantId = await seedFoundation(db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);

// The estate: sites spread over a few cities, field executives with their sites, tickets assigned to half of them.
const t0 = performance.now();
const sites: Array<{ id: number; lat: number; lng: number }> = [];
for (let i = 0; i < SITES; i += 500) {
  const rows = Array.from({ length: Math.min(500, SITES - i) }, (_v, k) => ({
    tenant_id: tenantId,
    name: `Bench site ${i + k + 1}`,
    address: ['India', 'Karnataka', `City ${(i + k) % 20}`],
    latitude: 12 + ((i + k) % 97) * 0.05,
    longitude: 77 + ((i + k) % 89) * 0.05,
    metadata: JSON.stringify({}),
  }));
  const inserted = await db.insertInto('assets').values(rows).returning(['id', 'latitude', 'longitude']).execute();
  for (const r of inserted) sites.push({ id: r.id, lat: r.latitude as number, lng: r.longitude as number });
}
const template = await db
  .selectFrom('users')
  .select(['password_hash', 'group_ids'])
  .where('tenant_id', '=', tenantId)
  .where('username', '=', 'fieldexecutive')
  .executeTakeFirstOrThrow();
const users = await db
  .insertInto('users')
  .values(
    Array.from({ length: USERS }, (_v, i) => ({
      tenant_id: tenantId,
      username: `field${i + 1}`,
      email: `field${i + 1}@bench.example.com`,
      firstname: 'Field',
      lastname: `Executive ${i + 1}`,
      mobile: `98${String(10_000_000 + i)}`,
      password_hash: template.password_hash,
      roles: ['fieldexecutive'],
      group_ids: template.group_ids,
      profile: JSON.stringify({}),
      notification_config: JSON.stringify({}),
    })),
  )
  .returning(['id', 'username'])
  .execute();
const mySites = new Map<number, typeof sites>();
for (const [u, user] of users.entries()) {
  const own = Array.from({ length: SITES_PER_USER }, (_v, k) => sites[(u * SITES_PER_USER + k) % sites.length] as (typeof sites)[number]);
  mySites.set(user.id, own);
  await db
    .insertInto('user_assets')
    .values(own.map((s) => ({ tenant_id: tenantId, user_id: user.id, asset_id: s.id })))
    .execute();
}
console.log(`estate: ${SITES} sites, ${USERS} field executives in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const config = loadConfig({
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  DEMO: 'false',
  DATA_DIR: dataDir,
  CAPTCHA_FIXED_ANSWER: CAPTCHA,
  LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
  WEB_DIST: '/nonexistent',
  METRICS: 'false',
  PORT: String(PORT),
});
const { app } = await buildApp({ config, database, logger: false });
await app.listen({ port: PORT, host: '127.0.0.1' });
app.jobs.start();

// Tickets assigned to half of the phones at their first site: the first check-in there moves one to INPROGRESS.
const adminSession = await signIn(BASE, CAPTCHA, 'customeradmin');
const post = (session: { cookie: string; access: string }, path: string, body: unknown) =>
  fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: session.cookie,
      authorization: `Bearer ${session.access}`,
      'x-csrftoken': /csrftoken=([^;]+)/.exec(session.cookie)?.[1] ?? '',
    },
    body: JSON.stringify(body),
  });
console.log('app listening; signing in the phones');
const phones = [];
for (const user of users.slice(0, PHONES)) {
  const session = await signIn(BASE, CAPTCHA, user.username);
  phones.push({ user, session, sites: mySites.get(user.id) as typeof sites });
}
for (const phone of phones.slice(0, PHONES / 2)) {
  for (let k = 0; k < 3; k++) {
    const res = await post(adminSession, '/helpdesk/tickets/', {
      title: `Bench visit ${k}`,
      event: 'Power Failure',
      locationId: phone.sites[0]?.id,
      assignedTo: phone.user.id,
    });
    if (res.status !== 201) throw new Error(`ticket: ${res.status} ${await res.text()}`);
  }
}

console.log('phones signed in, tickets raised; checking in');
const times: number[] = [];
const outcomes = { accepted: 0, refused: 0, other: 0 };
let next = 0;
/** Each worker drives its own phones, so one user never has two requests in flight. */
async function worker(index: number) {
  const own = phones.filter((_p, k) => k % CONCURRENCY === index);
  for (let round = 0; ; round++) {
    const n = next++;
    if (n >= CHECKINS) return;
    const phone = own[round % own.length] as (typeof phones)[number];
    const site = phone.sites[n % phone.sites.length] as (typeof sites)[number];
    const outside = n % 10 === 9;
    const s = performance.now();
    const res = await post(phone.session, '/api/attendance/check-in/', {
      assetId: site.id,
      latitude: site.lat + (outside ? 0.01 : 0.0005),
      longitude: site.lng,
      accuracy: 15,
    });
    await res.arrayBuffer();
    times.push(performance.now() - s);
    if (res.status === 201) {
      outcomes.accepted++;
      await (await post(phone.session, '/api/attendance/check-out/', {})).arrayBuffer();
    } else if (res.status === 400) outcomes.refused++;
    else outcomes.other++;
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, (_v, i) => worker(i)));
const seconds = (performance.now() - started) / 1000;

const sorted = [...times].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? 0;
const [l1, l5, l15] = loadavg();
console.log(
  `check-ins: ${times.length} over ${seconds.toFixed(1)} s (${CONCURRENCY} at a time, ${PHONES} phones; ${outcomes.accepted} accepted, ${outcomes.refused} refused outside the fence, ${outcomes.other} other)`,
);
console.log(
  `check-in latency: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms (goal p95 <= 100 ms)`,
);
console.log(
  `load average: ${l1?.toFixed(2)} / ${l5?.toFixed(2)} / ${l15?.toFixed(2)} (1/5/15 min) on ${adminUrl ? 'PostgreSQL' : 'PGlite'}`,
);
const moved = await sql<{
  n: number;
}>`select count(*)::int as n from tickets where tenant_id = ${tenantId} and status = 'INPROGRESS'`.execute(db);
console.log(`tickets moved to INPROGRESS by check-ins: ${moved.rows[0]?.n ?? 0}`);

await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
if (adminUrl) await admin(`drop database if exists ${benchDb} with (force)`);
