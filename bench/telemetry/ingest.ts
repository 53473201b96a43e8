/**
 * Ingest benchmark: 10,000 connected devices publish ~95-byte JSON with 3 keys (half the devices at QoS 1, half at
 * QoS 0 — see publisher.ts) to the embedded broker; the product stores every message in PostgreSQL. Then the same
 * publisher, with the same phases, runs against the bare Mosquitto at 127.0.0.1:1883 as the ceiling.
 *
 * Two phases on the same connections, each after a warm-up:
 * - sustained: the goal rate (default 20,000 msg/s) for 30 s — offered vs stored per second, and p50/p99 from
 *   publish to PUBACK of the QoS 1 messages (the product acknowledges only committed messages, so that is
 *   publish-to-queryable), with the p99 of each second of the window (`p99BySecondMs`: a p99 made by one slow second
 *   reads differently from a steady one). A rate is sustained when stored keeps up with offered and nothing is left
 *   behind.
 * - saturation: offered well above what the product takes (default 80,000 msg/s) for 15 s — the most stored per
 *   second; the ratio product/broker compares these ceilings. When the publisher cannot even send that much to
 *   Mosquitto, the publisher is the limit: the broker's ceiling is higher and the ratio an upper bound.
 * Stored per second is counted by the server (messages committed inside the window), not by the publisher.
 * Per phase it also prints the CPU time per stored message of the product's process and of PostgreSQL's processes
 * (from /proc), and the longest a 10 ms timer of the product waited (libuv runs no timer while it keeps polling
 * thousands of busy sockets).
 *
 *   node bench/telemetry/ingest.ts [devices=10000] [rate=20000] [seconds=30] [saturationRate=80000]
 *   env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_telemetry, dropped and made anew),
 *        QOS1_SHARE (0.5), TELEMETRY_* settings of the product (defaults of config.ts unless set),
 *        BENCH_PHASES=sustained|saturation (both), BENCH_BROKER=off (skips the Mosquitto run, while tuning),
 *        BENCH_POISON=1: every second one extra device sends a poison message over MQTT (a NUL in a string: refused
 *        at parse time) and one poison message is put straight into the ingest buffer past the parser (the
 *        database refuses it: the batch is split and only it is dead-lettered). Compare the RESULT line of a run
 *        with and without: nothing else may be lost or delayed.
 */
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { openPostgres } from '../../apps/server/src/platform/db.ts';
import { freePort, load, PRODUCT_START, postgresCpu, runPublisher, seedBenchDatabase, withoutTsx } from './fleet.ts';

// the product runs in this process: with the Node flags and the environment that `npm start` gives it
const nodeOptions = withoutTsx(process.execArgv);
if (nodeOptions.length < process.execArgv.length || !PRODUCT_START.flags.every((f) => process.execArgv.includes(f))) {
  const run = spawnSync(process.execPath, [...PRODUCT_START.flags, ...nodeOptions, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...PRODUCT_START.env, ...process.env },
  });
  process.exit(run.status ?? 1);
}

/** The product's CPU, PostgreSQL's CPU and the longest wait of a 10 ms timer, from a window's start to its end. */
function watchWindow(stored: () => number) {
  const cpu = process.cpuUsage();
  const pg = postgresCpu();
  const firstStored = stored();
  let last = performance.now();
  let longestTimerWait = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestTimerWait = Math.max(longestTimerWait, now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    const used = process.cpuUsage(cpu);
    const pgNow = postgresCpu();
    const n = Math.max(1, stored() - firstStored);
    return {
      productUsPerMessage: Math.round(((used.user + used.system) / n) * 10) / 10,
      postgresUsPerMessage: pg === null || pgNow === null ? null : Math.round((((pgNow - pg) * 1_000_000) / n) * 10) / 10,
      longestTimerWaitMs: Math.round(longestTimerWait),
    };
  };
}

const devices = Number(process.argv[2] ?? 10_000);
const rate = Number(process.argv[3] ?? 20_000);
const seconds = Number(process.argv[4] ?? 30);
const saturationRate = Number(process.argv[5] ?? 80_000);
const qos1Share = Number(process.env.QOS1_SHARE ?? 0.5);
const benchUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_telemetry');

const phases = [
  { name: 'sustained', rate, seconds, warmupSeconds: 5 },
  { name: 'saturation', rate: saturationRate, seconds: 15, warmupSeconds: 3 },
].filter((p) => !process.env.BENCH_PHASES || process.env.BENCH_PHASES.split(',').includes(p.name));

/** The poison injector of BENCH_POISON=1: one message a second over MQTT and one past the parser. */
async function startPoison(
  db: ReturnType<typeof openPostgres>['db'],
  tenantId: number,
  port: number,
  ingest: ReturnType<typeof telemetryOf>['ingest'],
) {
  const token = `poison-${Date.now()}`;
  await sql`insert into devices (tenant_id, name, label, type, access_token, status) values (${tenantId}, 'poison', 'Poison', 'SENSOR', ${token}, 'Online')`.execute(
    db,
  );
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { username: token, reconnectPeriod: 0 });
  const device = await ingest.deviceForToken(token);
  if (!device) throw new Error('poison device not found');
  const sent = { mqtt: 0, buffer: 0 };
  const timer = setInterval(() => {
    sent.mqtt++;
    client.publish('v1/devices/me/telemetry', JSON.stringify({ note: 'bad\u0000value', t: 1 }), { qos: 1 });
    const stored = ingest.buffer.addNow({
      device,
      kind: 'telemetry',
      readings: [{ key: 'note', ts: Date.now(), value: 'bad\u0000value' }],
    });
    if (stored) sent.buffer++;
  }, 1000);
  return { timer, client, sent };
}

const { benchName, database, tenantId, tokensFile, drop } = await seedBenchDatabase(benchUrl, devices);
try {
  const mqttPort = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DEMO: 'false',
    DATABASE_URL: benchUrl.toString(),
    WEB_DIST: '/nonexistent',
    MQTT_PORT: String(mqttPort),
    // the ceiling of ingest is measured (10,000 devices of one tenant): no rate limits unless set
    TELEMETRY_RATE_LIMIT_DEVICE_MESSAGES: '',
    TELEMETRY_RATE_LIMIT_DEVICE_BYTES: '',
    TELEMETRY_RATE_LIMIT_TENANT_MESSAGES: '',
    TELEMETRY_RATE_LIMIT_TENANT_BYTES: '',
  };
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('TELEMETRY_') && v) env[k] = v;
  const config = loadConfig(env);
  const { app, handles } = await buildApp({ config, database, logger: false });
  await app.ready();
  const { runtime, ingest } = handles.telemetry;
  await runtime.startMqtt({ port: mqttPort });
  await runtime.startBackground();
  const poisonTimer = process.env.BENCH_POISON === '1' ? await startPoison(database.db, tenantId, mqttPort, ingest) : null;

  const t = config.telemetry;
  console.log(
    `devices ${devices} (QoS 1 share ${qos1Share}), ~95-byte JSON with 3 keys, PostgreSQL ${benchName}; batch ${t.batchSize}, ` +
      `flush ${t.flushIntervalMs} ms, flushers ${t.flushConcurrency}, latest every ${t.latestFlushMs} ms; load ${load()}`,
  );
  const serverWindows = new Map<
    string,
    {
      stored: number;
      flushes: number;
      flushed: number;
      flushMs: number;
      at: number;
      load?: string;
      cpu?: ReturnType<ReturnType<typeof watchWindow>>;
    }
  >();
  const watches = new Map<string, ReturnType<typeof watchWindow>>();
  const product = await runPublisher({
    port: mqttPort,
    tokensFile,
    topicMode: 'me',
    qos1Share,
    phases,
    onEdge: (phase, edge) => {
      const s = ingest.stats();
      const b = ingest.buffer.stats();
      const now = { stored: s.stored, flushes: b.flushes, flushed: b.flushedMessages, flushMs: b.flushMsTotal, at: performance.now() };
      if (edge === 'start') {
        serverWindows.set(phase, now);
        watches.set(
          phase,
          watchWindow(() => ingest.stats().stored),
        );
      } else {
        const start = serverWindows.get(phase);
        if (!start) return;
        const cpu = watches.get(phase)?.();
        const sec = (now.at - start.at) / 1000;
        const flushes = now.flushes - start.flushes;
        serverWindows.set(phase, {
          stored: Math.round((now.stored - start.stored) / sec),
          flushes,
          flushed: flushes ? Math.round((now.flushed - start.flushed) / flushes) : 0,
          flushMs: flushes ? Math.round((now.flushMs - start.flushMs) / flushes) : 0,
          at: sec,
          load: load(),
          cpu,
        });
      }
    },
  });
  if (poisonTimer) clearInterval(poisonTimer.timer);
  await poisonTimer?.client.endAsync();
  await ingest.buffer.drain();
  const rows = Number((await sql<{ n: number }>`select count(*)::int as n from telemetry`.execute(database.db)).rows[0]?.n);
  const stats = ingest.stats();
  await app.close();
  console.log(`product: ${product.connected} devices connected in ${product.connectMs} ms`);
  for (const r of product.results) {
    const w = serverWindows.get(r.phase);
    console.log(
      `  ${r.phase}: ${JSON.stringify({ ...r, storedPerSecond: w?.stored, flushes: w?.flushes, averageBatch: w?.flushed, averageFlushMs: w?.flushMs, ...w?.cpu, loadAtEnd: w?.load })}`,
    );
  }
  console.log(
    `  telemetry rows ${rows} (3 per message), accepted ${stats.accepted}, stored ${stats.stored}, refused ${Object.values(stats.rejected).reduce((a, b) => a + b, 0)}, ` +
      `dead-lettered ${stats.deadLettered}${poisonTimer ? `; poison sent: ${poisonTimer.sent.mqtt} over MQTT, ${poisonTimer.sent.buffer} past the parser` : ''}`,
  );

  const broker =
    process.env.BENCH_BROKER === 'off'
      ? { connected: 0, connectMs: 0, results: [] }
      : await runPublisher({ port: 1883, tokensFile, topicMode: 'token', qos1Share, phases });
  console.log(`bare Mosquitto 127.0.0.1:1883: ${broker.connected} devices connected in ${broker.connectMs} ms`);
  for (const r of broker.results) console.log(`  ${r.phase}: ${JSON.stringify(r)}`);

  const sustainedP = product.results.find((r) => r.phase === 'sustained');
  const saturationP = product.results.find((r) => r.phase === 'saturation');
  const saturationB = broker.results.find((r) => r.phase === 'saturation');
  const sustainedStored = serverWindows.get('sustained')?.stored ?? 0;
  const ceilingStored = serverWindows.get('saturation')?.stored ?? 0;
  // the broker takes a QoS 0 message once it reads it and a QoS 1 message once it acks it
  const brokerTaken = saturationB
    ? Math.round((saturationB.sent - (saturationB.sentQos1 as number) + saturationB.acked) / (saturationB.windowSeconds as number))
    : 0;
  const sustained = sustainedP && sustainedP.unacked === 0 && sustainedStored >= sustainedP.sentPerSecond * 0.98;
  const publisherBound = saturationB ? saturationB.sentPerSecond < saturationRate * 0.95 : false;
  const ratio = brokerTaken ? (ceilingStored / brokerTaken).toFixed(2) : 'n/a';
  console.log(
    `\nRESULT${process.env.BENCH_POISON === '1' ? ' (poison every second)' : ''} offered ${rate} msg/s: sent ${sustainedP?.sentPerSecond}/s, stored ${sustainedStored}/s (${sustained ? 'sustained' : 'NOT sustained'}), ` +
      `p50 ${sustainedP?.p50Ms} ms, p99 publish-to-queryable ${sustainedP?.p99Ms} ms (goal < 1000); ` +
      `saturation: product stored ${ceilingStored}/s (goal >= 20000), p99 ${saturationP?.p99Ms} ms; ` +
      `Mosquitto took ${brokerTaken}/s (p99 ${saturationB?.p99Ms} ms)${publisherBound ? ', all the publisher could send' : ''}; ` +
      `ratio product/broker ${publisherBound ? `<= ${ratio}` : ratio}; load ${load()}`,
  );
} finally {
  await drop();
}
process.exit(0);
