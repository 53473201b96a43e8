/**
 * Ingest benchmark: 10,000 connected devices publish ~100-byte JSON with 3 keys at QoS 1 to the embedded broker;
 * the product stores every message in PostgreSQL. Reports messages/s stored, p50/p99 publish-to-queryable (the PUBACK
 * is sent after commit), then runs the same publisher against the bare Mosquitto at 127.0.0.1:1883 as the ceiling
 * and prints the ratio.
 *
 *   node --import tsx bench/telemetry/ingest.ts [devices=10000] [rate=20000] [seconds=20]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { telemetryOf } from '../../apps/server/src/modules/telemetry/index.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';

const devices = Number(process.argv[2] ?? 10_000);
const rate = Number(process.argv[3] ?? 20_000);
const seconds = Number(process.argv[4] ?? 20);
const ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `sw_bench_tel_${randomBytes(4).toString('hex')}`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

function runPublisher(host: string, port: number, tokensFile: string, topicMode: 'me' | 'token') {
  return new Promise<Record<string, number | null>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/telemetry/publisher.ts', host, String(port), tokensFile, String(rate), String(seconds), topicMode],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`publisher failed (${code}): ${out}`));
      }
    });
  });
}

const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(ADMIN);
url.pathname = `/${name}`;
const database = openPostgres(url.toString(), 10);
try {
  await migrateToLatest(database.db);
  const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
  await sql`
    insert into devices (tenant_id, name, label, type, access_token)
    select ${tenantId}, 'bench-' || g, 'Bench ' || g, 'SENSOR', md5(g::text || 'sw') || '-' || g
    from generate_series(1, ${devices}) g`.execute(database.db);
  // a steady estate: the devices were online before the run (after an outage each device flips to Online once, with a
  // device.status event; that burst is not what a sustained rate measures)
  await sql`update devices set status = 'Online', last_activity_at = now() where tenant_id = ${tenantId}`.execute(database.db);
  const tokens = (
    await sql<{ t: string }>`select access_token as t from devices where tenant_id = ${tenantId} order by id`.execute(database.db)
  ).rows.map((r) => r.t);
  const tokensFile = `/tmp/${name}-tokens.txt`;
  writeFileSync(tokensFile, tokens.join('\n'));

  const mqttPort = await freePort();
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DEMO: 'false',
    DATABASE_URL: url.toString(),
    WEB_DIST: '/nonexistent',
    MQTT_PORT: String(mqttPort),
    TELEMETRY_BATCH_SIZE: process.env.BATCH ?? '5000',
    TELEMETRY_FLUSH_MS: process.env.FLUSH_MS ?? '50',
    TELEMETRY_BUFFER_CAPACITY: '200000',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const { runtime, ingest } = telemetryOf(app.server);
  await runtime.startMqtt({ port: mqttPort });
  await runtime.startBackground();

  console.log(`devices ${devices}, offered ${rate} msg/s for ${seconds} s (QoS 1, 3 keys, ~100 bytes), PostgreSQL ${name}`);
  const publisherRun = runPublisher('127.0.0.1', mqttPort, tokensFile, 'me');
  // count what the server stored during the measurement window (after the publisher's connect + 2 s warm-up)
  let windowStored = 0;
  const sampler = (async () => {
    while (runtime.broker && runtime.broker.clients().length < devices) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 2000));
    const before = ingest.stats().stored;
    const started = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    windowStored = ((ingest.stats().stored - before) * 1000) / (performance.now() - started);
  })();
  const product = await publisherRun;
  await sampler;
  const rows = Number((await sql<{ n: number }>`select count(*)::int as n from telemetry`.execute(database.db)).rows[0]?.n);
  console.log(
    'product (embedded broker + PostgreSQL):',
    JSON.stringify({ ...product, storedPerSecond: Math.round(windowStored), telemetryRows: rows, stats: ingest.stats() }),
  );
  await app.close();

  const broker = await runPublisher('127.0.0.1', 1883, tokensFile, 'token');
  console.log('bare Mosquitto 127.0.0.1:1883:', JSON.stringify(broker));
  const ratio = (broker.ackedPerSecond as number) > 0 ? windowStored / (broker.ackedPerSecond as number) : null;
  console.log(
    `\nRESULT stored ${Math.round(windowStored)} msg/s (goal >= 20000), p99 publish-to-queryable ${product.p99Ms?.toFixed(0)} ms (goal < 1000), ` +
      `Mosquitto ${broker.ackedPerSecond} msg/s, p99 ${broker.p99Ms?.toFixed(0)} ms, ratio product/broker ${ratio?.toFixed(2)}`,
  );
  process.exitCode = 0;
} finally {
  await database.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(0);
