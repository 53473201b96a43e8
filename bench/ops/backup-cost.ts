/**
 * What a backup costs a running server: the demo on the embedded database (PGlite), CONNECTIONS clients that each call
 * GET /ready (reads the database) and a signed-in ticket list in turn, for BASELINE_S seconds without a backup and
 * then while a backup started from /app-admin runs through the job queue (as a scheduled one does). Prints per phase
 * the requests, p50/p99/max latency and non-2xx answers, the backup's time and size, and the load average.
 * Run: node --import tsx bench/ops/backup-cost.ts
 *   (BENCH_PORT=8380; DATA_DIR kept between runs so the demo is seeded once; ROUNDS backups, 2 by default;
 *   SERVER_ENTRY runs another build of the server, e.g. an older one unpacked by `git archive`, to compare)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { signIn } from '../support/sign-in.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8380);
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = process.env.DATA_DIR ?? '/tmp/sitewatch-bench-backup';
const CAPTCHA = 'BENCH';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const BASELINE_S = Number(process.env.BASELINE_S ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

function start(): ChildProcess {
  return spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', process.env.SERVER_ENTRY ?? 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      MQTT_PORT: String(PORT + 1000),
      SNMP_TRAP_PORT: String(PORT + 2000),
      DATA_DIR,
      DEMO: 'true',
      CAPTCHA_FIXED_ANSWER: CAPTCHA,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      BACKUP_BEFORE_MIGRATE: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitReady(timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(`${BASE}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the server did not become ready');
}

interface Sample {
  what: string;
  ms: number;
  status: number;
}

/** CONNECTIONS loops of /ready and the ticket list until `stop()` resolves. */
async function load(auth: { cookie: string; access: string }, until: Promise<unknown>): Promise<Sample[]> {
  const samples: Sample[] = [];
  let running = true;
  void until.finally(() => {
    running = false;
  });
  const one = async (what: string, url: string, headers: Record<string, string> = {}) => {
    const started = performance.now();
    const res = await fetch(url, { headers }).catch(() => null);
    await res?.arrayBuffer().catch(() => undefined);
    samples.push({ what, ms: performance.now() - started, status: res?.status ?? 0 });
  };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (running) {
        await one('/ready', `${BASE}/ready`);
        await one('ticket list', `${BASE}/helpdesk/tickets/`, {
          cookie: auth.cookie,
          authorization: `Bearer ${auth.access}`,
        });
      }
    }),
  );
  return samples;
}

function report(phase: string, samples: Sample[]) {
  for (const what of ['/ready', 'ticket list']) {
    const of = samples.filter((s) => s.what === what);
    const ms = of.map((s) => s.ms).sort((a, b) => a - b);
    const at = (q: number) => (ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0).toFixed(0);
    const bad = of.filter((s) => s.status < 200 || s.status >= 300);
    const codes = [...new Set(bad.map((s) => s.status))].join(',');
    console.log(
      `${phase.padEnd(16)} ${what.padEnd(12)} n=${String(of.length).padStart(6)}  p50 ${at(0.5).padStart(5)} ms  p99 ${at(0.99).padStart(6)} ms  max ${at(1).padStart(6)} ms  not 2xx ${bad.length}${codes ? ` (${codes})` : ''}`,
    );
  }
}

const server = start();
try {
  await waitReady(900_000);
  const reader = await signIn(BASE, CAPTCHA, 'customeradmin');
  const admin = await signIn(BASE, CAPTCHA, 'sysadmin');
  const adminHeaders = { cookie: admin.cookie, authorization: `Bearer ${admin.access}` };
  await load(reader, new Promise((resolve) => setTimeout(resolve, 3000))); // warm-up
  for (let round = 1; round <= ROUNDS; round++) {
    report('no backup', await load(reader, new Promise((resolve) => setTimeout(resolve, BASELINE_S * 1000))));
    const csrf = /csrftoken=([^;]+)/.exec(admin.cookie)?.[1] ?? '';
    const before = (await (await fetch(`${BASE}/api/admin/backups/`, { headers: adminHeaders })).json()) as {
      items: Array<{ id: number }>;
    };
    const known = new Set(before.items.map((i) => i.id));
    // a scheduled backup may be waiting or running (the first one runs soon after the start): wait for it
    for (;;) {
      const started = await fetch(`${BASE}/api/admin/backups/`, { method: 'POST', headers: { ...adminHeaders, 'x-csrftoken': csrf } });
      if (started.status === 202) break;
      if (started.status !== 409) throw new Error(`the backup did not start: ${started.status} ${await started.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const running = (await (await fetch(`${BASE}/api/admin/backups/`, { headers: adminHeaders })).json()) as {
      items: Array<{ id: number; status: string }>;
    };
    for (const item of running.items) if (item.status !== 'running') known.add(item.id);
    const finished = (async () => {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const list = (await (await fetch(`${BASE}/api/admin/backups/`, { headers: adminHeaders })).json()) as {
          items: Array<{ id: number; status: string; durationMs: number | null; bytes: number | null; error: string | null }>;
        };
        const run = list.items.find((i) => !known.has(i.id) && i.status !== 'running');
        if (run) return run;
      }
    })();
    const samples = await load(reader, finished);
    const run = await finished;
    report('during backup', samples);
    console.log(
      `backup ${run.status}: ${((run.durationMs ?? 0) / 1000).toFixed(1)} s, ${((run.bytes ?? 0) / 2 ** 20).toFixed(1)} MiB${run.error ? ` (${run.error})` : ''}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
} finally {
  server.kill('SIGTERM');
}
