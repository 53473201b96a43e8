import { performance } from 'node:perf_hooks';
import { ROLES } from '@sitewatch/contracts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { DEMO_PASSWORD, DEMO_TENANTS } from './demo/foundation.ts';
import { type Exclusive, seedDemo, seedDemoTenants } from './demo/index.ts';
import { startSimulator } from './demo/simulator/index.ts';
import { startTrapSimulator } from './demo/simulator/traps.ts';
import { withAdvisoryLock } from './platform/advisory-lock.ts';
import { backupBeforeMigrating } from './platform/backup/before-migrate.ts';
import { startControlSocket } from './platform/backup/control-socket.ts';
import { openDatabase } from './platform/db.ts';
import { createDatabaseUpkeep } from './platform/db-upkeep.ts';
import { createIdleMemoryTrim } from './platform/idle-memory.ts';
import { DatabaseTooNewError, MigrationFailedError, migrateToLatest } from './platform/migrate.ts';

const started = performance.now();
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await upgradeDatabase();
/**
 * Brings the database to this build's migrations: refuses a newer database, backs up one that holds data first, and
 * says which migration failed and why (none stays applied). Any of these stops the start.
 */
async function upgradeDatabase() {
  let backup: string | null = null;
  const backupFirst = async () => {
    backup = await backupBeforeMigrating(database, {
      dataDir: config.dataDir,
      backupDir: config.backup.dir,
      enabled: config.backup.beforeMigrate,
    });
    if (backup) console.log(`  A backup of the database was made before upgrading it: ${backup}`);
  };
  try {
    // PostgreSQL: under the migration lock, so that of several processes starting together only the one that migrates
    // backs up. The embedded database has one process, whose session the lock holds: before it.
    if (database.kind === 'pglite') await backupFirst();
    await migrateToLatest(database.db, { beforeApplying: database.kind === 'pg' ? backupFirst : undefined });
  } catch (error) {
    const known = error instanceof DatabaseTooNewError || error instanceof MigrationFailedError;
    console.error(
      `\n  Sitewatch cannot start: ${known ? (error as Error).message : `the database could not be upgraded: ${(error as Error).message}`}`,
    );
    if (backup) console.error(`  The backup made before the upgrade is in ${backup}`);
    console.error('');
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

const { app, handles } = await buildApp({ config, database });
let closing = false;
const DEMO_SEED_LOCK = 727275;
// Processes of a split deployment start together on one PostgreSQL: they seed one piece at a time.
const seedAlone: Exclusive | undefined = database.pglite ? undefined : (fn) => withAdvisoryLock(database.db, DEMO_SEED_LOCK, fn);

/** Seeds what is missing of the demo estate, logging each part; a failure is logged, never fatal. */
async function seedDemoInBackground() {
  const started = performance.now();
  try {
    await seedDemo(database.db, config.demo.seed, app.log, config.dataDir, seedAlone);
    app.log.info(`demo data ready (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    app.log.error({ err: error }, 'demo data could not be seeded');
  }
}

// The demo tenants and their accounts exist before the first request; the rest of the demo estate is seeded while
// the server already answers (DEMO_SEEDING=before-listen waits for all of it).
if (config.demo.enabled) await seedDemoTenants(database.db, app.log, seedAlone);
const seeding = config.demo.enabled ? seedDemoInBackground() : Promise.resolve();
if (config.demo.seeding === 'before-listen') await seeding;
// ROLE=recorder runs only the camera recorder: no HTTP, no job worker.
if (config.role !== 'recorder') await app.listen({ host: config.host, port: config.port });
if (config.role === 'all' || config.role === 'worker') app.jobs.start();
// `npm run backup` asks this process for a backup of the embedded database, which no other process may open.
const control =
  database.kind === 'pglite'
    ? await startControlSocket(config.dataDir, async (request) => {
        const made = await handles.backups.runner.run({ ...request, reason: 'manual' });
        return { ok: true, result: { path: made.path, bytes: made.manifest.totalBytes, durationMs: made.durationMs } };
      })
    : null;
// Planner statistics from the first minute (the demo's rows included); embedded, dead rows too (db-upkeep.ts).
const upkeep = createDatabaseUpkeep(database, app.log);
if (config.role === 'all' || config.role === 'worker') void seeding.then(() => (closing ? undefined : upkeep.start()));
const memoryTrim = createIdleMemoryTrim(app.log);
if (config.memoryTrim) memoryTrim.start();
let trapSimulator: Awaited<ReturnType<typeof startTrapSimulator>> | null = null;
// The SNMP trap receiver and forwarder run beside the job worker (the inform retries ride on its queue).
if ((config.role === 'all' || config.role === 'worker') && config.snmp.receiver) {
  try {
    const trapPort = await handles.snmp.receiver.start();
    app.log.info(`SNMP trap receiver on udp:${config.snmp.host}:${trapPort}`);
    if (config.demo.enabled && config.simulator.enabled) {
      void seeding.then(async () => {
        if (closing) return;
        trapSimulator = await startTrapSimulator({
          db: database.db,
          tenantSlug: config.tenancy.defaultTenant,
          port: trapPort,
          intervalSeconds: Math.max(20, config.simulator.intervalSeconds),
          log: app.log,
        });
      });
    }
  } catch (error) {
    app.log.error({ err: error }, `SNMP trap receiver could not bind udp:${config.snmp.host}:${config.snmp.port} (set SNMP_TRAP_PORT)`);
  }
}
// The recorder and the simulator start once the demo cameras and devices exist; both are stopped by app.close().
const recorderStarted =
  config.role === 'all' || config.role === 'recorder'
    ? seeding.then(() => (closing ? undefined : handles.video.recorder.start()))
    : Promise.resolve();
// Device ingest: the embedded MQTT broker (or the consumer of MQTT_URL) and the status/alarm timers; stopped by app.close().
const telemetry = handles.telemetry;
let simulator: Awaited<ReturnType<typeof startSimulator>> | null = null;
if (config.role === 'all' || config.role === 'ingest') {
  try {
    await telemetry.runtime.startMqtt();
  } catch (error) {
    console.error(`\n  ${(error as Error).message}\n`);
    await app.close();
    await database.close();
    process.exit(1);
  }
  await telemetry.runtime.startBackground();
  const mqttPort = telemetry.runtime.mqttPort;
  if (config.demo.enabled && config.simulator.enabled && mqttPort !== null) {
    const starting = seeding.then(async () => {
      if (closing) return;
      simulator = await startSimulator({
        db: database.db,
        tenantSlug: config.tenancy.defaultTenant,
        mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
        intervalSeconds: config.simulator.intervalSeconds,
        seed: config.demo.seed,
        log: app.log,
      });
      app.log.info(`demo simulator driving ${simulator.devices} devices`);
    });
    if (config.demo.seeding === 'before-listen') await starting;
  }
}

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const url = config.publicUrl ?? `http://localhost:${port}`;
const lines = [
  '',
  `  Sitewatch is ready at ${url}  (${Math.round(performance.now() - started)} ms, database: ${database.kind})`,
  `  API docs: ${url}/api/docs`,
  ...(telemetry.runtime.mqttPort !== null
    ? [
        `  MQTT (embedded broker): mqtt://localhost:${telemetry.runtime.mqttPort}  (device token as username, topic v1/devices/me/telemetry)`,
      ]
    : config.mqtt.url
      ? [`  MQTT: consuming from ${config.mqtt.url} (shared subscription $share/${config.mqtt.shareGroup}/v1/devices/+/telemetry)`]
      : []),
];
if (config.demo.enabled) {
  lines.push(
    `  Demo tenants: ${DEMO_TENANTS.map((t) => `${t.slug === config.tenancy.defaultTenant ? url : url.replace('//localhost', `//${t.slug}.localhost`)} (${t.name})`).join(', ')}`,
    `  Demo accounts (password ${DEMO_PASSWORD}): ${ROLES.join(', ')}`,
    `  Sign in at ${url}/auth/login/ or ${url}/{role}/login/`,
    ...(config.demo.seeding === 'background'
      ? ['  Demo sites, devices, cameras and tickets fill in over the next seconds (see the log).']
      : []),
  );
}
console.log(`${lines.join('\n')}\n`);

async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.shuttingDown = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await recorderStarted.catch(() => undefined);
    await simulator?.stop();
    trapSimulator?.stop();
    await app.jobs.stop();
    control?.close();
    await upkeep.stop();
    memoryTrim.stop();
    await app.close();
    await database.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
