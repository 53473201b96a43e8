// Prints, from the JSON reports of Vitest and Playwright: the ten slowest test files, every test that passed only on a
// retry (a defect to fix, not a pass), and one closing line for the whole run.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
/** Each test file's wall time in seconds, named by report and path. */
const files = [];
/** Tests that failed first and passed on a retry. */
const retried = [];

for (const [label, file] of [
  ['unit', 'test-results/unit.json'],
  ['unit-pg', 'test-results/unit-pg.json'],
]) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const result of report.testResults ?? []) {
    if (result.startTime && result.endTime) {
      files.push({ name: `${label} ${relative(process.cwd(), result.name)}`, seconds: (result.endTime - result.startTime) / 1000 });
    }
    for (const test of result.assertionResults ?? []) {
      if (test.status === 'passed' && (test.retryCount ?? 0) > 0) retried.push(`${label} ${test.fullName}`);
    }
  }
}

/** Playwright's suites nest; each spec's tests carry their results, one per try. */
function walk(suite, file, each) {
  for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) each(file ?? suite.file, spec, test);
  for (const child of suite.suites ?? []) walk(child, file ?? suite.file, each);
}

if (existsSync('test-results/e2e.json')) {
  const report = JSON.parse(readFileSync('test-results/e2e.json', 'utf8'));
  const stats = report.stats ?? {};
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
  const perFile = new Map();
  for (const suite of report.suites ?? []) {
    walk(suite, undefined, (file, spec, test) => {
      const ms = (test.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      perFile.set(file, (perFile.get(file) ?? 0) + ms);
      if (test.status === 'flaky') {
        const first = test.results?.find((r) => r.status !== 'passed');
        const reason = (first?.error?.message ?? '').split('\n')[0]?.slice(0, 160);
        retried.push(`e2e ${file} › ${spec.title}${reason ? ` (first try: ${reason})` : ''}`);
      }
    });
  }
  // Browser tests run two at a time: a file's time is the sum of its tests', not wall time.
  for (const [file, ms] of perFile) files.push({ name: `e2e ${file} (sum of tests)`, seconds: ms / 1000 });
}

if (files.length) {
  console.log('\nslowest test files:');
  for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10))
    console.log(`  ${f.seconds.toFixed(1).padStart(7)} s  ${f.name}`);
}
if (retried.length) {
  console.log(`\ntests that passed only on a retry (${retried.length}):`);
  for (const name of retried) console.log(`  ${name}`);
} else if (files.length) {
  console.log('\ntests that passed only on a retry: none');
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
