/**
 * SNMP trap receive-and-forward benchmark, side by side with Net-SNMP's snmptrapd forwarding the same traps.
 *
 * A load generator (a child Node process) sends SNMPv2c traps at a fixed rate to the target, and the same child
 * runs the downstream manager the target forwards to: every trap carries its send time, so receive-to-forward
 * latency is measured on one clock. Targets:
 *   - the product: the built-in receiver (this process, buildApp), a device whose address is the sender's, one
 *     filter taking every trap to one v2c destination (the downstream manager);
 *   - snmptrapd -f with `forward default udp:127.0.0.1:<port>` (the baseline).
 * Phases per target: 2,000 traps/s (goal: no loss) and 5,000 traps/s (goal: sustained), each BENCH_SECONDS long
 * (default 30; --long runs 5 min each, 10 min per target). Printed: offered, forwarded (received downstream), loss,
 * p50/p99/max receive-to-forward, the target's CPU, and the machine's load.
 *
 *   node --import tsx bench/snmp/run.ts [--long]      env: BENCH_SECONDS, BENCH_RATES (2000,5000), BENCH_DATABASE_URL
 *   (PostgreSQL; PGlite in a temp folder when unset), BENCH_TARGETS (product,snmptrapd)
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import snmp from 'net-snmp';

const MARK_OID = '1.3.6.1.4.1.424242.9';
const TRAP_OID = '1.3.6.1.4.1.424242.0.1';

interface PhaseResult {
  sent: number;
  got: number;
  p50: number;
  p99: number;
  max: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/** The child: sends `rate` traps/s for `seconds` to `target`, counts what reaches `downstream`, prints one JSON line. */
async function child() {
  const [, , , targetPort, downstreamPort, rateArg, secondsArg, community = 'public'] = process.argv;
  const rate = Number(rateArg);
  const seconds = Number(secondsArg);
  const latencies: number[] = [];
  const seen = new Set<number>();
  const sink = createSocket({ type: 'udp4', recvBufferSize: 8 * 1024 * 1024 });
  const mark = /@@(\d+):([\d.]+)@@/;
  sink.on('message', (msg) => {
    const m = mark.exec(msg.toString('latin1'));
    if (!m) return;
    const seq = Number(m[1]);
    if (seen.has(seq)) return;
    seen.add(seq);
    latencies.push(performance.now() - Number(m[2]));
  });
  await new Promise<void>((r) => sink.bind(Number(downstreamPort), '127.0.0.1', () => r()));
  const session = snmp.createSession('127.0.0.1', community, { trapPort: Number(targetPort), version: snmp.Version2c });
  session.on('error', () => undefined);
  let seq = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(Math.floor(((now - started) / 1000) * rate), Math.floor(seconds * rate));
      while (seq < due) {
        seq++;
        session.trap(
          TRAP_OID,
          [{ oid: MARK_OID, type: snmp.ObjectType.OctetString, value: `@@${seq}:${performance.now().toFixed(3)}@@` }],
          () => undefined,
        );
      }
      if (now >= end) resolve();
      else setTimeout(tick, 5);
    };
    tick();
  });
  await new Promise((r) => setTimeout(r, 3000));
  session.close();
  sink.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? Number.NaN;
  const result: PhaseResult = { sent: seq, got: seen.size, p50: q(0.5), p99: q(0.99), max: latencies.at(-1) ?? Number.NaN };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runPhase(targetPort: number, downstreamPort: number, rate: number, seconds: number, community = 'public'): Promise<PhaseResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1] as string,
        '--child',
        String(targetPort),
        String(downstreamPort),
        String(rate),
        String(seconds),
        community,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as PhaseResult);
      } catch {
        reject(new Error(`load generator exited ${code}: ${out}`));
      }
    });
  });
}

/** CPU seconds (user + system) of a process, from /proc. */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
function report(target: string, rate: number, seconds: number, r: PhaseResult, cpu: number, extra = '') {
  const loss = r.sent - r.got;
  console.log(
    `${target.padEnd(10)} ${String(rate).padStart(5)}/s × ${seconds}s  offered ${r.sent}  forwarded ${r.got} (${fmt(r.got / seconds)}/s)  ` +
      `lost ${loss} (${fmt((loss / Math.max(1, r.sent)) * 100)} %)  p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  max ${fmt(r.max)} ms  ` +
      `cpu ${fmt((cpu / seconds) * 100)} % of a core${extra}  load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
}

async function benchProduct(rates: number[], seconds: number) {
  const { buildApp } = await import('../../apps/server/src/app.ts');
  const { loadConfig } = await import('../../apps/server/src/config.ts');
  const { DEMO_TENANTS, seedFoundation } = await import('../../apps/server/src/demo/foundation.ts');
  const { openDatabase } = await import('../../apps/server/src/platform/db.ts');
  const { migrateToLatest } = await import('../../apps/server/src/platform/migrate.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'snmp-bench-'));
  const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir });
  await migrateToLatest(database.db);
  const trapPort = await freePort();
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DEMO: 'false',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    METRICS: 'false',
    SNMP_TRAP_HOST: '127.0.0.1',
    SNMP_TRAP_PORT: String(trapPort),
    SNMP_TRAP_RATE_PER_SOURCE: '1000000',
    TRAP_FORWARD_NETWORKS: 'any',
    OUTBOUND_NETWORKS: '127.0.0.0/8',
  });
  const { app, handles } = await buildApp({ config, database, logger: { level: 'warn' } });
  await app.ready();
  const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
  await database.db
    .insertInto('devices')
    .values({
      tenant_id: tenantId,
      name: 'BENCH:RTR-01',
      label: 'RTR-01',
      type: 'ROUTER',
      access_token: `bench-${Date.now()}`,
      metadata: JSON.stringify({ ipAddress: '127.0.0.1', enableDevice: true }),
    })
    .execute();
  const actor = {
    userId: 1,
    tenantId,
    roles: ['customeradmin'],
    permissions: new Set(['add_trap_destination', 'add_trap_filter']),
  };
  // the product takes traps only with the tenant's own community
  const { trap_community: community } = await database.db
    .selectFrom('tenants')
    .select('trap_community')
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  await handles.snmp.receiver.start();
  for (const rate of rates) {
    const downstream = await freePort();
    const dest = await handles.snmp.service.createDestination(actor, {
      name: `bench ${rate}`,
      host: '127.0.0.1',
      port: downstream,
      version: 'v2c',
      mode: 'trap',
      community: 'public',
      user: '',
      securityLevel: 'noAuthNoPriv',
      authProtocol: 'sha',
      privProtocol: 'aes',
      enabled: true,
    });
    const filter = await handles.snmp.service.createFilter(actor, {
      name: `all ${rate}`,
      oidPrefix: '',
      varbindOid: null,
      varbindValue: null,
      deviceId: null,
      assetId: null,
      minSeverity: null,
      destinationIds: [dest.id],
      enabled: true,
    });
    const before = { ...(handles.snmp.stats.totals(tenantId) ?? { received: 0 }) };
    const cpu0 = process.cpuUsage();
    const r = await runPhase(trapPort, downstream, rate, seconds, community);
    const cpu = process.cpuUsage(cpu0);
    const received = (handles.snmp.stats.totals(tenantId)?.received ?? 0) - (before.received ?? 0);
    report('product', rate, seconds, r, (cpu.user + cpu.system) / 1e6, `  received ${received}`);
    await handles.snmp.service.deleteFilter({ ...actor, permissions: new Set(['delete_trap_filter', 'view_trap_filter']) }, filter.id);
    await handles.snmp.service.deleteDestination({ ...actor, permissions: new Set(['delete_trap_destination']) }, dest.id);
  }
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

async function benchSnmptrapd(rates: number[], seconds: number) {
  for (const rate of rates) {
    const trapPort = await freePort();
    const downstream = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'snmptrapd-bench-'));
    const conf = join(dir, 'snmptrapd.conf');
    writeFileSync(conf, `disableAuthorization yes\nforward default udp:127.0.0.1:${downstream}\ndoNotLogTraps yes\n`);
    const daemon = spawn(
      'snmptrapd',
      ['-f', '-C', '-c', conf, '-Lf', '/dev/null', '-M', '/dev/null', '-m', '', `udp:127.0.0.1:${trapPort}`],
      {
        stdio: 'ignore',
        env: { ...process.env, SNMP_PERSISTENT_DIR: dir },
      },
    );
    await new Promise((r) => setTimeout(r, 1000));
    const pid = daemon.pid as number;
    const cpu0 = cpuSecondsOf(pid);
    const r = await runPhase(trapPort, downstream, rate, seconds);
    const cpu = cpuSecondsOf(pid) - cpu0;
    report('snmptrapd', rate, seconds, r, cpu);
    daemon.kill('SIGTERM');
    await new Promise((res) => daemon.once('exit', res));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  await child();
} else {
  const long = process.argv.includes('--long');
  const seconds = Number(process.env.BENCH_SECONDS ?? (long ? 300 : 30));
  const rates = (process.env.BENCH_RATES ?? '2000,5000').split(',').map(Number);
  const targets = (process.env.BENCH_TARGETS ?? 'product,snmptrapd').split(',');
  console.log(
    `SNMP trap forwarding: ${rates.join(', ')} traps/s × ${seconds} s, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, database ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
  if (targets.includes('product')) await benchProduct(rates, seconds);
  if (targets.includes('snmptrapd')) await benchSnmptrapd(rates, seconds);
  process.exit(0);
}
