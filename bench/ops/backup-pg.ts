/**
 * Backup, verify and restore of PostgreSQL with 1,000,000 tickets: a scratch database on 127.0.0.1:5432 is migrated,
 * given one tenant and TICKETS tickets made by generate_series, backed up (pg_dump of an exported snapshot), verified,
 * and restored into a second scratch database; both are dropped at the end. Prints times, sizes and the load average.
 * Run: node --import tsx bench/ops/backup-pg.ts   (TICKETS=1000000 by default; PG_ADMIN_URL to use another server)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createBackup } from '../../apps/server/src/platform/backup/create-backup.ts';
import { verifyBackup } from '../../apps/server/src/platform/backup/manifest.ts';
import { restoreBackup } from '../../apps/server/src/platform/backup/restore-backup.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TICKETS = Number(process.env.TICKETS ?? 1_000_000);
const suffix = randomBytes(5).toString('hex');
const SOURCE = `sw_bench_backup_${suffix}`;
const TARGET = `sw_bench_restore_${suffix}`;

const urlOf = (name: string) => Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
async function admin(statement: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

const root = mkdtempSync(join(tmpdir(), 'sw-bench-backup-'));
await admin(`create database ${SOURCE}`);
await admin(`create database ${TARGET}`);
try {
  const source = openPostgres(urlOf(SOURCE), 2);
  await migrateToLatest(source.db);
  const client = new pg.Client({ connectionString: urlOf(SOURCE) });
  await client.connect();
  const { rows } = await client.query<{ id: number }>(`insert into tenants (slug, name) values ('bench', 'Bench') returning id`);
  const tenant = rows[0]?.id;
  let started = performance.now();
  await client.query(
    `insert into tickets (tenant_id, ticket_no, type, status, priority, event, title, description, event_date)
     select $1, 'T' || lpad(g::text, 8, '0'), 'TICKET', (array['OPEN','INPROGRESS','RESOLVED','CLOSED'])[1 + g % 4],
            (array['LOW','MEDIUM','HIGH'])[1 + g % 3], 'Generator fault', 'Ticket ' || g, repeat('Fuel level low at site. ', 1 + g % 5),
            now() - (g || ' minutes')::interval
     from generate_series(1, $2) g`,
    [tenant, TICKETS],
  );
  await client.query('vacuum analyze tickets');
  const { rows: size } = await client.query<{ bytes: string }>('select pg_database_size(current_database()) as bytes');
  console.log(`generated ${TICKETS.toLocaleString()} tickets in ${seconds(started)} s; database ${mib(Number(size[0]?.bytes))} MiB`);
  await client.end();
  await source.close();

  started = performance.now();
  const made = await createBackup({
    source: { kind: 'pg', url: urlOf(SOURCE) },
    dataDir: join(root, 'data'),
    outRoot: join(root, 'out'),
    withRecordings: false,
    reason: 'manual',
  });
  console.log(`backup:  ${seconds(started)} s, ${mib(made.manifest.totalBytes)} MiB (${made.path})`);
  started = performance.now();
  await verifyBackup(made.path);
  console.log(`verify:  ${seconds(started)} s`);
  started = performance.now();
  await restoreBackup({ backupDir: made.path, dataDir: join(root, 'restored'), databaseUrl: urlOf(TARGET) });
  console.log(`restore: ${seconds(started)} s`);
  const check = new pg.Client({ connectionString: urlOf(TARGET) });
  await check.connect();
  const { rows: count } = await check.query<{ n: string }>('select count(*) as n from tickets');
  await check.end();
  console.log(
    `restored tickets: ${Number(count[0]?.n).toLocaleString()}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await admin(`drop database if exists ${SOURCE} with (force)`);
  await admin(`drop database if exists ${TARGET} with (force)`);
  rmSync(root, { recursive: true, force: true });
}
