/**
 * Push figures: 2,000 WebSockets connected to one server process, then the time from an event's emission to its
 * delivery in the browser-side client (p50/p99/max), for events emitted in the same process and for events
 * emitted in another server process (PostgreSQL LISTEN/NOTIFY fan-out), and the memory each connection costs.
 * Run: node --import tsx bench/push/run.ts   (BENCH_PG=postgres://postgres@127.0.0.1:5432/test, SOCKETS=2000)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { sha256 } from '../../apps/server/src/platform/crypto.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';

const ADMIN_URL = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const SOCKETS = Number(process.env.SOCKETS ?? 2000);
const TABS_PER_USER = 10;
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const dbName = `sw_bench_push_${randomBytes(4).toString('hex')}`;
const dbUrl = databaseUrl(ADMIN_URL, dbName);

const admin = (statement: string) => adminQuery(ADMIN_URL, statement);

/** Users (each with the view_ticket permission) and one session per user; returns the session cookies. */
async function prepare(): Promise<{ cookies: string[]; tenantId: number; userIds: number[] }> {
  const database = openPostgres(dbUrl, 4);
  await migrateToLatest(database.db);
  const tenantId = await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
  const group = await database.db
    .selectFrom('groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', 'Viewers')
    .executeTakeFirstOrThrow();
  const users = Math.ceil(SOCKETS / TABS_PER_USER);
  const rows = await database.db
    .insertInto('users')
    .values(
      Array.from({ length: users }, (_, i) => ({
        tenant_id: tenantId,
        username: `bench${i}`,
        firstname: 'Bench',
        lastname: `User ${i}`,
        email: `bench${i}@bench.example.com`,
        password_hash: 'x',
        roles: ['customer'],
        group_ids: [group.id],
        profile: JSON.stringify({}),
        notification_config: JSON.stringify({ popup: true }),
      })),
    )
    .returning('id')
    .execute();
  const cookies: string[] = [];
  const sessions = rows.map((r) => {
    const cookie = randomBytes(24).toString('base64url');
    cookies.push(cookie);
    return {
      id: randomUUID(),
      tenant_id: tenantId,
      user_id: r.id,
      cookie_hash: sha256(cookie),
      login_role: 'auth',
      login_method: 'password',
      expires_at: new Date(Date.now() + 12 * 3600_000),
    };
  });
  await database.db.insertInto('sessions').values(sessions).execute();
  await database.close();
  return { cookies, tenantId, userIds: rows.map((r) => r.id) };
}

interface Node {
  child: ChildProcess;
  port: number;
  send(message: unknown): void;
  memory(): Promise<{ rss: number; heapUsed: number; external: number; sockets: number }>;
}

function startNode(): Promise<Node> {
  const child = fork(new URL('./node.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, BENCH_DB_URL: dbUrl },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`node exited ${code}`)));
    child.on('message', function onReady(message: { type: string; port?: number }) {
      if (message.type !== 'ready') return;
      child.off('message', onReady);
      resolve({
        child,
        port: message.port as number,
        send: (m) => child.send(m as object),
        memory: () =>
          new Promise((done) => {
            const listener = (m: { type: string }) => {
              if (m.type !== 'memory') return;
              child.off('message', listener);
              done(m as never);
            };
            child.on('message', listener);
            child.send({ type: 'memory' });
          }),
      });
    });
  });
}

const latencies: Record<string, number[]> = {};
let scenario = 'warmup';

function connect(port: number, cookie: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { host: 'localhost', cookie: `sw_session=${cookie}` } });
    ws.on('message', (raw) => {
      const now = Date.now();
      const envelope = JSON.parse(String(raw)) as { type: string; data: { sentAt?: number } };
      if (envelope.type === 'hello') return resolve(ws);
      if (typeof envelope.data?.sentAt !== 'number') return;
      const list = latencies[scenario] ?? [];
      latencies[scenario] = list;
      list.push(now - envelope.data.sentAt);
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(name: string, expected: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while ((latencies[name]?.length ?? 0) < expected && Date.now() < deadline) await sleep(20);
}

async function main() {
  await admin(`create database ${dbName}`);
  const nodes: Node[] = [];
  const sockets: WebSocket[] = [];
  try {
    const { cookies, tenantId, userIds } = await prepare();
    const [a, b] = [await startNode(), await startNode()];
    nodes.push(a, b);
    await sleep(500);
    const before = await a.memory();
    const started = Date.now();
    for (let i = 0; i < SOCKETS; i += 100) {
      const batch = Array.from({ length: Math.min(100, SOCKETS - i) }, (_, k) =>
        connect(a.port, cookies[Math.floor((i + k) / TABS_PER_USER)] as string),
      );
      sockets.push(...(await Promise.all(batch)));
    }
    const connectMs = Date.now() - started;
    await sleep(500);
    const after = await a.memory();

    const broadcast = (node: Node, name: string) => {
      scenario = name;
      node.send({
        type: 'emit',
        event: {
          type: 'ticket.updated',
          tenantId,
          payload: { id: 1, ticketId: 'TKT-1', status: 'OPEN', locationId: null, changes: ['title'] },
        },
      });
    };
    // Warm up both paths, then measure.
    broadcast(a, 'warmup');
    broadcast(b, 'warmup');
    await sleep(1000);
    for (const [name, node] of [
      ['same process, broadcast to all sockets', a],
      ['other process via LISTEN/NOTIFY, broadcast', b],
    ] as const) {
      for (let round = 0; round < ROUNDS; round++) {
        broadcast(node, name);
        await waitFor(name, (round + 1) * SOCKETS);
        await sleep(50);
      }
    }
    const targeted = 'other process via LISTEN/NOTIFY, one event per user (10 tabs each)';
    scenario = targeted;
    for (const userId of userIds) {
      b.send({ type: 'emit', event: { type: 'notification.created', tenantId, userIds: [userId], payload: { id: userId } } });
    }
    await waitFor(targeted, userIds.length * TABS_PER_USER);

    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`\nPush benchmark: ${SOCKETS} sockets (${userIds.length} users x ${TABS_PER_USER} tabs) on one server process, PostgreSQL`);
    console.log(`  connected (authenticated) in ${connectMs} ms; the hub counts ${after.sockets} sockets`);
    console.log(
      `  memory per connection: ${((after.rss - before.rss) / SOCKETS / 1024).toFixed(1)} KiB RSS, ${((after.heapUsed + after.external - before.heapUsed - before.external) / SOCKETS / 1024).toFixed(1)} KiB heap+external (server RSS ${mb(before.rss)} -> ${mb(after.rss)} MiB)`,
    );
    for (const [name, values] of Object.entries(latencies)) {
      if (name === 'warmup') continue;
      console.log(
        `  ${name}: ${values.length} deliveries, p50 ${pct(values, 50)} ms, p99 ${pct(values, 99)} ms, max ${Math.max(...values)} ms`,
      );
    }
  } finally {
    for (const ws of sockets) ws.terminate();
    for (const node of nodes) {
      node.send({ type: 'stop' });
      await new Promise((r) => setTimeout(r, 300));
      node.child.kill();
    }
    await sleep(300);
    await admin(`drop database if exists ${dbName} with (force)`);
  }
}

await main();
