import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureTemplate } from '../../src/db/make-template.ts';
import { openPglite, openPostgres } from '../../src/platform/db.ts';
import { templateDir } from '../../src/platform/db-template.ts';
import { migrateToLatest } from '../../src/platform/migrate.ts';
import { adminQuery, databaseUrl } from './pg-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** What `freshDatabase` starts from: a dump of the migrated embedded database, or a migrated PostgreSQL database. */
    databaseTemplate: { kind: 'pglite'; dump: string } | { kind: 'pg'; name: string };
  }
}

/**
 * Migrates one database for the whole run, so that each test file's fresh database is a copy of it instead of a new
 * cluster with every migration applied (about 4 s each on the embedded database).
 */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    project.provide('databaseTemplate', { kind: 'pglite', dump: await pgliteDump() });
    return;
  }
  const name = `sw_tpl_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const handle = openPostgres(databaseUrl(adminUrl, name), 1);
  await migrateToLatest(handle.db);
  await handle.close();
  project.provide('databaseTemplate', { kind: 'pg', name });
  return () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}

/** The embedded template dumped as one archive beside it (made once per set of migrations, like the template). */
async function pgliteDump(): Promise<string> {
  await ensureTemplate();
  const dump = `${templateDir()}.tar`;
  if (existsSync(dump)) return dump;
  const scratch = mkdtempSync(join(tmpdir(), 'sitewatch-template-'));
  try {
    const handle = await openPglite(scratch);
    if (!handle.pglite) throw new Error('an embedded database was expected');
    const archive = await handle.pglite.dumpDataDir('none');
    await handle.close();
    const part = `${dump}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await archive.arrayBuffer()));
    renameSync(part, dump);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return dump;
}
