/**
 * Bulk device commands at fleet size: one command to DEVICES simulated MQTT devices (each its own connection to the
 * embedded broker, subscribed to its commands, answering at once; all in a child process, devices.ts), sent through the HTTP API as a bulk command by
 * site. Measured at the push level: a signed-in WebSocket on /ws receives the `command.updated` events a browser
 * gets; the first reply is the first `successful` event after the POST, the total is when every device's command
 * is final. Goal: 500 devices within 60 s, the first reply within 1 s.
 * Run: node --import tsx bench/commands/run.ts   (DEVICES=500; BENCH_PG=postgres://… for PostgreSQL)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { signIn } from '../support/sign-in.ts';
import { BENCH_CAPTCHA, withCommandsServer } from './server.ts';

const DEVICES = Number(process.env.DEVICES ?? 500);
const ADMIN_URL = process.env.BENCH_PG;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function main() {
  let stopDevices = () => {};
  await withCommandsServer('commands', async ({ app, handles, database, tenantId, port, base, mqttPort }) => {
    const site = await database.db
      .insertInto('assets')
      .values({ tenant_id: tenantId, name: 'Bench Yard', address: ['Bench'] as never, metadata: '{}' as never })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = await database.db
      .insertInto('devices')
      .values(
        Array.from({ length: DEVICES }, (_, i) => ({
          tenant_id: tenantId,
          name: `bench-${i}`,
          label: `bench-${i}`,
          type: 'RELAY',
          access_token: randomBytes(12).toString('hex'),
          template_id: null,
          asset_id: site.id,
          parent_id: null,
          metadata: JSON.stringify({ muteDevice: false, maintenance: false, enableDevice: true }) as never,
        })),
      )
      .returning(['id', 'access_token'])
      .execute();

    let connectMs = performance.now();
    // the devices run in a process of their own, as they would on their own hardware
    const devices = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'devices.ts')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    stopDevices = () => devices.kill('SIGTERM');
    devices.stdin.end(JSON.stringify({ url: `mqtt://127.0.0.1:${mqttPort}`, tokens: rows.map((r) => r.access_token) }));
    await new Promise<void>((resolve, reject) => {
      devices.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      devices.once('exit', (code) => reject(new Error(`device process exited with ${code}`)));
    });
    connectMs = performance.now() - connectMs;
    await new Promise((r) => setTimeout(r, 500));
    const subscribed = handles.commands.dispatcher.connected().mqtt;

    const session = await signIn(base, BENCH_CAPTCHA);
    const ws = new WebSocket(`ws://localhost:${port}/ws`, { headers: { cookie: session.cookie, host: `localhost:${port}` } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 300));

    const final = new Set(['successful', 'failed', 'timeout', 'expired']);
    const doneAt = new Map<number, number>();
    let sentAt = 0;
    let firstReply = Number.NaN;
    let bulkId = 0;
    let events = 0;
    const allDone = new Promise<void>((resolve) => {
      ws.on('message', (data) => {
        const envelope = JSON.parse(String(data)) as { type: string; data: { commandId: number; state: string; bulkId: number | null } };
        if (envelope.type !== 'command.updated') return;
        events++;
        if (!final.has(envelope.data.state)) return;
        const now = performance.now();
        if (Number.isNaN(firstReply) && envelope.data.state === 'successful') firstReply = now - sentAt;
        doneAt.set(envelope.data.commandId, now - sentAt);
        if (doneAt.size >= DEVICES) resolve();
      });
    });
    sentAt = performance.now();
    const res = await fetch(`${base}/api/commands/bulk/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: session.cookie,
        'x-csrftoken': /csrftoken=([^;]+)/.exec(session.cookie)?.[1] ?? '',
        authorization: `Bearer ${session.access}`,
      },
      body: JSON.stringify({ target: { kind: 'site', assetId: site.id }, method: 'setRelay', params: { on: true }, timeoutMs: 60_000 }),
    });
    const postMs = performance.now() - sentAt;
    if (res.status !== 201) throw new Error(`bulk send failed: ${res.status} ${await res.text()}`);
    bulkId = ((await res.json()) as { id: number }).id;
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 120_000));
    const outcome = await Promise.race([allDone.then(() => 'done' as const), timeout]);
    const totalMs = performance.now() - sentAt;
    const status = await fetch(`${base}/api/commands/bulk/${bulkId}/?limit=1`, {
      headers: { cookie: session.cookie, authorization: `Bearer ${session.access}` },
    });
    const counts = ((await status.json()) as { counts: Record<string, number> }).counts;
    const times = [...doneAt.values()].sort((a, b) => a - b);
    const ms = (v: number) => `${Math.round(v)} ms`;
    console.log(
      `\nBulk command to ${DEVICES} MQTT devices (${ADMIN_URL ? 'PostgreSQL' : 'PGlite'}), load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(`  devices connected and subscribed   ${subscribed} in ${ms(connectMs)}`);
    console.log(`  POST /api/commands/bulk/ answered  ${ms(postMs)}`);
    console.log(`  first reply pushed on /ws          ${ms(firstReply)}   (goal ≤ 1000 ms)`);
    console.log(`  per device final  p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}  max ${ms(times.at(-1) ?? Number.NaN)}`);
    console.log(
      `  all ${doneAt.size}/${DEVICES} final (pushed)       ${ms(totalMs)}   (goal ≤ 60000 ms)${outcome === 'timeout' ? '  TIMED OUT' : ''}`,
    );
    console.log(`  command.updated events received    ${events}`);
    console.log(`  states by the API                  ${JSON.stringify(counts)}`);
    ws.close();
    stopDevices();
    await app.close();
  }).finally(() => stopDevices());
}

await main();
process.exit(0);
