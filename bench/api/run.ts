/**
 * API throughput against bare Node, in one run: the same autocannon load (100 connections, 10 s, median of 3)
 * on a bare `http` server answering 200 bytes of JSON, then on the product's hot reads. Prints req/s, p99 and
 * the ratio to bare Node for each (bare Node is measured first and last, and the faster counts); and, beside each
 * read, bare Node replaying that read's very answer (status, headers and bytes), so the part of the gap that the
 * answer itself makes (its size, its headers) shows apart from the product's work. Last, the ticket list as 100
 * users each asking for a list of their own (one connection each), which no two requests share.
 * Run: node --import tsx bench/api/run.ts                       (embedded PGlite, demo and simulators running)
 *      BENCH_PG=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/api/run.ts   (PostgreSQL)
 *      RUNS=1 DURATION=5 for a quick look; DEMO_SIMULATOR=false to measure without the living demo.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { get, type OutgoingHttpHeaders } from 'node:http';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';
import { signIn } from '../support/sign-in.ts';
import type { Replay } from './bare.ts';

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

/** One connection per url, all at once: requests a second summed; p99 and max the highest of any connection. */
async function loadEach(urls: string[], headers: Record<string, string>, runs = RUNS): Promise<Figure> {
  const figures: Figure[] = [];
  for (let i = 0; i < runs; i++) {
    const each = await Promise.all(urls.map((url) => autocannon({ url, connections: 1, duration: DURATION, headers })));
    figures.push({
      rps: each.reduce((n, r) => n + r.requests.average, 0),
      p99: Math.max(...each.map((r) => r.latency.p99)),
      max: Math.max(...each.map((r) => r.latency.max)),
      errors: each.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
    });
  }
  figures.sort((a, b) => a.rps - b.rps);
  return figures[Math.floor(figures.length / 2)] as Figure;
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

/** The product's answer as it went out: status, headers (less those Node sets per connection) and raw bytes. */
function capture(url: string, headers: Record<string, string>, path: string): Promise<Replay> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const kept = Object.entries(res.headers).filter(([name]) => !PER_CONNECTION.includes(name));
        resolve({ path, status: res.statusCode ?? 200, headers: Object.fromEntries(kept), body: Buffer.concat(chunks).toString('base64') });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}
const PER_CONNECTION = ['date', 'connection', 'keep-alive', 'transfer-encoding'];

/** Status line, the answer's headers and the ones Node adds per response, as counted on the wire. */
const headerBytes = (headers: OutgoingHttpHeaders) =>
  'HTTP/1.1 200 OK\r\n'.length +
  Object.entries(headers).reduce((n, [name, value]) => n + name.length + 4 + String(value).length, 0) +
  'Date: Thu, 01 Jan 2026 00:00:00 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n'.length;

async function register(replay: Replay) {
  const stored = new Promise<void>((resolve) => {
    const onMessage = (message: { stored?: string }) => {
      if (message.stored !== replay.path) return;
      bare.off('message', onMessage);
      resolve();
    };
    bare.on('message', onMessage);
  });
  bare.send({ replay });
  await stored;
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
const bearer = { authorization: `Bearer ${session.access}` };
const cookie = { cookie: session.cookie };
const reads: Array<[string, string, Record<string, string>]> = [
  ['GET /app-version/ (public)', '/app-version/', {}],
  ['GET /current-login/ (cookie)', '/current-login/', cookie],
  ['GET /iotapp/customer-settings/ (bearer)', '/iotapp/customer-settings/', bearer],
  // as a browser asks: every browser sends Accept-Encoding, and answers over 1 KB go compressed
  ['GET /current-login/ (cookie, as a browser)', '/current-login/', { ...cookie, ...BROWSER }],
  ['GET /iotapp/customer-settings/ (bearer, as a browser)', '/iotapp/customer-settings/', { ...bearer, ...BROWSER }],
  ['GET /helpdesk/tickets/?page=1&limit=10 (bearer)', '/helpdesk/tickets/?page=1&limit=10', bearer],
  ['GET /helpdesk/tickets/?page=1&limit=10 (bearer, as a browser)', '/helpdesk/tickets/?page=1&limit=10', { ...bearer, ...BROWSER }],
];
const rows: Array<{ name: string; product: Figure; same: Figure; bytes: number }> = [];
for (const [index, [name, path, headers]] of reads.entries()) {
  const product = await load(`${BASE}${path}`, headers);
  // the same answer (status, headers, bytes) from bare Node: what the answer itself costs, apart from the product
  const replay = await capture(`${BASE}${path}`, headers, `/same/${index}`);
  await register(replay);
  const same = await load(`http://127.0.0.1:${BARE_PORT}${replay.path}`);
  rows.push({ name, product, same, bytes: Buffer.from(replay.body, 'base64').length + headerBytes(replay.headers) });
}
// Each of the 100 connections asks for a list of its own (the same page, from its own instant on: one statement, 100
// sets of parameters), so no two requests for the same list are ever under way together and none is answered by
// another's read: what a page costs when many users each look at a list of their own. The first run, which prepares
// the statement on each pooled connection, is not counted.
const ownLists = Array.from(
  { length: 100 },
  (_, i) => `${BASE}/helpdesk/tickets/?page=1&limit=10&from=${new Date(Date.UTC(2020, 0, 1, 0, i)).toISOString()}`,
);
await loadEach(ownLists, bearer, 1);
const distinct = await loadEach(ownLists, bearer);
// Bare Node again at the end: what else the machine (the living demo among it) does moves over the run, and the
// ratios are taken against the faster of the two.
const baselineEnd = await load(`http://127.0.0.1:${BARE_PORT}/`);
const bareRps = Math.max(baseline.rps, baselineEnd.rps);
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
  `  ${'what'.padEnd(62)} ${'req/s'.padStart(7)} ${'p99 ms'.padStart(6)} ${'max ms'.padStart(6)} ${'errors'.padStart(6)} ${'ratio'.padStart(6)}   ${'bytes'.padStart(6)} ${'same answer'.padStart(11)} ${'ratio'.padStart(6)}`,
);
const columns = (f: Figure) =>
  `${Math.round(f.rps).toString().padStart(7)} ${String(f.p99).padStart(6)} ${String(f.max).padStart(6)} ${String(f.errors).padStart(6)} ${(f.rps / bareRps).toFixed(3).padStart(6)}`;
console.log(`  ${'bare Node http (200-byte JSON), first'.padEnd(62)} ${columns(baseline)}`);
console.log(`  ${'bare Node http (200-byte JSON), last'.padEnd(62)} ${columns(baselineEnd)}`);
for (const { name, product, same, bytes } of rows)
  console.log(
    `  ${name.padEnd(62)} ${columns(product)}   ${String(bytes).padStart(6)} ${Math.round(same.rps).toString().padStart(11)} ${(product.rps / same.rps).toFixed(3).padStart(6)}`,
  );
console.log(`  ${'GET /helpdesk/tickets/…&from=… (bearer, 100 lists, one each)'.padEnd(62)} ${columns(distinct)}`);
console.log(
  '  bytes: the answer on the wire, headers and body; same answer: bare Node sending those very bytes (req/s), and the product against it',
);
