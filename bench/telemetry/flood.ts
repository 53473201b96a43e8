/**
 * One device floods: `/app-version/` latency (p50, p99, max) while nothing floods, then while one device publishes
 * QoS 0 telemetry to the embedded broker as fast as its connection takes it (in a process of its own, reconnecting
 * when the server closes it), with the product's default rate limits. Also prints what the device offered, what was
 * stored, what was dropped, and the disconnects. Goal: p99 < 200 ms while flooding.
 * Run: node --import tsx bench/telemetry/flood.ts   (SECONDS=15 PROBES=4; BENCH_PG=postgres://… for PostgreSQL)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { withCommandsServer } from '../commands/server.ts';

const SECONDS = Number(process.env.SECONDS ?? 15);
/** Concurrent callers of /app-version/, each asking again as soon as it is answered. */
const PROBES = Number(process.env.PROBES ?? 4);

const FLOODER = `
const mqtt = require('mqtt');
const [url, token, seconds] = process.argv.slice(1);
let sent = 0, connects = 0;
const end = Date.now() + Number(seconds) * 1000;
const client = mqtt.connect(url, { username: token, reconnectPeriod: 100, clientId: 'flooder' });
client.on('error', () => {});
client.on('connect', () => { connects++; pump(); });
const payload = JSON.stringify({ temperature: 21.5, humidity: 40, door: false });
function pump() {
  while (client.connected && Date.now() < end) {
    sent++;
    if (!client.stream.write(require('mqtt-packet').generate({ cmd: 'publish', topic: 'v1/devices/me/telemetry', payload, qos: 0, retain: false, dup: false }))) {
      client.stream.once('drain', pump);
      return;
    }
  }
  if (Date.now() >= end) { console.log(JSON.stringify({ sent, connects })); client.end(true); process.exit(0); }
}
setTimeout(() => { console.log(JSON.stringify({ sent, connects })); process.exit(0); }, Number(seconds) * 1000 + 2000);
`;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function probe(base: string, seconds: number) {
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: PROBES }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const res = await fetch(`${base}/app-version/`);
        await res.arrayBuffer();
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { n: times.length, p50: pct(times, 50), p99: pct(times, 99), max: times.at(-1) ?? Number.NaN };
}

await withCommandsServer('flood', async ({ app, handles, database, tenantId, base, mqttPort, databaseKind }) => {
  const device = await database.db
    .insertInto('devices')
    .values({
      tenant_id: tenantId,
      name: 'flooder',
      label: 'flooder',
      type: 'GENERATOR',
      access_token: randomBytes(12).toString('hex'),
      template_id: null,
      asset_id: null,
      parent_id: null,
      metadata: JSON.stringify({ muteDevice: false, maintenance: false, enableDevice: true }) as never,
    })
    .returning(['id', 'access_token'])
    .executeTakeFirstOrThrow();
  await probe(base, 2);
  const quiet = await probe(base, SECONDS);
  const flooder = spawn(process.execPath, ['-e', FLOODER, `mqtt://127.0.0.1:${mqttPort}`, device.access_token, String(SECONDS + 2)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: `${import.meta.dirname}/../../apps/server`,
  });
  let report = '';
  flooder.stdout.on('data', (b: Buffer) => {
    report += b.toString();
  });
  const exited = new Promise<void>((resolve) => flooder.once('exit', () => resolve()));
  await new Promise((r) => setTimeout(r, 1000));
  const flooding = await probe(base, SECONDS);
  await exited;
  await handles.telemetry.ingest.buffer.drain();
  const offered = JSON.parse(report.trim().split('\n').pop() || '{}') as { sent?: number; connects?: number };
  const storedRows = await database.db
    .selectFrom('telemetry')
    .select((eb) => eb.fn.count<number>('device_id').as('n'))
    .where('device_id', '=', device.id)
    .executeTakeFirstOrThrow();
  const limited = handles.telemetry.ingest.limiter.stats();
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `\n/app-version/ with ${PROBES} callers, ${SECONDS} s per phase (${databaseKind}), device limits ${handles.telemetry.ingest.limiter.defaults.deviceMessages}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`  no flood        ${quiet.n} answers  p50 ${ms(quiet.p50)}  p99 ${ms(quiet.p99)}  max ${ms(quiet.max)}`);
  console.log(
    `  one device floods ${flooding.n} answers  p50 ${ms(flooding.p50)}  p99 ${ms(flooding.p99)}  max ${ms(flooding.max)}   (goal p99 < 200 ms)`,
  );
  console.log(
    `  flooder: ${offered.sent ?? '?'} messages offered (${Math.round((offered.sent ?? 0) / (SECONDS + 2))}/s), ${offered.connects ?? '?'} connections; ` +
      `stored ${Number(storedRows.n)} readings (3 per message), dropped ${limited.mqtt.device + limited.mqtt.tenant}, disconnected ${limited.disconnects}×`,
  );
  await app.close();
});
process.exit(0);
