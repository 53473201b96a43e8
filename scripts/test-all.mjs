// `npm test`: the two Vitest passes (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) run side by side, since
// each of them leaves the cores idle while it waits on timers, sockets and the database; the browser tests then run
// without them, because they time what the pages receive and must not share the cores with the rest. The browser
// tests' server is started as soon as the first Vitest pass ends: it seeds its demo while the other pass finishes,
// and the tests themselves wait for it (E2E_START_AFTER, e2e/start-gate.ts). The static checks (lint, types, API
// drift, bundle size) run beside the browser tests at the lowest CPU priority: they time nothing, and take only what
// the browser tests leave idle (about a third of two cores), where beside the Vitest passes, which keep both cores
// busy, they would lengthen the run by what they cost.
// Every step runs even when an earlier one failed, so that one run reports every failure; the exit status is 1 if any
// step failed. A background step's output is kept and printed whole when it ends, the browser tests' as it comes.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Every process of the run maps the memory glibc gives it in huge pages where the kernel allows it (transparent huge
// pages "madvise", as on these machines): a test process touches hundreds of megabytes of fresh memory, and on a virtual
// machine each 4 KB page costs a fault of about 10 µs. Measured on six database test files: 18 % less CPU.
process.env.GLIBC_TUNABLES = [process.env.GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1'].filter(Boolean).join(':');

const LOGS = 'test-results/logs';
mkdirSync(LOGS, { recursive: true });
const withPg = Boolean(process.env.TEST_DATABASE_URL);

/** `npm run <script>` (in `workspace` when given) as one step of a lane. */
const npm = (script, workspace) => ({
  name: script,
  command: 'npm',
  args: ['run', '--silent', script, ...(workspace ? ['-w', workspace] : [])],
});
/** The same step at the lowest CPU priority (nice 19: it runs when no other process wants the core). */
const idle = (step) => ({ ...step, command: 'nice', args: ['-n', '19', step.command, ...step.args] });

/** Runs beside the browser tests, at the lowest priority; its steps run one after another. */
const checks = {
  name: 'checks',
  steps: [npm('lint'), npm('check:boundaries'), npm('typecheck'), npm('check:api-drift'), npm('size', 'apps/web')].map(idle),
};
/** Lanes that run at the same time, before the browser tests. */
const sideBySide = [
  { name: 'vitest (PGlite)', steps: [npm('test:unit')] },
  ...(withPg ? [{ name: 'vitest (PostgreSQL)', steps: [npm('test:unit:pg')] }] : []),
];

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const failed = [];

function run(step, output, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { stdio: ['ignore', output, output], env });
    child.on('error', (error) => resolve({ code: 1, error }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0) }));
  });
}

async function runLane(lane) {
  const started = Date.now();
  const file = join(LOGS, `${lane.name.replace(/\W+/g, '-').replace(/-$/, '')}.log`);
  const output = openSync(file, 'w');
  const lines = [];
  for (const step of lane.steps) {
    const t0 = Date.now();
    const { code } = await run(step, output);
    lines.push(`  ${step.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds(t0)}`);
    if (code !== 0) failed.push(`${lane.name}: ${step.name}`);
  }
  process.stdout.write(`\n===== ${lane.name} (${seconds(started)}) =====\n${readFileSync(file, 'utf8')}${lines.join('\n')}\n`);
}

const started = Date.now();
console.log(`running side by side: ${sideBySide.map((lane) => lane.name).join(', ')} (output below as each ends)`);
const lanes = sideBySide.map(runLane);

const gate = join(LOGS, 'vitest-done');
rmSync(gate, { force: true });
await Promise.race(lanes);
const serverStarted = Date.now();
const e2eDone = run(npm('test:e2e'), 'inherit', { ...process.env, E2E_START_AFTER: gate });
await Promise.all(lanes);
writeFileSync(gate, '');

console.log(
  `\n===== browser tests (started at ${seconds(started)}, their server ${seconds(serverStarted)} earlier; ${checks.name} beside them, printed when they end) =====`,
);
const checksDone = runLane(checks);
const t0 = Date.now();
const e2e = await e2eDone;
if (e2e.code !== 0) failed.push('browser tests');
console.log(`browser tests: ${e2e.code === 0 ? 'passed' : 'FAILED'} in ${seconds(t0)}`);
await checksDone;

console.log(`\nnpm test: ${failed.length ? `FAILED (${failed.join('; ')})` : 'passed'} in ${seconds(started)}`);
process.exit(failed.length ? 1 : 0);
