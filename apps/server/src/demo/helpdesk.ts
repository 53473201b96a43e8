import { TICKET_NUMBER_PREFIX, type TicketStatus, type TicketType } from '@sitewatch/contracts';
import type { AgeingEntry, StoredChange } from '../modules/helpdesk/tables.ts';
import type { Seeder } from './seeder.ts';

/**
 * A helpdesk that has been in use for a couple of months: issue types, two escalation policies and a few hundred
 * tickets of the four kinds at the tenant's sites and devices (when the estate is seeded before it), in every
 * status, each with a history that matches its life, and comments, checklists, costs and ratings where they fit.
 */

const ISSUE_TYPES: Array<{ name: string; sub: string[]; types: TicketType[]; priority: string | null; sla: number | null }> = [
  {
    name: 'Power Failure',
    sub: ['Mains', 'Generator', 'UPS', 'Rectifier'],
    types: ['TICKET', 'WORKORDERTICKET'],
    priority: 'MAJOR',
    sla: 8,
  },
  { name: 'Network Down', sub: ['Router', 'ISP Link', 'Switch'], types: ['TICKET', 'WORKORDERTICKET'], priority: 'MAJOR', sla: 12 },
  {
    name: 'Camera Fault',
    sub: ['Video Loss', 'Blurred Image', 'Camera Offline', 'HDD Error'],
    types: ['TICKET', 'WORKORDERTICKET'],
    priority: 'MINOR',
    sla: 24,
  },
  { name: 'Intrusion Alarm', sub: ['Door Contact', 'Motion Sensor', 'Panic Button'], types: ['TICKET'], priority: 'CRITICAL', sla: 2 },
  { name: 'HVAC', sub: ['Cooling', 'Noise', 'Leak'], types: ['TICKET', 'WORKORDERTICKET'], priority: 'MINOR', sla: 48 },
  { name: 'Preventive Maintenance', sub: ['Monthly', 'Quarterly', 'Annual'], types: ['WORKORDERTICKET'], priority: 'LOW', sla: 168 },
  {
    name: 'AI Audit',
    sub: ['Loitering', 'Crowd', 'PPE Violation', 'Shutter Open After Hours'],
    types: ['AIAlarmTicket'],
    priority: 'MAJOR',
    sla: 24,
  },
  { name: 'Device Offline', sub: ['Router', 'DVR', 'Alarm Panel'], types: ['AlarmTicket'], priority: 'MAJOR', sla: 12 },
  {
    name: 'Device Alarm Action',
    sub: ['Maintenance mode', 'Mute Device mode', 'Device'],
    types: ['AlarmTicket'],
    priority: null,
    sla: null,
  },
];

const TITLES: Record<string, string[]> = {
  'Power Failure': [
    'Site running on generator since morning',
    'UPS beeping and battery low',
    'Rectifier module tripped',
    'Mains supply fluctuating',
  ],
  'Network Down': ['Router unreachable from the NOC', 'ISP link down at store', 'Intermittent packet loss on uplink'],
  'Camera Fault': [
    'Entrance camera shows no video',
    'Cash counter camera image blurred',
    'NVR reports HDD error',
    'Parking camera offline',
  ],
  'Intrusion Alarm': ['Back door contact triggered at night', 'Motion detected in the strong room', 'Panic button pressed at cash desk'],
  HVAC: ['Server room cooling insufficient', 'AC unit making loud noise', 'Water leaking from indoor unit'],
  'Preventive Maintenance': ['Monthly generator service', 'Quarterly CCTV health check', 'Annual fire panel inspection'],
  'AI Audit': [
    'Person loitering near ATM',
    'Crowd above limit at entrance',
    'Staff without helmet in warehouse',
    'Shutter open after closing time',
  ],
  'Device Offline': ['Router not reporting for 30 minutes', 'DVR disconnected', 'Alarm panel heartbeat missed'],
};
const COMMENTS = [
  'Called the site manager, waiting for access.',
  'Technician dispatched, ETA 45 minutes.',
  'Spare part ordered from the vendor.',
  'Issue reproduced remotely, looks like a loose cable.',
  'Customer confirmed the problem is gone.',
  'Escalated to the regional team for approval.',
];
const CHECKLIST = ['Inspect the equipment', 'Check power and cabling', 'Replace faulty part', 'Test and confirm with site staff'];

const KIND_WEIGHTS: Array<[TicketType, number]> = [
  ['TICKET', 0.45],
  ['WORKORDERTICKET', 0.25],
  ['AIAlarmTicket', 0.15],
  ['AlarmTicket', 0.15],
];
const STATUS_WEIGHTS: Array<[TicketStatus, number]> = [
  ['OPEN', 0.2],
  ['INPROGRESS', 0.15],
  ['INREVIEW', 0.05],
  ['RESOLVED', 0.2],
  ['CLOSED', 0.25],
  ['ESCALATE', 0.05],
  ['OVERDUE', 0.05],
  ['RE-OPENED', 0.03],
  ['FLAGGED', 0.02],
];
/** The path a ticket took to reach each status (the statuses in between, after OPEN). */
const PATH: Record<TicketStatus, TicketStatus[]> = {
  OPEN: [],
  INPROGRESS: ['INPROGRESS'],
  INREVIEW: ['INPROGRESS', 'INREVIEW'],
  RESOLVED: ['INPROGRESS', 'RESOLVED'],
  CLOSED: ['INPROGRESS', 'RESOLVED', 'CLOSED'],
  ESCALATE: ['ESCALATE'],
  OVERDUE: ['OVERDUE'],
  'RE-OPENED': ['INPROGRESS', 'RESOLVED', 'RE-OPENED'],
  FLAGGED: ['FLAGGED'],
};

const HOUR = 3600_000;

export const helpdeskSeeder: Seeder = {
  name: 'helpdesk-tickets',
  async run({ db, tenantId, slug, random }) {
    const count = slug === 'demo' ? 320 : 60;
    const users = await db.selectFrom('users').select(['id', 'email', 'roles']).where('tenant_id', '=', tenantId).orderBy('id').execute();
    const byRole = (role: string) => users.find((u) => u.roles.includes(role));
    const reporters = users.filter((u) => ['customer', 'customeradmin', 'storemanager', 'localadmin'].some((r) => u.roles.includes(r)));
    const workers = users.filter((u) => ['fieldexecutive', 'vendor', 'infraadmin', 'areahead'].some((r) => u.roles.includes(r)));
    // The estate, when the sites-and-devices seeding ran before this one.
    const assets = await db
      .selectFrom('assets')
      .select(['id', 'name', 'address'])
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .limit(200)
      .execute();
    const devices = await db
      .selectFrom('devices as d')
      .leftJoin('devices as p', 'p.id', 'd.parent_id')
      .select(['d.id', 'd.name', 'd.label', 'd.type', 'd.asset_id', 'p.label as parent_label'])
      .where('d.tenant_id', '=', tenantId)
      .where('d.asset_id', 'is not', null)
      .orderBy('d.id')
      .limit(2000)
      .execute();

    for (const it of ISSUE_TYPES) {
      await db
        .insertInto('issue_types')
        .values({
          tenant_id: tenantId,
          name: it.name,
          sub_types: it.sub,
          ticket_types: it.types,
          default_priority: it.priority,
          sla_hours: it.sla,
          description: '',
          updated_at: new Date(),
        })
        .execute();
    }
    const fe = byRole('fieldexecutive');
    const policy = await db
      .insertInto('escalation_policies')
      .values({
        tenant_id: tenantId,
        name: 'Critical response',
        description: 'Critical tickets must be picked up within 30 minutes.',
        ticket_types: [],
        priorities: ['CRITICAL'],
        events: [],
        stop_at: 'INPROGRESS',
        levels: JSON.stringify([
          {
            waitMinutes: 30,
            assigneeId: fe?.id ?? null,
            role: fe ? null : 'fieldexecutive',
            notify: { assignee: true, owner: true, watchers: false, userIds: [] },
            message: 'Not picked up in 30 minutes',
          },
          {
            waitMinutes: 60,
            assigneeId: null,
            role: 'areahead',
            notify: { assignee: true, owner: true, watchers: true, userIds: [] },
            message: 'Escalated to the area head',
          },
          {
            waitMinutes: 120,
            assigneeId: null,
            role: 'regionalhead',
            notify: { assignee: true, owner: true, watchers: true, userIds: [] },
            message: 'Escalated to the regional head',
          },
        ]),
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('escalation_policies')
      .values({
        tenant_id: tenantId,
        name: 'Work order resolution',
        description: 'Work orders are resolved within two days or go to the store manager.',
        ticket_types: ['WORKORDERTICKET'],
        priorities: [],
        events: [],
        stop_at: 'RESOLVED',
        levels: JSON.stringify([
          {
            waitMinutes: 48 * 60,
            assigneeId: null,
            role: 'storemanager',
            notify: { assignee: true, owner: true, watchers: false, userIds: [] },
            message: '',
          },
        ]),
        updated_at: new Date(),
      })
      .execute();

    const weighted = <T>(table: Array<[T, number]>): T => {
      let r = random.next();
      for (const [value, weight] of table) {
        r -= weight;
        if (r <= 0) return value;
      }
      return (table.at(-1) as [T, number])[0];
    };
    const now = Date.now();
    for (let n = 1; n <= count; n++) {
      const type = weighted(KIND_WEIGHTS);
      const candidates = ISSUE_TYPES.filter((i) => i.types.includes(type) && TITLES[i.name]);
      const issue = random.pick(candidates);
      const status = weighted(STATUS_WEIGHTS);
      // Unfinished tickets are mostly recent; finished ones spread over two months.
      const recent = !['RESOLVED', 'CLOSED'].includes(status) && random.chance(0.75);
      const created = now - random.int(1, recent ? 72 : 60 * 24) * HOUR + random.int(0, 3599) * 1000;
      const device =
        devices.length && (type === 'AlarmTicket' || type === 'AIAlarmTicket' || random.chance(0.6)) ? random.pick(devices) : null;
      const asset = device
        ? assets.find((a) => a.id === device.asset_id)
        : assets.length && random.chance(0.8)
          ? random.pick(assets)
          : undefined;
      const reporter = type === 'AlarmTicket' || type === 'AIAlarmTicket' ? undefined : random.pick(reporters);
      const assignee = status === 'OPEN' && random.chance(0.5) ? undefined : workers.length ? random.pick(workers) : undefined;
      const priority = issue.priority ?? 'MINOR';
      const finishedStatus = status === 'RESOLVED' || status === 'CLOSED';
      // Most unfinished tickets are still within their due date; a few have run past it.
      const due =
        !finishedStatus && status !== 'OVERDUE' && random.chance(0.7) ? now + random.int(2, 72) * HOUR : created + (issue.sla ?? 48) * HOUR;

      // Walk the ticket's life, writing each change's history entry and the time spent per status.
      const steps = PATH[status];
      const ageing: Record<string, AgeingEntry> = {};
      const history: Array<{ at: number; actor: number | null; action: string; changes: StoredChange[]; note: string | null }> = [
        {
          at: created,
          actor: reporter?.id ?? null,
          action: 'created',
          changes: [{ field: 'status', from: null, to: 'OPEN' }],
          note: reporter ? null : 'Raised by the system',
        },
      ];
      let at = created;
      let current: TicketStatus = 'OPEN';
      ageing.OPEN = { duration: 0, enteredAt: new Date(created).toISOString(), exitedAt: null, count: 1 };
      let assignedAt: number | null = null;
      if (assignee) {
        at = Math.min(now - 120_000, at + random.int(5, 180) * 60_000);
        assignedAt = at;
        history.push({
          at,
          actor: byRole('customeradmin')?.id ?? null,
          action: 'assigned',
          changes: [{ field: 'assignedTo', from: null, to: assignee.id }],
          note: null,
        });
      }
      let resolvedAt: number | null = null;
      for (const next of steps) {
        at = Math.max(at + 1000, Math.min(now - 60_000, at + random.int(20, 60 * 30) * 60_000));
        const left = ageing[current] as AgeingEntry;
        left.duration += (at - new Date(left.enteredAt).getTime()) / 1000;
        left.exitedAt = new Date(at).toISOString();
        const before = ageing[next];
        ageing[next] = {
          duration: before?.duration ?? 0,
          enteredAt: new Date(at).toISOString(),
          exitedAt: null,
          count: (before?.count ?? 0) + 1,
        };
        const system = next === 'OVERDUE' || next === 'ESCALATE';
        history.push({
          at,
          // The owner closes and re-opens; the assignee does the work.
          actor: system
            ? null
            : next === 'CLOSED' || next === 'RE-OPENED'
              ? (reporter?.id ?? assignee?.id ?? null)
              : (assignee?.id ?? reporter?.id ?? null),
          action: next === 'OVERDUE' ? 'overdue' : next === 'ESCALATE' ? 'escalated' : 'status',
          changes: [{ field: 'status', from: current, to: next }],
          note: next === 'OVERDUE' ? 'The due date passed' : next === 'RESOLVED' ? random.pick(COMMENTS) : null,
        });
        if (next === 'RESOLVED') resolvedAt = at;
        if (next === 'RE-OPENED') resolvedAt = null;
        current = next;
      }
      const finished = status === 'RESOLVED' || status === 'CLOSED';
      const rating = status === 'CLOSED' && reporter && random.chance(0.6) ? random.int(2, 5) : null;
      const title = random.pick(TITLES[issue.name] as string[]);
      const checklist =
        type === 'WORKORDERTICKET'
          ? CHECKLIST.map((text, i) => {
              const done = finished || (status !== 'OPEN' && i < 2);
              return {
                id: `c${i + 1}`,
                text,
                done,
                doneBy: done ? (assignee?.id ?? null) : null,
                doneAt: done ? new Date(at).toISOString() : null,
              };
            })
          : [];
      const ticket = await db
        .insertInto('tickets')
        .values({
          tenant_id: tenantId,
          ticket_no: `${TICKET_NUMBER_PREFIX[type]}-${n}`,
          type,
          status,
          priority,
          event: issue.name,
          sub_event: random.pick(issue.sub),
          title,
          description: `${title}. Reported ${reporter ? `by ${reporter.email}` : 'automatically'}${asset ? ` at ${asset.name}` : ''}.`,
          assigned_to: assignee?.id ?? null,
          assigned_date: assignedAt ? new Date(assignedAt) : null,
          created_by: reporter?.id ?? null,
          created_by_email: reporter?.email ?? null,
          location_id: asset?.id ?? null,
          entity_id: device?.id ?? null,
          entity_profile_type: device?.type ?? null,
          acknowledged: Boolean(assignee) && status !== 'OPEN',
          event_date: new Date(created - random.int(0, 30) * 60_000),
          due_date: new Date(due),
          resolved_date: resolvedAt ? new Date(resolvedAt) : null,
          city: asset?.address.at(-1) ?? null,
          device_name: device?.name ?? null,
          metadata: JSON.stringify(type === 'AIAlarmTicket' ? { confidence: Number((0.6 + random.next() * 0.4).toFixed(2)) } : {}),
          additional_information: JSON.stringify({
            assetLabel: asset?.name ?? null,
            deviceLabel: device?.label ?? null,
            parentLabel: device?.parent_label ?? null,
          }),
          status_ageing: JSON.stringify(ageing),
          watchers: random.chance(0.2) && reporters.length ? [random.pick(reporters).id] : [],
          checklist: JSON.stringify(checklist),
          cost_incurred:
            finished && type === 'WORKORDERTICKET'
              ? JSON.stringify({ amount: random.int(500, 25_000), currency: 'INR', note: 'Parts and labour' })
              : null,
          rating,
          rating_comment: rating ? (rating >= 4 ? 'Quick and clean fix' : 'Took longer than expected') : null,
          rated_by: rating ? (reporter?.id ?? null) : null,
          rated_at: rating ? new Date(at) : null,
          sla_breached: status === 'OVERDUE' || (!finished && due < now),
          escalation_policy_id: priority === 'CRITICAL' ? policy.id : null,
          escalation_level: status === 'ESCALATE' ? 1 : 0,
          version: history.length,
          created_at: new Date(created),
          updated_at: new Date(at),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('ticket_history')
        .values(
          history.map((h) => ({
            tenant_id: tenantId,
            ticket_id: ticket.id,
            actor_id: h.actor,
            action: h.action,
            changes: JSON.stringify(h.changes),
            note: h.note,
            created_at: new Date(h.at),
          })),
        )
        .execute();
      if (assignee && random.chance(0.5)) {
        const comments = random.int(1, 3);
        for (let c = 0; c < comments; c++) {
          const when = new Date(Math.min(now - 1000, created + (c + 1) * random.int(10, 240) * 60_000));
          await db
            .insertInto('ticket_comments')
            .values({
              tenant_id: tenantId,
              ticket_id: ticket.id,
              author_id: c % 2 === 0 ? assignee.id : (reporter?.id ?? assignee.id),
              text: random.pick(COMMENTS),
              created_at: when,
              updated_at: when,
            })
            .execute();
        }
      }
    }
    await db
      .insertInto('ticket_counters')
      .values({ tenant_id: tenantId, value: count })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ value: count }))
      .execute();
  },
};
