// The web client's request and response types come from the server's OpenAPI document (SPEC routes with their
// contracts schemas). `--write` regenerates packages/contracts/openapi.json and src/api-paths.ts; `--check`
// regenerates into a temporary folder and fails when the committed files differ (npm run check:api-drift).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite } from '../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../apps/server/src/platform/migrate.ts';

const CONTRACTS = 'packages/contracts';
const FILES = { document: `${CONTRACTS}/openapi.json`, types: `${CONTRACTS}/src/api-paths.ts` };

async function openApiDocument(): Promise<string> {
  // a data folder starts from the migrated template when npm install made it: no migration to run
  const folder = mkdtempSync(join(tmpdir(), 'sw-api-db-'));
  const database = await openPglite(folder);
  await migrateToLatest(database.db);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: 'false', WEB_DIST: '/nonexistent' });
  const { app } = await buildApp({ config, database, logger: false });
  await app.ready();
  const document = app.swagger();
  await app.close();
  await database.close();
  rmSync(folder, { recursive: true, force: true });
  return `${JSON.stringify(document, null, 2)}\n`;
}

function generateTypes(documentPath: string, typesPath: string) {
  const result = spawnSync('npm', ['exec', '-w', CONTRACTS, '--', 'openapi-typescript', documentPath, '-o', typesPath, '--root-types'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error('openapi-typescript failed');
}

const mode = process.argv[2];
if (mode !== '--write' && mode !== '--check') {
  console.error('usage: api-types.ts --write | --check');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'sw-api-'));
const fresh = { document: join(dir, 'openapi.json'), types: join(dir, 'api-paths.ts') };
try {
  writeFileSync(fresh.document, await openApiDocument());
  generateTypes(fresh.document, fresh.types);
  const stale = (Object.keys(FILES) as Array<keyof typeof FILES>).filter((key) => {
    let committed = '';
    try {
      committed = readFileSync(FILES[key], 'utf8');
    } catch {}
    return committed !== readFileSync(fresh[key], 'utf8');
  });
  if (mode === '--write') {
    for (const key of stale) writeFileSync(FILES[key], readFileSync(fresh[key]));
    console.log(stale.length ? `updated ${stale.map((key) => FILES[key]).join(', ')}` : 'API types up to date');
  } else if (stale.length) {
    console.error(`API drift: ${stale.map((key) => FILES[key]).join(', ')} differ from the server's routes; run npm run api:generate`);
    process.exitCode = 1;
  } else console.log('API types match the server routes');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
// Background timers of the built app (job worker, push fan-out) would keep the process alive.
process.exit();
