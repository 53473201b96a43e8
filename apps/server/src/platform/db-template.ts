import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A new embedded database starts from a template: an empty database with every migration applied, dumped once by
 * `npm install` (`db/make-template.ts`) into apps/server/.cache. Making one from nothing (initdb in WebAssembly, then
 * the migrations) takes some 4 s; copying the template's folder takes a tenth of a second. The template holds schema only: migrations create no
 * secret (install secrets are made at run time), so installs made from one template share nothing but their schema.
 * Its name carries a hash of the migrations and of the PGlite version, so a changed migration never starts from a
 * stale template.
 */
const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations/', import.meta.url));
const TEMPLATE_DIR = fileURLToPath(new URL('../../.cache/', import.meta.url));
// resolved through require: the test runner's module loader, which also loads this file, has no import.meta.resolve
const PGLITE_PACKAGE = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json');

function templateKey(): string {
  const hash = createHash('sha256').update(readFileSync(PGLITE_PACKAGE));
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) {
    if (!/^\d{4}_.+\.ts$/.test(file) || file.endsWith('.test.ts')) continue;
    hash.update(file).update(readFileSync(join(MIGRATIONS_DIR, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** A data folder of its own: the database is its `db` folder, as in any data folder. */
export const templateDir = () => join(TEMPLATE_DIR, `pglite-${templateKey()}`);

/** Copies the template for the current migrations into a new database folder; false when there is none. */
export function copyTemplate(dbDir: string): boolean {
  const template = join(templateDir(), 'db');
  if (!existsSync(join(template, 'PG_VERSION'))) return false;
  cpSync(template, dbDir, { recursive: true });
  return true;
}

/** Makes a template in a folder of its own, then puts it in place and removes the ones of earlier migrations. */
export async function writeTemplate(make: (dir: string) => Promise<void>) {
  const dir = templateDir();
  rmSync(`${dir}.part`, { recursive: true, force: true });
  await make(`${dir}.part`);
  renameSync(`${dir}.part`, dir);
  for (const old of readdirSync(TEMPLATE_DIR)) {
    if (old.startsWith('pglite-') && join(TEMPLATE_DIR, old) !== dir) rmSync(join(TEMPLATE_DIR, old), { recursive: true, force: true });
  }
  return dir;
}
