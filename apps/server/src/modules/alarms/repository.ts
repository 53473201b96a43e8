import { type AlarmListQuery, type AlarmRuleInput, NORMAL_ALARM_STATUS, SEVERITY_RANK } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { devicesAtSites, joinExistingDevices, lockDeviceForAlarm, setDeviceAlarmStatus } from '../devices/scope.ts';

export interface PendingRow {
  deviceId: number;
  ruleId: number;
  tenantId: number;
  /** Epoch milliseconds. */
  since: number;
  value: unknown;
}

const BY_RANK = Object.entries(SEVERITY_RANK);

/**
 * A device's alarm status as SQL (over `deviceId`, a column of the query around it): the worst severity of its
 * active alarms, NORMAL when none is active. The one definition the engine, the migration check and the tests share.
 */
export const alarmStatusOf = (deviceId: string) =>
  sql<string>`coalesce((select case max(case al.severity ${sql.join(
    BY_RANK.map(([name, rank]) => sql`when ${sql.lit(name)} then ${sql.lit(rank)}`),
    sql` `,
  )} end) ${sql.join(
    BY_RANK.map(([name, rank]) => sql`when ${sql.lit(rank)} then ${sql.lit(name)}`),
    sql` `,
  )} end from alarms al where al.device_id = ${sql.ref(deviceId)} and al.state = 'ACTIVE'), ${sql.lit(NORMAL_ALARM_STATUS)})`;

/**
 * Runs `change` (which raises or clears an alarm of the device) and sets the device's alarm status from its alarms
 * in the same transaction, the device's row locked first. Returns what `change` returned with the new status, or
 * null when `change` changed nothing (the status is left as it was).
 */
async function withAlarmStatus<T>(
  db: Db,
  tenantId: number,
  deviceId: number,
  change: (trx: Db) => Promise<T | undefined>,
): Promise<{ row: T; alarmStatus: string } | null> {
  return db.transaction().execute(async (trx) => {
    await lockDeviceForAlarm(tenantId, deviceId).execute(trx);
    const row = await change(trx);
    if (row === undefined) return null;
    const { rows } = await setDeviceAlarmStatus(tenantId, deviceId, alarmStatusOf('d.id')).execute(trx);
    return { row, alarmStatus: rows[0]?.alarm_status ?? NORMAL_ALARM_STATUS };
  });
}

export function createAlarmRepository(db: Db) {
  return {
    allEnabledRules: () => db.selectFrom('alarm_rules').selectAll().where('enabled', '=', true).execute(),
    listRules: (tenantId: number) => db.selectFrom('alarm_rules').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute(),
    findRule: (tenantId: number, id: number) =>
      db.selectFrom('alarm_rules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst(),
    insertRule: (tenantId: number, r: AlarmRuleInput) =>
      db
        .insertInto('alarm_rules')
        .values({
          tenant_id: tenantId,
          name: r.name,
          device_type: r.deviceType,
          template_id: r.templateId,
          kind: r.kind,
          key: r.kind === 'threshold' ? r.key : null,
          operator: r.kind === 'threshold' ? r.operator : null,
          threshold: r.kind === 'threshold' ? r.threshold : null,
          duration_seconds: r.durationSeconds,
          severity: r.severity,
          create_ticket: r.createTicket,
          enabled: r.enabled,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    updateRule: (tenantId: number, id: number, r: AlarmRuleInput) =>
      db
        .updateTable('alarm_rules')
        .set({
          name: r.name,
          device_type: r.deviceType,
          template_id: r.templateId,
          kind: r.kind,
          key: r.kind === 'threshold' ? r.key : null,
          operator: r.kind === 'threshold' ? r.operator : null,
          threshold: r.kind === 'threshold' ? r.threshold : null,
          duration_seconds: r.durationSeconds,
          severity: r.severity,
          create_ticket: r.createTicket,
          enabled: r.enabled,
          updated_at: new Date(),
        })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    deleteRule: async (tenantId: number, id: number) =>
      Number(
        (await db.deleteFrom('alarm_rules').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()).numDeletedRows,
      ) > 0,

    /** Every pending duration (read once at start). */
    loadPending: () => db.selectFrom('alarm_pending').select(['device_id', 'rule_id', 'tenant_id', 'since', 'value']).execute(),
    /**
     * One evaluation's changes to the pending durations: those that started (an existing row keeps its earlier
     * start) and those that ended. Two statements at most, whatever the number of devices.
     */
    async syncPending(started: PendingRow[], ended: Array<{ deviceId: number; ruleId: number }>) {
      if (ended.length > 0) {
        await sql`
          delete from alarm_pending p using unnest(${ended.map((e) => e.deviceId)}::int[], ${ended.map((e) => e.ruleId)}::int[]) as e(d, r)
          where p.device_id = e.d and p.rule_id = e.r`.execute(db);
      }
      if (started.length > 0) {
        await sql`
          insert into alarm_pending (device_id, rule_id, tenant_id, since, value)
          select e.d, e.r, e.t, to_timestamp(e.ms / 1000), e.v
          from unnest(${started.map((p) => p.deviceId)}::int[], ${started.map((p) => p.ruleId)}::int[], ${started.map((p) => p.tenantId)}::int[],
                      ${started.map((p) => p.since)}::float8[], ${started.map((p) => JSON.stringify(p.value ?? null))}::jsonb[]) as e(d, r, t, ms, v)
            ${joinExistingDevices('e.d')}
            join alarm_rules on alarm_rules.id = e.r
          on conflict (device_id, rule_id) do nothing`.execute(db);
      }
    },
    dropPendingOfRule: (ruleId: number) => db.deleteFrom('alarm_pending').where('rule_id', '=', ruleId).execute(),

    activeFor: (deviceIds: number[]) =>
      deviceIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('alarms')
            .select(['id', 'device_id', 'rule_id', 'severity', 'suppressed_by'])
            .where('state', '=', 'ACTIVE')
            .where('device_id', 'in', deviceIds)
            .execute(),
    /** Raises unless an active alarm of the rule already exists (null then); the device's alarm status goes with it. */
    raise(a: {
      tenantId: number;
      deviceId: number;
      ruleId: number;
      ruleName: string;
      severity: string;
      message: string;
      value: unknown;
      suppressedBy: string | null;
    }) {
      const num = typeof a.value === 'number' ? a.value : typeof a.value === 'boolean' ? (a.value ? 1 : 0) : null;
      const txt = typeof a.value === 'string' ? a.value : null;
      return withAlarmStatus(db, a.tenantId, a.deviceId, async (trx) => {
        const { rows } = await sql<{ id: number }>`
          insert into alarms (tenant_id, device_id, rule_id, rule_name, severity, message, num, txt, suppressed_by)
          values (${a.tenantId}, ${a.deviceId}, ${a.ruleId}, ${a.ruleName}, ${a.severity}, ${a.message}, ${num}, ${txt}, ${a.suppressedBy})
          on conflict (device_id, rule_id) where state = 'ACTIVE' do nothing
          returning id`.execute(trx);
        return rows[0]?.id;
      });
    },
    /** Raises an alarm from an outside source unless one of the same key is active on the device (null then). */
    raiseExternal(a: {
      tenantId: number;
      deviceId: number;
      key: string;
      name: string;
      severity: string;
      message: string;
      raw: unknown;
      suppressedBy: string | null;
    }) {
      return withAlarmStatus(db, a.tenantId, a.deviceId, async (trx) => {
        const { rows } = await sql<{ id: number }>`
          insert into alarms (tenant_id, device_id, rule_id, rule_name, severity, message, suppressed_by, source_key, raw)
          values (${a.tenantId}, ${a.deviceId}, null, ${a.name}, ${a.severity}, ${a.message}, ${a.suppressedBy}, ${a.key}, ${JSON.stringify(a.raw ?? null)}::jsonb)
          on conflict (device_id, source_key) where state = 'ACTIVE' and source_key is not null do nothing
          returning id`.execute(trx);
        return rows[0]?.id;
      });
    },
    /** Clears the active alarm of that key on the device, keeping what ended it beside what raised it. */
    clearExternal: (tenantId: number, deviceId: number, key: string, raw: unknown) =>
      withAlarmStatus(db, tenantId, deviceId, (trx) =>
        trx
          .updateTable('alarms')
          .set({
            state: 'CLEARED',
            cleared_at: new Date(),
            raw: sql<string>`jsonb_build_object('raised', raw, 'cleared', ${JSON.stringify(raw ?? null)}::jsonb)`,
          })
          .where('tenant_id', '=', tenantId)
          .where('device_id', '=', deviceId)
          .where('source_key', '=', key)
          .where('state', '=', 'ACTIVE')
          .returning(['id', 'severity', 'suppressed_by', 'message'])
          .executeTakeFirst(),
      ),
    /** One alarm of the tenant on a device at the given sites (undefined when not there or not visible). */
    findVisible: (tenantId: number, id: number, visibleAssets: number[] | 'all') =>
      db
        .selectFrom('alarms as al')
        .innerJoin(devicesAtSites(db, visibleAssets).as('d'), 'd.id', 'al.device_id')
        .select(['al.id', 'al.device_id', 'al.rule_name', 'al.severity', 'al.message', 'al.ticket_id', 'al.raised_at'])
        .where('al.tenant_id', '=', tenantId)
        .where('al.id', '=', id)
        .executeTakeFirst(),
    setTicket: (id: number, ticketId: number) => db.updateTable('alarms').set({ ticket_id: ticketId }).where('id', '=', id).execute(),
    /** Clears the active alarm; the device's alarm status goes with it. */
    clear: (tenantId: number, deviceId: number, id: number) =>
      withAlarmStatus(db, tenantId, deviceId, (trx) =>
        trx
          .updateTable('alarms')
          .set({ state: 'CLEARED', cleared_at: new Date() })
          .where('id', '=', id)
          .where('device_id', '=', deviceId)
          .where('state', '=', 'ACTIVE')
          .returning(['id', 'severity', 'suppressed_by', 'message'])
          .executeTakeFirst(),
      ),
    async list(tenantId: number, q: AlarmListQuery, visibleAssets: number[] | 'all') {
      let base = db
        .selectFrom('alarms as al')
        .innerJoin(devicesAtSites(db, visibleAssets).as('d'), 'd.id', 'al.device_id')
        .where('al.tenant_id', '=', tenantId);
      if (q.deviceId) base = base.where('al.device_id', '=', q.deviceId);
      if (q.state) base = base.where('al.state', '=', q.state);
      if (q.search) {
        // found by its device's label, its site's name or its rule: labels repeat at every site
        const like = `%${q.search.replace(/[%_\\]/g, '\\$&')}%`;
        base = base.where((eb) =>
          eb.or([eb('d.label', 'ilike', like), eb('d.site_name', 'ilike', like), eb('al.rule_name', 'ilike', like)]),
        );
      }
      const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await base
        .select([
          'al.id',
          'al.rule_id',
          'al.rule_name',
          'al.device_id',
          'd.label as device_label',
          'd.site_name',
          'al.severity',
          'al.state',
          'al.message',
          'al.num',
          'al.txt',
          'al.suppressed_by',
          'al.ticket_id',
          'al.raised_at',
          'al.cleared_at',
        ])
        .orderBy('al.raised_at', 'desc')
        .orderBy('al.id', 'desc')
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute();
      return { rows, total: Number(total?.n ?? 0) };
    },
  };
}
export type AlarmRepository = ReturnType<typeof createAlarmRepository>;
