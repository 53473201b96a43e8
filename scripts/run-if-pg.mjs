// Runs the given command only when TEST_DATABASE_URL names a PostgreSQL server (the server tests then run there).
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL not set: PostgreSQL run skipped (PGlite run above covers the same tests)');
  process.exit(0);
}
const [command, ...args] = process.argv.slice(2);
const result = spawnSync(command, args, { stdio: 'inherit', shell: false });
process.exit(result.status ?? 1);
