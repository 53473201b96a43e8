/**
 * Helpdesk at scale, on PostgreSQL with 1,000,000 tickets (and about 1,900,000 history entries) of one tenant:
 * - p95 of the first page of the ticket list with a status filter and a date range (goal < 100 ms), through
 *   the same service the HTTP route calls (the page and its count), and of searches by words and by ticket number;
 * - p95 of a ticket view with its first page of history (goal < 50 ms);
 * - the escalation sweep over 100,000 open tickets under a policy (goal < 2 s): with nothing due, with 1,000
 *   levels due per sweep, and a backlog of 95,000 due at once; and the SLA sweep (1,000 and 100,000 past due).
 * - p95 of the per-day counts of "group by day" over the filtered list;
 * Run: node --import tsx bench/helpdesk/run.ts [--keep]   (BENCH_DATABASE_URL overrides the admin URL)
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config.ts';
import { seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { createDeviceRecords } from '../../apps/server/src/modules/devices/index.ts';
import { createActivityService } from '../../apps/server/src/modules/helpdesk/activity-service.ts';
import { createAdminService } from '../../apps/server/src/modules/helpdesk/admin-service.ts';
import { createEscalationEngine } from '../../apps/server/src/modules/helpdesk/escalation.ts';
import { createTicketService, type HelpdeskDeps } from '../../apps/server/src/modules/helpdesk/ticket-service.ts';
import { createNotificationService } from '../../apps/server/src/modules/notifications/service.ts';
import { subscribeNotifications } from '../../apps/server/src/modules/notifications/subscriptions.ts';
import { createSiteDirectory } from '../../apps/server/src/modules/sites/directory.ts';
import { createUserDirectory } from '../../apps/server/src/modules/users/directory.ts';
import { createVendorDirectory } from '../../apps/server/src/modules/vendors/index.ts';
import { createLocalBlobStore } from '../../apps/server/src/platform/blobs.ts';
import { type Db, openPostgres } from '../../apps/server/src/platform/db.ts';
import { createEventBus, type DomainEvent } from '../../apps/server/src/platform/events.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { systemClock } from '../../apps/server/src/platform/module.ts';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';
import { customerSettingsSchema, type TicketListQuery } from '../../packages/contracts/src/index.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DATABASE_NAME ?? 'bench_helpdesk';
const TICKETS = 1_000_000;
const SWEEP = 100_000;
const keep = process.argv.includes('--keep');

const url = databaseUrl(ADMIN_URL, DB_NAME);

const admin = (statement: string) => adminQuery(ADMIN_URL, statement);

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function timeIt<T>(fn: () => Promise<T>) {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

const existing = await (async () => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  const { rows } = await client.query('select 1 from pg_database where datname = $1', [DB_NAME]);
  await client.end();
  return rows.length > 0;
})();
if (!existing) await admin(`create database ${DB_NAME}`);
const database = openPostgres(url, 4);
const { db } = database;
const log = { info() {}, warn: console.warn, error: console.error };

try {
  await migrateToLatest(db);
  let tenantId = (await db.selectFrom('tenants').select('id').where('slug', '=', 'demo').executeTakeFirst())?.id;
  if (tenantId === undefined) tenantId = await seedFoundation(db, { slug: 'demo', name: 'Bench', mobilePrefix: '90000000' });
  const users = await db.selectFrom('users').select(['id', 'username']).where('tenant_id', '=', tenantId).execute();
  const adminUser = users.find((u) => u.username === 'customeradmin')?.id as number;
  const userIds = users.map((u) => u.id);

  const count = Number(
    (
      await db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (count < TICKETS) {
    console.log(`generating ${TICKETS.toLocaleString()} tickets and their history…`);
    const t0 = performance.now();
    await db.deleteFrom('tickets').execute();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // A year of tickets; statuses, kinds and priorities in plausible shares; 2,000 sites, the tenant's users.
    await client.query(
      `insert into tickets (tenant_id, ticket_no, type, status, priority, event, sub_event, title, description, assigned_to, created_by,
         created_by_email, location_id, event_date, due_date, resolved_date, metadata, additional_information, status_ageing, checklist,
         sla_breached, created_at, updated_at)
       select $1, 'TKT-' || g, (array['TICKET','TICKET','WORKORDERTICKET','AIAlarmTicket','AlarmTicket','TICKET','WORKORDERTICKET','TICKET'])[1 + g % 8],
         s.status, (array['CRITICAL','MAJOR','MINOR','MINOR','LOW'])[1 + (g * 7) % 5],
         (array['Power Failure','Network Down','Camera Fault','Intrusion Alarm','HVAC'])[1 + (g * 13) % 5], 'Sub ' || (g % 4),
         'Ticket number ' || g || ' at site ' || (1 + g % 2000), 'Generated for the benchmark', ($2::int[])[1 + g % $3], ($2::int[])[1 + (g * 3) % $3],
         null, 1 + g % 2000, c.at, c.at + interval '48 hours',
         case when s.status in ('RESOLVED','CLOSED') then c.at + interval '20 hours' end, '{}', jsonb_build_object('assetLabel', 'Site ' || (1 + g % 2000)),
         jsonb_build_object(s.status, jsonb_build_object('duration', 0, 'enteredAt', c.at, 'exitedAt', null, 'count', 1)), '[]',
         true, c.at, c.at + interval '1 hour'
       from generate_series(1, $4) g
       cross join lateral (select now() - (g::float8 / $4) * interval '365 days' as at) c
       cross join lateral (select case
           when g % 100 < 10 then 'OPEN' when g % 100 < 18 then 'INPROGRESS' when g % 100 < 20 then 'INREVIEW'
           when g % 100 < 35 then 'RESOLVED' when g % 100 < 95 then 'CLOSED' when g % 100 < 97 then 'ESCALATE'
           when g % 100 < 98 then 'OVERDUE' when g % 100 < 99 then 'RE-OPENED' else 'FLAGGED' end as status) s`,
      [tenantId, userIds, userIds.length, TICKETS],
    );
    await client.query(
      `insert into ticket_history (tenant_id, ticket_id, actor_id, action, changes, note, created_at)
       select tenant_id, id, created_by, 'created', '[{"field":"status","from":null,"to":"OPEN"}]', null, created_at from tickets
       union all
       select tenant_id, id, assigned_to, 'status', jsonb_build_array(jsonb_build_object('field','status','from','OPEN','to',status)), null, updated_at
       from tickets where status <> 'OPEN'`,
    );
    await client.query(`insert into ticket_counters (tenant_id, value) values ($1, $2) on conflict (tenant_id) do update set value = $2`, [
      tenantId,
      TICKETS,
    ]);
    await client.query('vacuum analyze tickets');
    await client.query('vacuum analyze ticket_history');
    await client.end();
    console.log(`generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }

  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/sw-bench-helpdesk', LOG_LEVEL: 'silent' });
  const settings = customerSettingsSchema.parse({});
  const helpdesk = helpdeskServices(db, createEventBus(), { settings: async () => settings }, config.dataDir);
  const actor = {
    userId: adminUser,
    tenantId,
    roles: ['customeradmin'],
    permissions: new Set(['view_ticket', 'add_ticket', 'change_ticket']),
  };

  // 1. The list: first page with a status filter and a date range, with its count.
  const base: TicketListQuery = { type: 'all', dateField: 'createdAt', page: 1, limit: 20, orderBy: '-createdAt' } as TicketListQuery;
  const day = 86_400_000;
  const scenarios: Array<{ name: string; query: () => TicketListQuery }> = [
    {
      name: 'status OPEN, last 24 h',
      query: () => ({ ...base, status: ['OPEN'], from: new Date(Date.now() - day).toISOString(), to: new Date().toISOString() }),
    },
    {
      name: 'status OPEN, last 30 days',
      query: () => ({ ...base, status: ['OPEN'], from: new Date(Date.now() - 30 * day).toISOString(), to: new Date().toISOString() }),
    },
    {
      name: 'status CLOSED, last 6 months (>10,000 match: estimated count)',
      query: () => ({ ...base, status: ['CLOSED'], from: new Date(Date.now() - 182 * day).toISOString(), to: new Date().toISOString() }),
    },
    {
      name: 'type TICKET, status OPEN+INPROGRESS, last 30 days',
      query: () => ({
        ...base,
        type: 'TICKET',
        status: ['OPEN', 'INPROGRESS'],
        from: new Date(Date.now() - 30 * day).toISOString(),
        to: new Date().toISOString(),
      }),
    },
    {
      name: 'status OPEN, a 30-day window 5 months back, page 5',
      query: () => ({
        ...base,
        page: 5,
        status: ['OPEN'],
        from: new Date(Date.now() - 150 * day).toISOString(),
        to: new Date(Date.now() - 120 * day).toISOString(),
      }),
    },
    {
      name: 'search "power failure", last 30 days',
      query: () => ({
        ...base,
        search: 'power failure',
        from: new Date(Date.now() - 30 * day).toISOString(),
        to: new Date().toISOString(),
      }),
    },
    { name: 'search "camera" (a fifth of all tickets), no dates', query: () => ({ ...base, search: 'camera' }) },
    { name: 'search a ticket number, no dates', query: () => ({ ...base, search: 'TKT-500000' }) },
    { name: 'search a word no ticket has, no dates', query: () => ({ ...base, search: 'flapping' }) },
    { name: 'search "site 1234" (a common word and a rarer one), no dates', query: () => ({ ...base, search: 'site 1234' }) },
  ];
  console.log('\nTicket list, first page (page + count), 60 runs each after 5 warm-up runs:');
  const listFigures: Record<string, number> = {};
  for (const s of scenarios) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 65; i++) {
      const r = await timeIt(() => helpdesk.tickets.list(actor, s.query()));
      if (i >= 5) times.push(r.ms);
      total = r.value.totalCount;
    }
    listFigures[s.name] = p95(times);
    console.log(`  ${s.name.padEnd(64)} p95 ${ms(p95(times))}  median ${ms(median(times))}  (${total.toLocaleString()} tickets)`);
  }

  // Group by day: the per-day counts of the whole filtered list, next to the page.
  console.log('\nGroup by day, counts per day of the filtered list, 30 runs each after 3 warm-up runs:');
  const dayFigures: Record<string, number> = {};
  for (const s of scenarios.slice(0, 3)) {
    const times: number[] = [];
    let days = 0;
    for (let i = 0; i < 33; i++) {
      const r = await timeIt(() => helpdesk.tickets.days(actor, { ...s.query(), timeZone: 'Asia/Kolkata' }));
      if (i >= 3) times.push(r.ms);
      days = r.value.contents.length;
    }
    dayFigures[s.name] = p95(times);
    console.log(`  ${s.name.padEnd(64)} p95 ${ms(p95(times))}  median ${ms(median(times))}  (${days} days)`);
  }

  // 2. A ticket view with its history (the two calls the view makes).
  const ids = (await db.selectFrom('tickets').select('id').orderBy('id').execute()).map((r) => r.id);
  const views: number[] = [];
  for (let i = 0; i < 205; i++) {
    const id = ids[Math.floor(Math.random() * ids.length)] as number;
    const r = await timeIt(() =>
      Promise.all([helpdesk.tickets.get(actor, id), helpdesk.activity.history(actor, id, { page: 1, limit: 20, orderBy: '-updatedAt' })]),
    );
    if (i >= 5) views.push(r.ms);
  }
  console.log(`\nTicket view with history, 200 random tickets: p95 ${ms(p95(views))}  median ${ms(median(views))}`);

  // 3. The escalation sweep: 100,000 open tickets under a two-level policy whose first level is due.
  const policy = await db
    .insertInto('escalation_policies')
    .values({
      tenant_id: tenantId,
      name: `Bench ${Date.now()}`,
      description: '',
      ticket_types: [],
      priorities: [],
      events: [],
      stop_at: 'RESOLVED',
      levels: JSON.stringify([
        {
          waitMinutes: 30,
          assigneeId: null,
          role: 'areahead',
          notify: { assignee: true, owner: true, watchers: false, userIds: [] },
          message: '',
        },
        {
          waitMinutes: 60,
          assigneeId: adminUser,
          role: null,
          notify: { assignee: true, owner: false, watchers: false, userIds: [] },
          message: '',
        },
      ]),
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let events = 0;
  const emitted: DomainEvent[] = [];
  const engine = helpdeskServices(
    db,
    {
      emit: (e: DomainEvent) => {
        events++;
        emitted.push(e);
      },
      subscribe: () => () => undefined,
    },
    { settings: async () => settings },
    config.dataDir,
  ).escalation;
  // 100,000 unfinished tickets under the policy, their next level due later; then a share of them comes due.
  await client.query(
    'update tickets set escalation_due_at = null, escalation_policy_id = null, escalation_level = 0 where escalation_due_at is not null',
  );
  const open = await client.query(
    `update tickets set escalation_policy_id = $1, escalation_level = 0, escalation_due_at = now() + interval '1 hour' + (id % 3600) * interval '1 second'
     where id in (select id from tickets where status in ('OPEN','INPROGRESS','RE-OPENED','OVERDUE','FLAGGED','INREVIEW','ESCALATE') order by id limit $2)`,
    [policy.id, SWEEP],
  );
  const due = (n: number) =>
    client.query(
      `update tickets set escalation_due_at = now() - interval '1 second'
       where id in (select id from tickets where escalation_due_at > now() order by escalation_due_at, id limit $1)`,
      [n],
    );
  await client.query('analyze tickets');
  const idle = await timeIt(() => engine.sweep());
  console.log(`\nEscalation sweep, ${open.rowCount?.toLocaleString()} open tickets under a policy:`);
  console.log(`  nothing due:                         ${ms(idle.ms)}`);
  const ticks: number[] = [];
  for (let i = 0; i < 5; i++) {
    await due(1000);
    ticks.push((await timeIt(() => engine.sweep())).ms);
  }
  console.log(`  1,000 due per sweep (5 sweeps):      median ${ms(median(ticks))}, max ${ms(Math.max(...ticks))}`);
  const remaining = SWEEP - 5000;
  await due(remaining);
  events = 0;
  emitted.length = 0;
  await client.query('delete from notification_inbox');
  await client.query('delete from notifications');
  const backlog = await timeIt(() => engine.sweep({ batch: 20_000, budgetMs: 600_000 }));
  const rate = Math.round((backlog.value.escalated / backlog.ms) * 1000);
  console.log(
    `  a backlog of ${remaining.toLocaleString()} due at once:      ${ms(backlog.ms)} (${backlog.value.escalated.toLocaleString()} escalated, ${rate.toLocaleString()} a second, ${events.toLocaleString()} events)`,
  );
  // What the notifications module then does with those events in the background: inbox items, grouped pushes.
  const bus = createEventBus();
  let pushes = 0;
  bus.subscribe((e) => {
    if (e.type.startsWith('notification.')) pushes++;
  });
  const inbox = subscribeNotifications({
    events: bus,
    notifications: createNotificationService({
      db,
      events: bus,
      users: createUserDirectory(db),
      ticketPrefs: createAdminService(db, createUserDirectory(db)).notificationPrefs,
    }),
    directory: createSiteDirectory(db, createDeviceRecords(db)),
    log,
  });
  const stored = await timeIt(async () => {
    for (const e of emitted) bus.emit(e);
    await inbox.settled();
  });
  const items = await client.query('select count(*)::int as n from notification_inbox');
  console.log(
    `  their notifications, in the background: ${ms(stored.ms)} (${items.rows[0].n.toLocaleString()} inbox items, ${pushes.toLocaleString()} pushes)`,
  );
  inbox.unsubscribe();

  // 4. The SLA sweep: unfinished tickets past their due date.
  const pastDue = (n: number) =>
    client.query(
      `update tickets set sla_breached = false, due_date = now() - interval '1 hour'
       where id in (select id from tickets where status not in ('RESOLVED','CLOSED') and sla_breached order by id desc limit $1)`,
      [n],
    );
  await pastDue(1000);
  await client.query('analyze tickets');
  const slaTick = await timeIt(() => engine.sweep());
  await pastDue(SWEEP);
  const slaBacklog = await timeIt(() => engine.sweep({ batch: 20_000, budgetMs: 600_000 }));
  console.log(
    `SLA sweep: 1,000 past due ${ms(slaTick.ms)}; a backlog of ${slaBacklog.value.overdue.toLocaleString()} past due ${ms(slaBacklog.ms)}`,
  );
  await client.end();

  console.log('\nGoals: list p95 < 100 ms, view p95 < 50 ms, escalation sweep over 100,000 open tickets < 2 s');
  console.log(
    JSON.stringify({
      listP95: listFigures,
      dayCountsP95: dayFigures,
      viewP95: Number(p95(views).toFixed(1)),
      escalationSweepMs: { nothingDue: Math.round(idle.ms), thousandDue: Math.round(median(ticks)), backlog: Math.round(backlog.ms) },
      backlogNotificationsMs: Math.round(stored.ms),
      slaSweepMs: { thousandDue: Math.round(slaTick.ms), backlog: Math.round(slaBacklog.ms) },
    }),
  );
} finally {
  await database.close();
  if (!keep) await admin(`drop database if exists ${DB_NAME} with (force)`);
}

/** The helpdesk's services over the bench database, with the real site directory (the bench signs in as an admin). */
function helpdeskServices(db: Db, events: HelpdeskDeps['events'], customers: HelpdeskDeps['customers'], dataDir: string) {
  const users = createUserDirectory(db);
  const admin = createAdminService(db, users);
  const deps: HelpdeskDeps = {
    db,
    events,
    customers,
    directory: createSiteDirectory(db, createDeviceRecords(db)),
    users,
    admin,
    log,
    clock: systemClock,
    vendors: createVendorDirectory(db),
  };
  const tickets = createTicketService(deps);
  const activity = createActivityService({ ...deps, tickets, blobs: createLocalBlobStore(`${dataDir}/blobs`) });
  return { tickets, activity, escalation: createEscalationEngine(deps) };
}
