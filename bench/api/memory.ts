/**
 * Memory of the server idle with the demo running (simulated devices, cameras, jobs), no client connected: the
 * process's resident set, sampled from its own /metrics after the first start has settled.
 * Three starts on a new data folder each, one after the other:
 *   - `npm start` as the README runs it (package.json's start script: its Node flags and its environment);
 *   - the same with MEMORY_TRIM=false: the heap is not trimmed when the server goes quiet;
 *   - the same server started as it was before, as the baseline: through the tsx loader and with glibc's default
 *     malloc thresholds (the same `--max-semi-space-size=64`).
 * Run: node --import tsx bench/api/memory.ts      SETTLE=60 SAMPLE=60 (seconds) to change the windows
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';

const PORT = 8296;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = '/tmp/sitewatch-bench-memory';
const SETTLE = Number(process.env.SETTLE ?? 60);
const SAMPLE = Number(process.env.SAMPLE ?? 60);
const GOAL_MB = 250;

interface Sample {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

async function waitFor(url: string) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
}

async function sample(): Promise<Sample> {
  const text = await (await fetch(`${BASE}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^sitewatch_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    rss: read('process_resident_memory_bytes'),
    heapTotal: read('nodejs_heap_size_total_bytes'),
    heapUsed: read('nodejs_heap_size_used_bytes'),
    external: read('nodejs_external_memory_bytes'),
  };
}

async function measure(command: string, args: string[], env: Record<string, string> = {}) {
  rmSync(DATA_DIR, { recursive: true, force: true });
  const { MALLOC_MMAP_THRESHOLD_: _, ...inherited } = process.env;
  const child: ChildProcess = spawn(command, args, {
    env: {
      ...inherited,
      PORT: String(PORT),
      MQTT_PORT: String(PORT + 1000),
      SNMP_TRAP_PORT: String(PORT + 2000),
      DATA_DIR,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: 'ignore',
    detached: true,
  });
  try {
    await waitFor(`${BASE}/ready`);
    await sleep(SETTLE * 1000);
    const samples: Sample[] = [];
    for (let t = 0; t < SAMPLE; t += 2) {
      samples.push(await sample());
      await sleep(2000);
    }
    const rss = samples.map((s) => s.rss).sort((a, b) => a - b);
    const last = samples.at(-1) as Sample;
    return { median: rss[Math.floor(rss.length / 2)] as number, max: rss.at(-1) as number, last };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const npmStart = await measure('npm', ['start', '--silent']);
const noTrim = await measure('npm', ['start', '--silent'], { MEMORY_TRIM: 'false' });
const before = await measure(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'apps/server/src/main.ts']);
rmSync(DATA_DIR, { recursive: true, force: true });

console.log(
  `\nServer idle with the demo (new data folder; ${SETTLE} s to settle, then ${SAMPLE} s sampled every 2 s; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);
console.log(
  `  ${'start'.padEnd(44)} ${'RSS median'.padStart(10)} ${'RSS max'.padStart(8)} ${'V8 heap total / used'.padStart(21)} ${'external'.padStart(9)}`,
);
for (const [name, r] of [
  ['npm start', npmStart],
  ['npm start, MEMORY_TRIM=false', noTrim],
  ['before: tsx loader, default malloc', before],
] as const) {
  console.log(
    `  ${name.padEnd(44)} ${`${mb(r.median)} MB`.padStart(10)} ${`${mb(r.max)} MB`.padStart(8)} ${`${mb(r.last.heapTotal)} / ${mb(r.last.heapUsed)} MB`.padStart(21)} ${`${mb(r.last.external)} MB`.padStart(9)}`,
  );
}
console.log(`  goal: ≤ ${GOAL_MB} MB RSS`);
