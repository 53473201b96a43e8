/**
 * What metrics cost in request throughput: the same server started with METRICS=false and with metrics on
 * (default), in alternating rounds within one run, GET /app-version/ and a signed-in GET /current-login/ at 100
 * connections for 10 s each (after a 3 s warm-up). Prints req/s and the server's CPU time per request per round,
 * and the median differences; CPU per request is the steadier figure on a busy machine. Goal: under 2 %.
 * Run: node --import tsx bench/ops/metrics-cost.ts   (ROUNDS=2 by default; embedded PGlite)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { signIn } from '../support/sign-in.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8198);
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = '/tmp/sitewatch-bench-metrics';
const CAPTCHA = 'BENCH';
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const TICKS_PER_SECOND = 100; // Linux USER_HZ

async function start(metrics: boolean): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      MQTT_PORT: String(PORT + 1000),
      DATA_DIR,
      CAPTCHA_FIXED_ANSWER: CAPTCHA,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_CAMERAS: 'false',
      DEMO_SIMULATOR: 'false',
      // the first start seeds the demo estate; measuring while it seeds in the background would favour the later rounds
      DEMO_SEEDING: 'before-listen',
      METRICS: String(metrics),
    },
    stdio: 'ignore',
    detached: true,
  });
  for (;;) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  if (child.pid) process.kill(-child.pid, 'SIGTERM');
  await exited;
}

/** CPU time (user + system) the server process has used, in ms: less swayed by other load than req/s. */
function cpuMs(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] as string).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function load(pid: number, path: string, headers: Record<string, string> = {}) {
  await autocannon({ url: `${BASE}${path}`, connections: 100, duration: 3, headers }); // warm-up: JIT and caches
  const before = cpuMs(pid);
  const result = await autocannon({ url: `${BASE}${path}`, connections: 100, duration: 10, headers });
  const cpuUs = ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests.total);
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx, cpuUs };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

rmSync(DATA_DIR, { recursive: true, force: true });
type Side = { rps: number[]; cpu: number[] };
const figures: Record<string, { off: Side; on: Side }> = {
  '/app-version/': { off: { rps: [], cpu: [] }, on: { rps: [], cpu: [] } },
  '/current-login/': { off: { rps: [], cpu: [] }, on: { rps: [], cpu: [] } },
};
console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (let round = 1; round <= ROUNDS; round++) {
  // alternate which goes first, so that a drift of the machine's load does not favour one side
  const order = round % 2 ? [false, true] : [true, false];
  for (const metrics of order) {
    const child = await start(metrics);
    try {
      const { cookie, access } = await signIn(BASE, CAPTCHA);
      const session = { cookie, authorization: `Bearer ${access}` };
      for (const [path, headers] of [
        ['/app-version/', {}],
        ['/current-login/', session],
      ] as const) {
        const r = await load(child.pid as number, path, headers);
        const side = (figures[path] as { off: Side; on: Side })[metrics ? 'on' : 'off'];
        side.rps.push(r.rps);
        side.cpu.push(r.cpuUs);
        console.log(
          `round ${round} metrics ${metrics ? 'on ' : 'off'} ${path.padEnd(16)} ${Math.round(r.rps)} req/s  ${r.cpuUs.toFixed(1)} µs CPU/request  p99 ${r.p99} ms  errors ${r.errors}`,
        );
      }
    } finally {
      await stop(child);
    }
  }
}
for (const [path, { off, on }] of Object.entries(figures)) {
  const cost = ((median(off.rps) - median(on.rps)) / median(off.rps)) * 100;
  const cpuCost = ((median(on.cpu) - median(off.cpu)) / median(off.cpu)) * 100;
  console.log(
    `${path.padEnd(16)} median off ${Math.round(median(off.rps))} req/s, on ${Math.round(median(on.rps))} req/s: cost ${cost.toFixed(1)} %` +
      ` | CPU per request off ${median(off.cpu).toFixed(1)} µs, on ${median(on.cpu).toFixed(1)} µs: cost ${cpuCost.toFixed(1)} %`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
rmSync(DATA_DIR, { recursive: true, force: true });
