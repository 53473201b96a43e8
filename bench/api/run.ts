/**
 * API throughput against bare Node, in one run: the same autocannon load (100 connections, 10 s, median of 3)
 * on a bare `http` server answering 200 bytes of JSON, then on the product's hot reads. Prints req/s, p99 and
 * the ratio to bare Node for each.
 * Run: node --import tsx bench/api/run.ts                       (embedded PGlite, demo and simulators running)
 *      BENCH_PG=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/api/run.ts   (PostgreSQL)
 *      RUNS=1 DURATION=5 for a quick look; DEMO_SIMULATOR=false to measure without the living demo.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';
import { signIn } from '../support/sign-in.ts';

const PORT = 8196;
const BARE_PORT = 8197;
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = '/tmp/sitewatch-bench-api';
const CAPTCHA = 'BENCH';
const RUNS = Number(process.env.RUNS ?? 3);
/** What Chromium sends with every fetch. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const DURATION = Number(process.env.DURATION ?? 10);

interface Figure {
  rps: number;
  p99: number;
  /** The slowest answer: a connection accepted late shows here first. */
  max: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Figure> {
  const runs: Figure[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await autocannon({ url, connections: 100, duration: DURATION, headers });
    runs.push({ rps: r.requests.average, p99: r.latency.p99, max: r.latency.max, errors: r.errors + r.timeouts + r.non2xx });
  }
  runs.sort((a, b) => a.rps - b.rps);
  return runs[Math.floor(runs.length / 2)] as Figure;
}

async function waitFor(url: string) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(child: ChildProcess, group: boolean) {
  const exited = new Promise((r) => child.once('exit', r));
  if (group && child.pid) process.kill(-child.pid, 'SIGTERM');
  else child.kill('SIGTERM');
  await exited;
}

const bare = fork(new URL('./bare.ts', import.meta.url), {
  env: { ...process.env, PORT: String(BARE_PORT) },
  execArgv: ['--import', 'tsx'],
});
await new Promise((r) => bare.once('message', r));

rmSync(DATA_DIR, { recursive: true, force: true });
const adminUrl = process.env.BENCH_PG;
const benchDb = `sw_bench_api_${process.pid}`;
const admin = (statement: string) => adminQuery(adminUrl as string, statement);
if (adminUrl) {
  await admin(`create database ${benchDb}`);
  process.env.DATABASE_URL = databaseUrl(adminUrl, benchDb);
}
const product = spawn('npm', ['start', '--silent'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    DATA_DIR,
    CAPTCHA_FIXED_ANSWER: CAPTCHA,
    LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
    MQTT_PORT: String(PORT + 1000),
    DEMO_CAMERAS: process.env.DEMO_CAMERAS ?? 'false',
    // Measured with the whole demo seeded and living, not while the first start seeds it in the background.
    DEMO_SEEDING: process.env.DEMO_SEEDING ?? 'before-listen',
  },
  stdio: 'ignore',
  detached: true,
});
await waitFor(`${BASE}/ready`);
// Let the simulators' first rounds pass before measuring.
await new Promise((r) => setTimeout(r, 5000));
const session = await signIn(BASE, CAPTCHA);

const baseline = await load(`http://127.0.0.1:${BARE_PORT}/`);
const rows: Array<[string, Figure]> = [
  ['GET /app-version/ (public)', await load(`${BASE}/app-version/`)],
  ['GET /current-login/ (cookie)', await load(`${BASE}/current-login/`, { cookie: session.cookie })],
  [
    'GET /iotapp/customer-settings/ (bearer)',
    await load(`${BASE}/iotapp/customer-settings/`, { authorization: `Bearer ${session.access}` }),
  ],
  // as a browser asks: every browser sends Accept-Encoding, and answers over 1 KB go compressed
  ['GET /current-login/ (cookie, as a browser)', await load(`${BASE}/current-login/`, { cookie: session.cookie, ...BROWSER })],
  [
    'GET /iotapp/customer-settings/ (bearer, as a browser)',
    await load(`${BASE}/iotapp/customer-settings/`, { authorization: `Bearer ${session.access}`, ...BROWSER }),
  ],
  [
    'GET /helpdesk/tickets/?page=1&limit=10 (bearer)',
    await load(`${BASE}/helpdesk/tickets/?page=1&limit=10`, { authorization: `Bearer ${session.access}` }),
  ],
  [
    'GET /helpdesk/tickets/?page=1&limit=10 (bearer, as a browser)',
    await load(`${BASE}/helpdesk/tickets/?page=1&limit=10`, { authorization: `Bearer ${session.access}`, ...BROWSER }),
  ],
];
await stop(product, true);
await stop(bare, false);
if (adminUrl) await admin(`drop database ${benchDb} with (force)`);

const database = adminUrl ? 'PostgreSQL' : 'embedded PGlite';
console.log(
  `\nAPI throughput against bare Node (${database}; 100 connections, ${DURATION} s, median of ${RUNS}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);
console.log(
  `  ${'what'.padEnd(48)} ${'req/s'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'errors'.padStart(7)} ${'ratio'.padStart(6)}`,
);
const line = (name: string, f: Figure) =>
  console.log(
    `  ${name.padEnd(48)} ${Math.round(f.rps).toString().padStart(8)} ${String(f.p99).padStart(8)} ${String(f.max).padStart(8)} ${String(f.errors).padStart(7)} ${(f.rps / baseline.rps).toFixed(3).padStart(6)}`,
  );
line('bare Node http (200-byte JSON)', baseline);
for (const [name, figure] of rows) line(name, figure);
