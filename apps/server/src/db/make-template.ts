/**
 * Makes the embedded database's template (platform/db-template.ts): a new database with every migration applied,
 * in apps/server/.cache. Run by `npm install` (`npm run db:template`); the first start on a new data folder copies
 * it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openPglite } from '../platform/db.ts';
import { templateDir, writeTemplate } from '../platform/db-template.ts';
import { migrateToLatest } from '../platform/migrate.ts';

/** The template of the current migrations, made when it is missing; its folder. */
export async function ensureTemplate(): Promise<string> {
  if (existsSync(join(templateDir(), 'db', 'PG_VERSION'))) return templateDir();
  return writeTemplate(async (into) => {
    const database = await openPglite(into);
    await migrateToLatest(database.db);
    await database.close();
  });
}

if (import.meta.main) console.log(`database template: ${await ensureTemplate()}`);
