/**
 * What the telemetry benches share: the bench database with its fleet of devices, and the publisher (publisher.ts)
 * run as a child process.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import pg from 'pg';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';

export interface Phase {
  name: string;
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

export interface PhaseResult {
  phase: string;
  offeredPerSecond: number;
  windowSeconds: number;
  sent: number;
  sentPerSecond: number;
  skipped: number;
  sentQos1: number;
  acked: number;
  unacked: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  [k: string]: unknown;
}

const startScript: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts.start;

/**
 * How `npm start` runs the product: its Node flags and environment, read from package.json. The product runs as
 * Node strips its types, not through tsx (whose transform adds work to every function: 5 to 10 % more CPU per
 * ingested message), so the benches run it that way too.
 */
export const PRODUCT_START = {
  flags: startScript.match(/--max-semi-space-size=\d+/g) ?? [],
  env: Object.fromEntries([...startScript.matchAll(/(?:^|\s)([A-Z][A-Z_]*)=(\S+)/g)].map((m) => [m[1] as string, m[2] as string])),
};

/** Node options less a tsx loader (`--import tsx`), which a bench may have been started with. */
export function withoutTsx(execArgv: readonly string[]) {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    if (/^--(import|require|loader)=tsx$/.test(arg)) continue;
    if (/^--(import|require|loader)$/.test(arg) && execArgv[i + 1] === 'tsx') {
      i++;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}

/** CPU seconds (user + system) of a process, from /proc. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of all PostgreSQL processes of the machine, or null where /proc cannot tell. */
export function postgresCpu(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

/** The machine's load averages (1, 5, 15 minutes). */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * Drops and makes anew the bench database (it must be named bench_*), migrates it and seeds one tenant with `devices`
 * devices, all Online; their tokens go to a file, one a line, for the publisher. `drop()` closes and drops it.
 */
export async function seedBenchDatabase(benchUrl: URL, devices: number) {
  const benchName = benchUrl.pathname.slice(1);
  if (!/^bench_\w+$/.test(benchName)) throw new Error('the bench database must be named bench_*: it is dropped and made anew');
  const adminUrl = new URL(benchUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${benchName} with (force)`);
  await admin.query(`create database ${benchName}`);
  const database = openPostgres(benchUrl.toString(), 10);
  const drop = async () => {
    await database.close();
    await admin.query(`drop database if exists ${benchName} with (force)`);
    await admin.end();
  };
  try {
    await migrateToLatest(database.db);
    const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
    await sql`
      insert into devices (tenant_id, name, label, type, access_token)
      select ${tenantId}, 'bench-' || g, 'Bench ' || g, 'SENSOR', md5(g::text || 'sw') || '-' || g
      from generate_series(1, ${devices}) g`.execute(database.db);
    // a steady estate: the devices were online before the run (after an outage each device flips to Online once, with
    // a device.status event; that burst is not what a sustained rate measures)
    await sql`update devices set status = 'Online', last_activity_at = now() where tenant_id = ${tenantId}`.execute(database.db);
    const tokens = (
      await sql<{ t: string }>`select access_token as t from devices where tenant_id = ${tenantId} order by id`.execute(database.db)
    ).rows.map((r) => r.t);
    const tokensFile = `/tmp/${benchName}-tokens.txt`;
    writeFileSync(tokensFile, tokens.join('\n'));
    return { benchName, database, tenantId, tokensFile, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

/**
 * Runs the publisher (publisher.ts) in a child process; `onEdge` is called at each measurement window's start and end
 * (the caller samples the server there). Topic mode `me`: the embedded broker knows the device by its username;
 * `token`: the token is in the topic (an external broker).
 */
export function runPublisher(options: {
  host?: string;
  port: number;
  tokensFile: string;
  topicMode: 'me' | 'token';
  qos1Share: number;
  phases: Phase[];
  onEdge?: (phase: string, edge: 'start' | 'end') => void;
}) {
  return new Promise<{ connected: number; connectMs: number; results: PhaseResult[] }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'bench/telemetry/publisher.ts',
        options.host ?? '127.0.0.1',
        String(options.port),
        options.tokensFile,
        options.topicMode,
        String(options.qos1Share),
        JSON.stringify(options.phases),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const results: PhaseResult[] = [];
    let connected = 0;
    let connectMs = 0;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const edge = /^PHASE (\w+) (start|end)$/.exec(line);
      if (edge) return options.onEdge?.(edge[1] as string, edge[2] as 'start' | 'end');
      try {
        const parsed = JSON.parse(line);
        if ('connected' in parsed) {
          connected = parsed.connected;
          connectMs = parsed.connectMs;
        } else results.push(parsed);
      } catch {
        process.stderr.write(`${line}\n`);
      }
    });
    child.on('exit', (code) => (code === 0 ? resolve({ connected, connectMs, results }) : reject(new Error(`publisher exited ${code}`))));
  });
}
