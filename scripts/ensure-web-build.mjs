// Builds the web app when its build is missing or older than its sources, so `npm start` always serves the current UI.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const built = 'apps/web/dist/index.html';
const newest = (dir) => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
};
const sources = ['apps/web/src', 'apps/web/public', 'packages/contracts/src'].filter(existsSync);
const stale = !existsSync(built) || sources.some((dir) => newest(dir) > statSync(built).mtimeMs);
if (stale) {
  console.log('building the web app...');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
