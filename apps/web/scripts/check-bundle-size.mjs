// Bundle budget of the login page: the JavaScript that /auth/login loads, brotli-compressed as the server sends it,
// must stay under 150 KB (e2e/wire.spec.ts measures the whole page over HTTP in a browser).
// Reads the manifest of the app's build (dist/.vite/manifest.json, rebuilt first when older than the sources, as
// `npm start` does), follows the static imports of the entry and of the login page chunk, and fails (exit 1) when the
// sum is over budget. Usage: npm run size -w apps/web
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(webRoot, '../..');
const LOGIN_MODULE = 'src/features/auth/LoginPage.tsx';
const outDir = join(webRoot, 'dist');
const manifestFile = join(outDir, '.vite/manifest.json');

const ensure = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: repoRoot, stdio: 'inherit' });
if (ensure.status !== 0) process.exit(ensure.status ?? 1);
// a build made before the manifest was part of it
if (!existsSync(manifestFile)) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: webRoot, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

{
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  const files = new Set();
  const collect = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const next of chunk.imports ?? []) collect(next);
  };
  collect('index.html');
  if (!manifest[LOGIN_MODULE]) throw new Error(`${LOGIN_MODULE} is not a chunk of the build`);
  collect(LOGIN_MODULE);

  let total = 0;
  const rows = [];
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    const size = brotliCompressSync(await readFile(join(outDir, file))).length;
    total += size;
    rows.push([size, file]);
  }
  rows.sort((a, b) => b[0] - a[0]);
  for (const [size, file] of rows) console.log(`${(size / 1024).toFixed(2).padStart(8)} KB  ${file}`);
  const verdict = total <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `/auth/login loads ${(total / 1024).toFixed(2)} KB of brotli-compressed JavaScript (${verdict} the ${BUDGET_BYTES / 1024} KB budget)`,
  );
  if (total > BUDGET_BYTES) process.exitCode = 1;
}
