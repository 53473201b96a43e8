/**
 * Foundation figures: time from `npm start` to ready (first start with migrations and demo seeding, then a
 * restart), gzipped JS loaded by /auth/login, and /current-login/ throughput and p99 at 100 connections.
 * Run: node --import tsx bench/foundation/run.ts           (embedded PGlite, the default product)
 *      BENCH_PG=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/foundation/run.ts
 *                                                          (a fresh database on that PostgreSQL server)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';
import { signIn } from '../support/sign-in.ts';

const PORT = 8199;
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = '/tmp/sitewatch-bench-foundation';
const CAPTCHA = 'BENCH';

function startServer(): { child: ChildProcess; ready: Promise<number> } {
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR,
      CAPTCHA_FIXED_ANSWER: CAPTCHA,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      MQTT_PORT: '9199',
    },
    stdio: 'ignore',
    detached: true,
  });
  const ready = (async () => {
    for (;;) {
      try {
        const res = await fetch(`${BASE}/ready`);
        if (res.ok) return performance.now() - started;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return { child, ready };
}

async function stopServer(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  if (child.pid) process.kill(-child.pid, 'SIGTERM');
  await exited;
}

async function loginPageWeight() {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage();
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.push({ url: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  });
  await page.goto(`${BASE}/auth/login/`, { waitUntil: 'networkidle' });
  await browser.close();
  return scripts;
}

rmSync(DATA_DIR, { recursive: true, force: true });
const adminUrl = process.env.BENCH_PG;
const benchDb = `sw_bench_foundation_${process.pid}`;
const admin = (statement: string) => adminQuery(adminUrl as string, statement);
if (adminUrl) {
  await admin(`create database ${benchDb}`);
  process.env.DATABASE_URL = databaseUrl(adminUrl, benchDb);
}
const first = startServer();
const coldMs = await first.ready;
await stopServer(first.child);
const second = startServer();
const warmMs = await second.ready;

const scripts = await loginPageWeight();
const session = await signIn(BASE, CAPTCHA);
const result = await autocannon({
  url: `${BASE}/current-login/`,
  connections: 100,
  duration: 10,
  headers: { cookie: session.cookie, authorization: `Bearer ${session.access}` },
});
await stopServer(second.child);
if (adminUrl) await admin(`drop database ${benchDb} with (force)`);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`\nFoundation figures (${adminUrl ? 'PostgreSQL' : 'embedded PGlite'}, demo data and simulators running)`);
console.log(`  start to ready, first start (migrations + demo data): ${Math.round(coldMs)} ms`);
console.log(`  start to ready, restart:                              ${Math.round(warmMs)} ms`);
console.log(
  `  /auth/login JS: ${scripts.length} files, ${kb(scripts.reduce((s, f) => s + f.raw, 0))} raw, ${kb(scripts.reduce((s, f) => s + f.gzip, 0))} gzipped (goal < 150 KB)`,
);
for (const f of scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`    ${f.url}  ${kb(f.gzip)}`);
console.log(
  `  /current-login/ at 100 connections: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}`,
);
