/**
 * Dynamic forms at scale, on PostgreSQL with 1,000,000 responses of one form:
 * - p95 of saving a 50-field template (goal ≤ 100 ms), through the service the PUT route calls (checks, the new
 *   version row and the template row in one transaction);
 * - p95 of the response list's first page (goal < 100 ms), unfiltered and with a date range, with its count;
 * - p95 of a deep keyset page (the 400th) to show that depth costs nothing.
 * Run: node --import tsx bench/forms/run.ts [--keep]   (BENCH_DATABASE_URL overrides the admin URL)
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { createResponseService } from '../../apps/server/src/modules/forms/response-service.ts';
import { createTemplateService } from '../../apps/server/src/modules/forms/template-service.ts';
import { createUserDirectory } from '../../apps/server/src/modules/users/directory.ts';
import type { AuthContext } from '../../apps/server/src/platform/auth/context.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import { createEventBus } from '../../apps/server/src/platform/events.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { systemClock } from '../../apps/server/src/platform/module.ts';
import { adminQuery } from '../../apps/server/test/support/pg-admin.ts';
import { FORM_PERMISSIONS, formResponseListQuerySchema, formTemplateInputSchema } from '../../packages/contracts/src/index.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DATABASE_NAME ?? 'bench_forms';
const RESPONSES = 1_000_000;
const keep = process.argv.includes('--keep');
const url = new URL(ADMIN_URL);
url.pathname = `/${DB_NAME}`;

const admin = (statement: string) => adminQuery(ADMIN_URL, statement);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;
async function sample(n: number, fn: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return { p95: p95(times), median: median(times) };
}

function fiftyFields(round: number) {
  const types = ['string', 'radio', 'rating', 'dateTime', 'toggle', 'duration', 'time', 'daterange', 'assetApiSelect', 'multiLevelSelect'];
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) {
    const type = types[i % types.length] as string;
    properties[`q${i}`] = {
      type,
      label: `Question ${i}`,
      description: `Round ${round}`,
      ...(type === 'radio' ? { enum: ['Yes', 'No', 'N/A'] } : {}),
      ...(type === 'multiLevelSelect' ? { options: [{ label: 'A', children: [{ label: 'A1' }] }] } : {}),
      ...(type === 'string' && i % 20 === 0 ? { validation: { kind: 'number', min: 0, max: 100 } } : {}),
    };
  }
  return formTemplateInputSchema.parse({
    name: 'bench-audit',
    label: 'Bench audit',
    views: ['/assets/view/{id}'],
    metadata: { schema: { type: 'object', properties, required: ['q0', 'q1'] } },
  });
}

const exists = await (async () => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  const { rows } = await client.query('select 1 from pg_database where datname = $1', [DB_NAME]);
  await client.end();
  return rows.length > 0;
})();
if (!exists) await admin(`create database ${DB_NAME}`);
const database = openPostgres(url.toString(), 4);
const { db } = database;
try {
  await migrateToLatest(db);
  let tenantId = (await db.selectFrom('tenants').select('id').where('slug', '=', 'demo').executeTakeFirst())?.id;
  if (tenantId === undefined) tenantId = await seedFoundation(db, { slug: 'demo', name: 'Bench', mobilePrefix: '90000000' });
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('username', '=', 'customeradmin')
    .executeTakeFirstOrThrow();
  const auth: AuthContext = {
    userId: user.id,
    tenantId,
    sessionId: 'bench',
    loginRole: 'auth',
    refreshGen: 0,
    roles: ['customeradmin'],
    permissions: new Set([FORM_PERMISSIONS.build, FORM_PERMISSIONS.readResponses]),
  };
  const users = createUserDirectory(db);
  const templates = createTemplateService({ db, users });
  const unused = () => {
    throw new Error('not used by the bench');
  };
  const responses = createResponseService({
    db,
    events: createEventBus(),
    clock: systemClock,
    blobs: { put: unused, write: unused, open: unused, delete: unused, sweepPartial: unused },
    directory: { asset: unused, device: unused, visibleAssetIds: unused, usersForAsset: unused },
    users,
    templates,
    actions: { run: async () => [] },
    log: console,
  });

  const existing = await db
    .selectFrom('form_templates')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', 'bench-audit')
    .executeTakeFirst();
  const formId = existing?.id ?? (await templates.create(auth, fiftyFields(0), null)).id;
  const have = (await db.selectFrom('form_templates').select('response_count').where('id', '=', formId).executeTakeFirstOrThrow())
    .response_count;
  if (have < RESPONSES) {
    const t0 = performance.now();
    const missing = RESPONSES - have;
    for (let done = 0; done < missing; done += 100_000) {
      const n = Math.min(100_000, missing - done);
      // A year of answers, newest last; each row carries ten answers like a real audit.
      await sql`
        insert into form_responses (tenant_id, template_id, version, data, submitted_by, created_at)
        select ${tenantId}, ${formId}, 1,
               jsonb_build_object('q0', 'Site ' || g, 'q1', 'Yes', 'q2', 1 + g % 5, 'q3', '2026-01-01', 'q4', g % 2 = 0,
                                  'q5', '1hr 0min 0sec', 'q6', '09:30', 'q7', '2026/01/01 - 2026/01/31', 'q10', 'Note ' || g),
               ${user.id}, now() - ((${done} + g) * interval '31 seconds')
        from generate_series(1, ${n}::int) g`.execute(db);
      await db
        .updateTable('form_templates')
        .set((eb) => ({ response_count: eb('response_count', '+', n) }))
        .where('id', '=', formId)
        .execute();
    }
    await sql`analyze form_responses`.execute(db);
    console.log(`seeded ${missing.toLocaleString()} responses in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  const save = await sample(100, (i) => templates.update(auth, formId, fiftyFields(i + 1), null));
  console.log(`50-field template save: p95 ${ms(save.p95)}, median ${ms(save.median)} (goal ≤ 100 ms)`);

  const q = (extra: Record<string, unknown>) => formResponseListQuerySchema.parse({ limit: 25, ...extra });
  await responses.list(auth, formId, q({}));
  const first = await sample(200, () => responses.list(auth, formId, q({})));
  console.log(`response list, first page of 1,000,000: p95 ${ms(first.p95)}, median ${ms(first.median)} (goal < 100 ms)`);
  const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const to = new Date(Date.now() - 20 * 86_400_000).toISOString();
  const ranged = await sample(200, () => responses.list(auth, formId, q({ from, to })));
  console.log(`response list, first page with a 10-day range: p95 ${ms(ranged.p95)}, median ${ms(ranged.median)}`);
  let cursor: string | undefined;
  for (let i = 0; i < 399; i++) cursor = (await responses.list(auth, formId, q({ cursor }))).nextCursor ?? undefined;
  const deep = await sample(100, () => responses.list(auth, formId, q({ cursor })));
  console.log(`response list, 400th page: p95 ${ms(deep.p95)}, median ${ms(deep.median)}`);
} finally {
  await database.close();
  if (!keep) await admin(`drop database if exists ${DB_NAME}`);
}
