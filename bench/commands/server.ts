/**
 * The product for the command benches: a fresh database (PGlite, or a database of its own on the PostgreSQL of
 * BENCH_PG, dropped at the end), the first demo tenant, HTTP on a free port, the job worker and the embedded broker.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { type DbHandle, openPglite, openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { adminQuery } from '../../apps/server/test/support/pg-admin.ts';

export const BENCH_CAPTCHA = 'BENCH';

export async function withCommandsServer<T>(
  name: string,
  run: (server: Awaited<ReturnType<typeof start>>) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const adminUrl = process.env.BENCH_PG;
  const dataDir = mkdtempSync(join(tmpdir(), `sw-bench-${name}-`));
  const dbName = `sw_bench_${name}_${randomBytes(4).toString('hex')}`;
  let database: DbHandle;
  if (!adminUrl) database = await openPglite(null);
  else {
    await adminQuery(adminUrl, `create database ${dbName}`);
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    database = openPostgres(u.toString(), 10);
  }
  try {
    return await run(await start(database, dataDir, env));
  } finally {
    await database.close();
    if (adminUrl) await adminQuery(adminUrl, `drop database if exists ${dbName}`).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function start(database: DbHandle, dataDir: string, env: Record<string, string>) {
  await migrateToLatest(database.db);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DEMO: 'false',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    CAPTCHA_FIXED_ANSWER: BENCH_CAPTCHA,
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    ...env,
  });
  const { app, handles } = await buildApp({ config, database, logger: false });
  await app.ready();
  const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  (app as unknown as { jobs: { start(): void } }).jobs.start();
  await handles.telemetry.runtime.startMqtt({ port: 0 });
  return {
    app,
    handles,
    database,
    tenantId,
    port,
    base: `http://localhost:${port}`,
    mqttPort: handles.telemetry.runtime.mqttPort as number,
    databaseKind: process.env.BENCH_PG ? 'PostgreSQL' : 'PGlite',
  };
}
