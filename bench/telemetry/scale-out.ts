/**
 * Scale-out benchmark: one, then two ingest processes (`ROLE=ingest`, each its own node process as in production)
 * consume one shared subscription `$share/<group>/v1/devices/+/telemetry` of an external broker (`MQTT_URL`, the
 * Mosquitto at 127.0.0.1:1883). 10,000 devices publish ~95-byte JSON with 3 keys to that broker on the topic that
 * carries their token (half at QoS 1, half at QoS 0 — the publisher of ingest.ts), at a rate above what one process
 * stores (default 40,000 msg/s) for 20 s after a 5 s warm-up.
 *
 * Stored per second is counted by the processes (`sitewatch_ingest_stored_total` of each one's /metrics, sampled at the window's
 * edges), so the share of each process shows too; the gain is stored with N processes / stored with one. After the
 * window the processes are left to drain what the broker still holds, then all that was published is compared with
 * all that was stored: an overloaded subscriber loses messages in the broker (Mosquitto drops what exceeds its
 * per-client queue, QoS 0 and QoS 1 alike, after acknowledging the QoS 1 ones to the device).
 *
 * CPU is shown per process in % of one core (ingest processes, Mosquitto, all PostgreSQL processes) and for the whole
 * machine in % of all its cores; what the machine spends beyond those is mostly the publisher.
 *
 * Every run uses a share group and client ids of its own, and their persistent sessions are removed afterwards.
 *
 *   node bench/telemetry/scale-out.ts [devices=10000] [rate=40000] [seconds=20]
 *   env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_scaleout, dropped and made anew),
 *        BENCH_MQTT_URL (mqtt://127.0.0.1:1883), BENCH_PROCESSES (1,2: the process counts to run, in order),
 *        BENCH_MOSQUITTO_PID (the broker whose CPU is shown; default the pid in /run/mosquitto/mosquitto.pid),
 *        QOS1_SHARE (0.5), TELEMETRY_* settings of the product (passed to the ingest processes)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import { cpuSeconds, freePort, load, type PhaseResult, PRODUCT_START, postgresCpu, runPublisher, seedBenchDatabase } from './fleet.ts';

const devices = Number(process.argv[2] ?? 10_000);
const rate = Number(process.argv[3] ?? 40_000);
const seconds = Number(process.argv[4] ?? 20);
const qos1Share = Number(process.env.QOS1_SHARE ?? 0.5);
const benchUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_scaleout');
const brokerUrl = new URL(process.env.BENCH_MQTT_URL ?? 'mqtt://127.0.0.1:1883');
const counts = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
const phases = [{ name: 'scaleout', rate, seconds, warmupSeconds: 5 }];
const runId = Date.now().toString(36);

interface Ingest {
  index: number;
  child: ChildProcess;
  port: number;
  clientId: string;
  exited: Promise<number | null>;
}

/** Starts one ingest process and resolves once it serves (its banner is printed). */
async function startIngest(index: number, group: string): Promise<Ingest> {
  const port = await freePort();
  const clientId = `${group}-${index + 1}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ROLE: 'ingest',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: benchUrl.toString(),
    MQTT_URL: brokerUrl.toString(),
    MQTT_SHARE_GROUP: group,
    MQTT_CLIENT_ID: clientId,
    DEMO: 'false',
    DEMO_SIMULATOR: 'false',
    SNMP_TRAP_RECEIVER: 'false',
    WEB_DIST: '/nonexistent',
    DATA_DIR: `/tmp/${group}`,
    // the ceiling of ingest is measured: no rate limits unless set
    TELEMETRY_RATE_LIMIT_DEVICE_MESSAGES: '',
    TELEMETRY_RATE_LIMIT_DEVICE_BYTES: '',
    TELEMETRY_RATE_LIMIT_TENANT_MESSAGES: '',
    TELEMETRY_RATE_LIMIT_TENANT_BYTES: '',
  };
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('TELEMETRY_') && v) env[k] = v;
  const child = spawn(process.execPath, [...PRODUCT_START.flags, 'apps/server/src/main.ts'], {
    env: { ...PRODUCT_START.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const prefix = `[ingest ${index + 1}] `;
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => process.stderr.write(`${prefix}${line}\n`));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${prefix}not ready after 60 s`)), 60_000);
    void exited.then((code) => reject(new Error(`${prefix}exited ${code} before it was ready`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (line.includes('Sitewatch is ready')) {
        clearTimeout(timer);
        resolve();
      } else if (line.trim() && !line.startsWith('  ')) process.stderr.write(`${prefix}${line.slice(0, 300)}\n`);
    });
  });
  return { index, child, port, clientId, exited };
}

interface Sample {
  at: number;
  stored: number[];
  accepted: number[];
  refused: number[];
  cpu: number[];
  mosquittoCpu: number;
  postgresCpu: number;
  machine: { busy: number; total: number };
}

const counter = (text: string, name: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

function machineCpu() {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: (total - idle) / 100, total: total / 100 };
}

const mosquittoPid = (() => {
  if (process.env.BENCH_MOSQUITTO_PID) return Number(process.env.BENCH_MOSQUITTO_PID);
  try {
    return Number(readFileSync('/run/mosquitto/mosquitto.pid', 'utf8').trim());
  } catch {
    return undefined;
  }
})();

async function sample(procs: Ingest[]): Promise<Sample> {
  const at = performance.now();
  const machine = machineCpu();
  const mosquittoCpu = cpuSeconds(mosquittoPid);
  const pgCpu = postgresCpu() ?? 0;
  const cpu = procs.map((p) => cpuSeconds(p.child.pid));
  const texts = await Promise.all(procs.map((p) => fetch(`http://127.0.0.1:${p.port}/metrics`).then((r) => r.text())));
  return {
    at,
    stored: texts.map((t) => counter(t, 'sitewatch_ingest_stored_total')),
    accepted: texts.map((t) => counter(t, 'sitewatch_ingest_accepted_total')),
    refused: texts.map((t) => counter(t, 'sitewatch_ingest_refused_total')),
    cpu,
    mosquittoCpu,
    postgresCpu: pgCpu,
    machine,
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const lostShare = (sent: number, stored: number) => `${(((sent - stored) / sent) * 100).toFixed(1)}%`;

interface RunResult {
  processes: number;
  publisher: PhaseResult;
  connected: number;
  storedPerSecond: number;
  perProcess: number[];
  cpuPerProcess: number[];
  mosquittoCpu: number;
  postgresCpu: number;
  machineBusy: number;
  totalSent: number;
  totalStored: number;
  refused: number;
  /** Messages stored, counted in the database. */
  rows: { qos1: number; qos0: number };
  loadBefore: string;
  loadAfter: string;
}

const { benchName, database, tokensFile, drop } = await seedBenchDatabase(benchUrl, devices);
// the publisher gives QoS 1 to the first devices of the tokens file (in id order), QoS 0 to the others
const qos1Devices = Math.round(devices * qos1Share);
const lastQos1Id = Number(
  (
    await sql<{
      id: number;
    }>`select id from devices where name like 'bench-%' order by id offset ${Math.max(0, qos1Devices - 1)} limit 1`.execute(database.db)
  ).rows[0]?.id ?? 0,
);
/** Messages in the database so far (3 rows each), from QoS 1 and from QoS 0 devices. */
const storedByQos = async () => {
  const r = (
    await sql<{ q1: number; q0: number }>`
      select (count(*) filter (where device_id <= ${lastQos1Id}))::int as q1, (count(*) filter (where device_id > ${lastQos1Id}))::int as q0
      from telemetry`.execute(database.db)
  ).rows[0];
  return { qos1: (r?.q1 ?? 0) / 3, qos0: (r?.q0 ?? 0) / 3 };
};
const results: RunResult[] = [];
let running: Ingest[] = [];

async function stopAll(procs: Ingest[]) {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGTERM');
  await Promise.all(
    procs.map((p) =>
      Promise.race([p.exited, new Promise((r) => setTimeout(r, 15_000))]).then(() => {
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      }),
    ),
  );
}

/** Removes the persistent sessions (and so the shared subscriptions) the ingest processes left in the broker. */
async function forgetSessions(clientIds: string[]) {
  for (const clientId of clientIds) {
    const client = await mqtt.connectAsync(brokerUrl.toString(), { clientId, clean: true, reconnectPeriod: 0 });
    await client.endAsync();
  }
}

try {
  console.log(
    `devices ${devices} (QoS 1 share ${qos1Share}), ~95-byte JSON with 3 keys on v1/devices/<token>/telemetry to ${brokerUrl.host}; ` +
      `PostgreSQL ${benchName}; offered ${fmt(rate)} msg/s for ${seconds} s after a 5 s warm-up; load ${load()}`,
  );
  for (const n of counts) {
    const group = `bench-scaleout-${runId}-n${n}`;
    const before = await storedByQos();
    const loadBefore = load();
    running = await Promise.all(Array.from({ length: n }, (_, i) => startIngest(i, group)));
    const procs = running;
    const edges = new Map<string, Promise<Sample>>();
    const published = await runPublisher({
      port: Number(brokerUrl.port || 1883),
      host: brokerUrl.hostname,
      tokensFile,
      topicMode: 'token',
      qos1Share,
      phases,
      onEdge: (_phase, edge) => edges.set(edge, sample(procs)),
    });
    const start = await edges.get('start');
    const end = await edges.get('end');
    const publisher = published.results[0];
    if (!start || !end || !publisher) throw new Error('the publisher reported no measurement window');
    const loadAfter = load();
    // what the broker still holds for the subscribers is stored after the window: wait until nothing moves
    let last = await sample(procs);
    for (let quiet = 0, waited = 0; quiet < 3 && waited < 60; waited++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = await sample(procs);
      quiet = sum(now.accepted) === sum(last.accepted) && sum(now.stored) === sum(now.accepted) ? quiet + 1 : 0;
      last = now;
    }
    const sec = (end.at - start.at) / 1000;
    const perProcess = procs.map((_, i) => ((end.stored[i] as number) - (start.stored[i] as number)) / sec);
    const after = await storedByQos();
    const rows = { qos1: after.qos1 - before.qos1, qos0: after.qos0 - before.qos0 };
    await stopAll(procs);
    running = [];
    await forgetSessions(procs.map((p) => p.clientId));
    results.push({
      processes: n,
      publisher,
      connected: published.connected,
      storedPerSecond: sum(perProcess),
      perProcess,
      cpuPerProcess: procs.map((_, i) => (((end.cpu[i] as number) - (start.cpu[i] as number)) / sec) * 100),
      mosquittoCpu: ((end.mosquittoCpu - start.mosquittoCpu) / sec) * 100,
      postgresCpu: ((end.postgresCpu - start.postgresCpu) / sec) * 100,
      machineBusy: ((end.machine.busy - start.machine.busy) / (end.machine.total - start.machine.total)) * 100,
      totalSent: publisher.totalSent as number,
      totalStored: sum(last.stored),
      refused: sum(last.refused),
      rows,
      loadBefore,
      loadAfter,
    });
    const r = results[results.length - 1] as RunResult;
    console.log(
      `${n} process${n > 1 ? 'es' : ''}: ${published.connected} devices connected in ${published.connectMs} ms; ` +
        `window ${publisher.windowSeconds} s: sent ${fmt(publisher.sentPerSecond)}/s (skipped ${publisher.skipped}), stored ${fmt(r.storedPerSecond)}/s ` +
        `(${perProcess.map((s) => fmt(s)).join(' + ')}); all in all sent ${fmt(r.totalSent)}, stored ${fmt(r.totalStored)} ` +
        `(database: ${fmt(rows.qos1)} from QoS 1 devices, ${fmt(rows.qos0)} from QoS 0), refused ${r.refused}; load ${loadBefore} -> ${loadAfter}`,
    );
  }

  const one = results.find((r) => r.processes === 1);
  const head = [
    'processes',
    'offered/s',
    'sent/s',
    'stored/s',
    'share per process',
    'CPU per process',
    'Mosquitto CPU',
    'PostgreSQL CPU',
    'machine busy',
    'lost',
    'lost QoS 1 / QoS 0',
    'load before → after',
  ];
  const lines = results.map((r) => [
    String(r.processes),
    fmt(r.publisher.offeredPerSecond),
    fmt(r.publisher.sentPerSecond),
    fmt(r.storedPerSecond),
    r.perProcess.map((s) => `${((s / r.storedPerSecond) * 100).toFixed(0)}%`).join(' / '),
    r.cpuPerProcess.map((c) => `${c.toFixed(0)}%`).join(' / '),
    `${r.mosquittoCpu.toFixed(0)}%`,
    `${r.postgresCpu.toFixed(0)}%`,
    `${r.machineBusy.toFixed(0)}% of ${availableParallelism()}`,
    `${fmt(r.totalSent - r.totalStored)} (${(((r.totalSent - r.totalStored) / r.totalSent) * 100).toFixed(1)}%)`,
    `${lostShare(r.publisher.totalSentQos1 as number, r.rows.qos1)} / ${lostShare(r.totalSent - (r.publisher.totalSentQos1 as number), r.rows.qos0)}`,
    `${r.loadBefore.split(' ')[0]} → ${r.loadAfter.split(' ')[0]}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(`\n${row(head)}\n${row(widths.map((w) => '-'.repeat(w)))}\n${lines.map(row).join('\n')}`);
  for (const r of results.filter((r) => r.processes !== 1)) {
    console.log(
      `\nRESULT ${r.processes} ingest processes on $share: stored ${fmt(r.storedPerSecond)}/s vs ${fmt(one?.storedPerSecond ?? 0)}/s with one, ` +
        `gain ${one ? (r.storedPerSecond / one.storedPerSecond).toFixed(2) : 'n/a'}x (offered ${fmt(rate)}/s); load ${load()}`,
    );
  }
} finally {
  await stopAll(running);
  await drop();
}
process.exit(0);
