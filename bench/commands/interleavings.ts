/**
 * Randomised interleavings of one device's connections around its commands (connect, command sent, PUBACK, clean
 * close, cut connection, reply over MQTT or HTTP, reply cut half-way, pauses), each on a device of its own, many at
 * once, through the embedded broker with real mqtt.js clients (apps/server/test/support/command-interleavings.ts).
 * Counts request ids executed twice by a device that drops repeats until its reply is acknowledged, and replies
 * lost. Goal: 0 / 0.
 * Run: node --import tsx bench/commands/interleavings.ts   (RUNS=10000 CONCURRENCY=50 SEED=1; BENCH_PG=postgres://… for PostgreSQL)
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import {
  type InterleavingApi,
  type InterleavingOutcome,
  randomSteps,
  runInterleaving,
  seeded,
} from '../../apps/server/test/support/command-interleavings.ts';
import { signIn } from '../support/sign-in.ts';
import { BENCH_CAPTCHA, withCommandsServer } from './server.ts';

const RUNS = Number(process.env.RUNS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 50);
const SEED = Number(process.env.SEED ?? 1);
const ADMIN_URL = process.env.BENCH_PG;

async function main() {
  await withCommandsServer('interleavings', async ({ app, handles, database, tenantId, base }) => {
    const site = await database.db
      .insertInto('assets')
      .values({ tenant_id: tenantId, name: 'Interleaving Yard', address: ['Bench'] as never, metadata: '{}' as never })
      .returning('id')
      .executeTakeFirstOrThrow();
    const devices: Array<{ id: number; access_token: string }> = [];
    for (let from = 0; from < RUNS; from += 2000) {
      const rows = await database.db
        .insertInto('devices')
        .values(
          Array.from({ length: Math.min(2000, RUNS - from) }, (_, i) => ({
            tenant_id: tenantId,
            name: `il-${from + i}`,
            label: `il-${from + i}`,
            type: 'ROUTER',
            access_token: randomBytes(12).toString('hex'),
            template_id: null,
            asset_id: site.id,
            parent_id: null,
            metadata: JSON.stringify({ muteDevice: false, maintenance: false, enableDevice: true }) as never,
          })),
        )
        .returning(['id', 'access_token'])
        .execute();
      devices.push(...rows);
    }
    const session = await signIn(base, BENCH_CAPTCHA);
    const headers = {
      'content-type': 'application/json',
      cookie: session.cookie,
      'x-csrftoken': /csrftoken=([^;]+)/.exec(session.cookie)?.[1] ?? '',
      authorization: `Bearer ${session.access}`,
    };
    const api: InterleavingApi = {
      mqttUrl: `mqtt://127.0.0.1:${handles.telemetry.runtime.mqttPort}`,
      async send(deviceId) {
        const res = await fetch(`${base}/api/commands/`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ deviceId, method: 'reboot', timeoutMs: 600_000 }),
        });
        if (res.status !== 201) throw new Error(`send failed: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { id: number }).id;
      },
      async commands(ids) {
        if (ids.length === 0) return [];
        return database.db.selectFrom('device_commands').select(['id', 'state', 'response']).where('id', 'in', ids).execute();
      },
      async httpReply(token, id, body) {
        const res = await fetch(`${base}/api/v1/${token}/rpc/${id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        return res.status;
      },
    };

    const total: InterleavingOutcome = { executedTwice: 0, repliesLost: 0, resentAfterAck: 0, neverDelivered: 0 };
    const failing: number[] = [];
    let next = 0;
    let finished = 0;
    let steps = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let run = next++; run < RUNS; run = next++) {
          const random = seeded(SEED * 1_000_003 + run);
          const plan = randomSteps(random, 4 + Math.floor(random() * 14));
          steps += plan.length;
          const device = devices[run] as (typeof devices)[number];
          const outcome = await runInterleaving(api, { id: device.id, token: device.access_token }, plan, random);
          let bad = false;
          for (const key of Object.keys(total) as Array<keyof InterleavingOutcome>) {
            total[key] += outcome[key];
            if (outcome[key] > 0) bad = true;
          }
          if (bad && failing.length < 10) failing.push(run);
          if (bad && process.env.VERBOSE) {
            const rows = await database.db
              .selectFrom('device_commands')
              .select(['id', 'state', 'response'])
              .where('device_id', '=', device.id)
              .execute();
            console.log(run, plan.join(' '), JSON.stringify(outcome), JSON.stringify(rows));
          }
          if (++finished % 500 === 0) process.stderr.write(`  ${finished} interleavings: ${JSON.stringify(total)}\n`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const [commands] = await Promise.all([
      database.db
        .selectFrom('device_commands')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    console.log(
      `\n${RUNS} randomised interleavings (${ADMIN_URL ? 'PostgreSQL' : 'PGlite'}, ${CONCURRENCY} devices at once, seed ${SEED}), ` +
        `${steps} steps, ${Number(commands.n)} commands, ${seconds.toFixed(1)} s, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    console.log(`  executed twice           ${total.executedTwice}   (goal 0)`);
    console.log(`  replies lost             ${total.repliesLost}   (goal 0)`);
    console.log(`  sent again after PUBACK  ${total.resentAfterAck}   (goal 0)`);
    console.log(`  never delivered          ${total.neverDelivered}   (goal 0)`);
    if (failing.length > 0) console.log(`  failing runs (repeat with the same SEED): ${failing.join(', ')}`);
    await app.close();
  });
}

await main();
process.exit(0);
