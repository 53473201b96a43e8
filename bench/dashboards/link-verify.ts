/**
 * Analytics link verification: the cost of checking one link token (split the random parts, read the key id,
 * decrypt the JWE, verify the signed JWT and its expiry, compare the padding). Goal ≤ 2 ms p99.
 * Prints p50/p99 (wall clock) and the CPU time per verification of a valid token, of a tampered one (refused) and of a token of a rotated (older) key, with the
 * machine's load average, since figures on a busy machine are noisy. Runs on an in-memory PGlite (the key ring
 * reads its keys once).
 * Run: node --import tsx bench/dashboards/link-verify.ts [iterations]
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createLinkKeyRing } from '../../apps/server/src/modules/dashboards/link-keys.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';

const ITERATIONS = Number(process.argv[2] ?? 5000);
const load = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * p) - 1)] ?? 0;

const database = await openDatabase({ dataDir: null });
await migrateToLatest(database.db);
const keys = createLinkKeyRing(database.db);
const claims = {
  dashboardId: 42,
  tenantId: 1,
  linkId: '6f1d2c4e-0a8b-4c1e-9d7f-2b3a4c5d6e7f',
  conditions: [
    { dataset: 'sites' as const, column: 'customerId', operator: 'in' as const, values: [3] },
    { dataset: 'tickets' as const, column: 'status', operator: 'not_in' as const, values: ['CLOSED'] },
  ],
  exp: Math.floor(Date.now() / 1000) + 86_400,
};
const old = (await keys.sign(claims)).token;
await keys.rotate();
const valid = (await keys.sign(claims)).token;
const mid = Math.floor(valid.length / 2);
const tampered = valid.slice(0, mid) + (valid[mid] === 'A' ? 'B' : 'A') + valid.slice(mid + 1);

async function measure(name: string, token: string, expectOk: boolean) {
  const times: number[] = [];
  // warm up: the JIT tiers and the heap settle before the measured runs
  for (let i = 0; i < 2000; i++) await keys.verify(token, Date.now()).catch(() => null);
  const cpu = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    let ok = true;
    try {
      await keys.verify(token, Date.now());
    } catch {
      ok = false;
    }
    times.push(performance.now() - start);
    if (ok !== expectOk) throw new Error(`${name}: unexpected ${ok ? 'success' : 'refusal'}`);
  }
  const used = process.cpuUsage(cpu);
  // CPU time per verification: what the work costs, apart from waiting for a core on a busy machine
  const cpuMs = (used.user + used.system) / 1000 / ITERATIONS;
  console.log(
    `${name.padEnd(22)} p50 ${pct(times, 0.5).toFixed(3)} ms  p99 ${pct(times, 0.99).toFixed(3)} ms  cpu ${cpuMs.toFixed(3)} ms/verify  (${ITERATIONS} runs)`,
  );
}

console.log(`link verification, token ${valid.length} characters, load average ${load()}`);
await measure('valid (active key)', valid, true);
await measure('valid (rotated key)', old, true);
await measure('tampered (refused)', tampered, false);
console.log(`load average after: ${load()}`);
await database.close();
