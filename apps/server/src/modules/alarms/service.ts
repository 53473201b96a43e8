import {
  type Alarm,
  type AlarmEventPayload,
  type AlarmListQuery,
  type AlarmRule,
  type AlarmRuleInput,
  type AlarmSeverity,
  type AlarmTicket,
  EVENT_TYPES,
  PRIORITY_OF_SEVERITY,
  ROLES_SEEING_ALL_SITES,
} from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../platform/auth/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { DeviceFlags, DeviceRecords } from '../devices/index.ts';
import type { SystemTickets } from '../helpdesk/ports.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { BatchDevice } from '../telemetry/ingest.ts';
import { conditionHolds, describe, type RuleView, ruleApplies, sideEffects, thresholdStep } from './engine.ts';
import type { AlarmRepository, PendingRow } from './repository.ts';

type RuleRow = Awaited<ReturnType<AlarmRepository['listRules']>>[number];
const toView = (r: RuleRow): RuleView => ({
  id: r.id,
  tenantId: r.tenant_id,
  name: r.name,
  deviceType: r.device_type,
  templateId: r.template_id,
  kind: r.kind as RuleView['kind'],
  key: r.key,
  operator: r.operator as RuleView['operator'],
  threshold: r.threshold,
  durationSeconds: r.duration_seconds,
  severity: r.severity as AlarmSeverity,
  createTicket: r.create_ticket,
});
const toRule = (r: RuleRow): AlarmRule => ({
  ...toView(r),
  enabled: r.enabled,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** An alarm that raised (or joined) a ticket: what the video evidence of its cameras needs. */
export interface AlarmTicketed {
  tenantId: number;
  alarmId: number;
  deviceId: number;
  assetId: number | null;
  ticketId: number;
  ticketNo: string;
  raisedAt: Date;
}

const RULE_CACHE_MS = 30_000;
const seesAll = (auth: AuthContext) => auth.roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r));

/** The key of one device's pending threshold rule. */
const slotOf = (deviceId: number, ruleId: number) => `${deviceId}:${ruleId}`;

export function createAlarmService(deps: {
  repo: AlarmRepository;
  devices: Pick<DeviceRecords, 'activity' | 'templateExists'>;
  events: EventBus;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  /** Rules that ask for it open a device-health ticket through the helpdesk. */
  tickets: SystemTickets;
  directory: SiteDirectory;
  /** Pending durations and rule caches read this clock. */
  clock: Clock;
}) {
  const { repo, events, log } = deps;
  const link = deps.devices.activity;
  const now = () => deps.clock.now().getTime();
  let rules: RuleView[] = [];
  let rulesLoadedAt = 0;
  /**
   * Threshold rules whose condition holds but whose duration has not passed: `${deviceId}:${ruleId}` → since, value.
   * Mirrored in alarm_pending (written once per evaluation, read at start), so that a restart keeps the durations.
   */
  const pending = new Map<string, PendingRow>();
  let pendingLoaded = false;
  async function loadPending() {
    if (pendingLoaded) return;
    for (const row of await repo.loadPending()) {
      pending.set(slotOf(row.device_id, row.rule_id), {
        deviceId: row.device_id,
        ruleId: row.rule_id,
        tenantId: row.tenant_id,
        since: new Date(row.since).getTime(),
        value: row.value,
      });
    }
    pendingLoaded = true;
  }
  /** Changes to `pending` during one evaluation, written together at its end. */
  const started = new Map<string, PendingRow>();
  const ended = new Map<string, { deviceId: number; ruleId: number }>();
  function startPending(slot: string, row: PendingRow) {
    pending.set(slot, row);
    started.set(slot, row);
  }
  function endPending(slot: string) {
    const row = pending.get(slot);
    if (!row) return;
    pending.delete(slot);
    if (started.has(slot)) started.delete(slot);
    else ended.set(slot, { deviceId: row.deviceId, ruleId: row.ruleId });
  }
  async function savePending() {
    if (started.size === 0 && ended.size === 0) return;
    const toStart = [...started.values()];
    const toEnd = [...ended.values()];
    started.clear();
    ended.clear();
    try {
      await repo.syncPending(toStart, toEnd);
    } catch (error) {
      // written with the next evaluation
      for (const e of toEnd) ended.set(slotOf(e.deviceId, e.ruleId), e);
      for (const p of toStart) {
        const slot = slotOf(p.deviceId, p.ruleId);
        if (pending.get(slot) === p) started.set(slot, p);
      }
      throw error;
    }
  }
  /** Who hears of an alarm that got a ticket (the video evidence of the cameras mapped to the device). */
  const ticketListeners = new Set<(alarm: AlarmTicketed) => void>();
  /** Active alarms of devices seen so far: deviceId → ruleId → alarm id. */
  const active = new Map<number, Map<number, number>>();
  let chain: Promise<void> = Promise.resolve();

  async function currentRules() {
    if (now() - rulesLoadedAt > RULE_CACHE_MS) {
      rules = (await repo.allEnabledRules()).map(toView);
      rulesLoadedAt = now();
    }
    return rules;
  }

  async function loadActive(deviceIds: number[]) {
    const missing = deviceIds.filter((id) => !active.has(id));
    if (missing.length === 0) return;
    for (const id of missing) active.set(id, new Map());
    for (const row of await repo.activeFor(missing)) if (row.rule_id !== null) active.get(row.device_id)?.set(row.rule_id, row.id);
  }

  const payloadOf = (alarmId: number, device: DeviceFlags, severity: string, alarmStatus: string, message: string): AlarmEventPayload => ({
    alarmId,
    deviceId: device.id,
    deviceLabel: device.label,
    assetId: device.assetId,
    assetLabel: device.assetLabel,
    severity,
    alarmStatus,
    message,
  });

  async function raise(rule: RuleView, device: DeviceFlags, value: unknown) {
    const effects = sideEffects(device);
    if (!effects.evaluate) return;
    const message = describe(rule, value);
    const raised = await repo.raise({
      tenantId: device.tenantId,
      deviceId: device.id,
      ruleId: rule.id,
      ruleName: rule.name,
      severity: rule.severity,
      message,
      value,
      suppressedBy: effects.suppressedBy,
    });
    if (raised === null) return;
    const { row: id, alarmStatus } = raised;
    active.get(device.id)?.set(rule.id, id);
    if (effects.ticket && rule.createTicket) {
      try {
        // one open device-health ticket per device and rule: a recurring alarm does not pile up tickets
        const ticket = await deps.tickets.createTicket(device.tenantId, {
          type: 'AlarmTicket',
          title: `${rule.name} on ${device.label}`.slice(0, 250),
          description: message,
          event: 'Device Alarm',
          subEvent: rule.name,
          entityId: device.id,
          locationId: device.assetId,
          deviceName: device.label,
          metadata: { severity: rule.severity, alarmId: id },
          reuseOpen: true,
        });
        if (ticket) {
          await repo.setTicket(id, ticket.id);
          const ticketed: AlarmTicketed = {
            tenantId: device.tenantId,
            alarmId: id,
            deviceId: device.id,
            assetId: device.assetId,
            ticketId: ticket.id,
            ticketNo: ticket.ticketId,
            raisedAt: deps.clock.now(),
          };
          for (const listener of ticketListeners) listener(ticketed);
        }
      } catch (error) {
        log.error({ err: error, deviceId: device.id }, 'alarm ticket could not be opened');
      }
    }
    if (effects.notify) {
      events.emit({
        type: EVENT_TYPES.alarmRaised,
        tenantId: device.tenantId,
        payload: payloadOf(id, device, rule.severity, alarmStatus, message),
      });
    }
  }

  async function clear(rule: RuleView, device: DeviceFlags) {
    if (!sideEffects(device).evaluate) return;
    const alarmId = active.get(device.id)?.get(rule.id);
    if (alarmId === undefined) return;
    active.get(device.id)?.delete(rule.id);
    const outcome = await repo.clear(device.tenantId, device.id, alarmId);
    if (!outcome) return;
    const { row: cleared, alarmStatus } = outcome;
    // whoever was told of the raise is told of the clear
    if (cleared.suppressed_by === null) {
      events.emit({
        type: EVENT_TYPES.alarmCleared,
        tenantId: device.tenantId,
        payload: payloadOf(cleared.id, device, cleared.severity, alarmStatus, `Cleared: ${cleared.message}`),
      });
    }
  }

  async function evaluateBatch(batch: BatchDevice[]) {
    const all = await currentRules();
    if (all.length === 0 || batch.length === 0) return;
    await loadPending();
    await loadActive(batch.map((d) => d.deviceId));
    const t = now();
    const actions: Array<{ kind: 'raise' | 'clear'; rule: RuleView; tenantId: number; deviceId: number; value: unknown }> = [];
    for (const device of batch) {
      for (const rule of all) {
        if (rule.tenantId !== device.tenantId || !ruleApplies(rule, device)) continue;
        const isActive = active.get(device.deviceId)?.has(rule.id) ?? false;
        if (rule.kind === 'inactivity') {
          if (isActive) actions.push({ kind: 'clear', rule, tenantId: device.tenantId, deviceId: device.deviceId, value: null });
          continue;
        }
        const reading = rule.key ? device.values.get(rule.key) : undefined;
        if (!reading || rule.operator === null || rule.threshold === null) continue;
        const slot = slotOf(device.deviceId, rule.id);
        const holds = conditionHolds(rule.operator, rule.threshold, reading.value);
        const held = pending.get(slot);
        const step = thresholdStep({ active: isActive, pendingSince: held?.since ?? null }, holds, t, rule.durationSeconds);
        if (step.action === 'raise' || step.pendingSince === null) endPending(slot);
        else if (!held) {
          startPending(slot, {
            since: step.pendingSince,
            value: reading.value,
            tenantId: device.tenantId,
            deviceId: device.deviceId,
            ruleId: rule.id,
          });
        } else held.value = reading.value;
        if (step.action !== 'none')
          actions.push({ kind: step.action, rule, tenantId: device.tenantId, deviceId: device.deviceId, value: reading.value });
      }
    }
    await savePending();
    await apply(actions);
  }

  async function apply(actions: Array<{ kind: 'raise' | 'clear'; rule: RuleView; tenantId: number; deviceId: number; value: unknown }>) {
    if (actions.length === 0) return;
    const byTenant = new Map<number, number[]>();
    for (const a of actions) byTenant.set(a.tenantId, [...(byTenant.get(a.tenantId) ?? []), a.deviceId]);
    const flags = new Map<number, DeviceFlags>();
    for (const [tenantId, ids] of byTenant) for (const f of await link.flags(tenantId, [...new Set(ids)])) flags.set(f.id, f);
    for (const a of actions) {
      const device = flags.get(a.deviceId);
      if (!device) continue;
      if (a.kind === 'raise') await raise(a.rule, device, a.value);
      else await clear(a.rule, device);
    }
  }

  /** Periodic: threshold durations that passed without a new value, and inactivity rules. */
  async function evaluateTimers() {
    const all = await currentRules();
    await loadPending();
    const t = now();
    const actions: Array<{ kind: 'raise' | 'clear'; rule: RuleView; tenantId: number; deviceId: number; value: unknown }> = [];
    const byId = new Map(all.map((r) => [r.id, r]));
    for (const [slot, p] of pending) {
      const rule = byId.get(p.ruleId);
      if (!rule) {
        endPending(slot);
        continue;
      }
      if (t - p.since >= rule.durationSeconds * 1000) {
        endPending(slot);
        actions.push({ kind: 'raise', rule, tenantId: p.tenantId, deviceId: p.deviceId, value: p.value });
      }
    }
    await savePending();
    for (const rule of all.filter((r) => r.kind === 'inactivity')) {
      const silent = await link.silentDevices(
        rule.tenantId,
        rule.templateId === null && rule.deviceType ? [rule.deviceType] : [],
        rule.templateId !== null ? [rule.templateId] : [],
        new Date(t - rule.durationSeconds * 1000),
      );
      await loadActive(silent.map((d) => d.id));
      for (const d of silent) {
        if (!ruleApplies(rule, d) || active.get(d.id)?.has(rule.id)) continue;
        actions.push({ kind: 'raise', rule, tenantId: d.tenantId, deviceId: d.id, value: d.lastActivityAt?.toISOString() ?? null });
      }
    }
    await apply(actions);
  }

  /** Evaluations run one after another so that a raise and its clear never race. */
  const serial = (work: () => Promise<void>) => {
    const next = chain.then(work).catch((error) => log.error({ err: error }, 'alarm evaluation failed'));
    chain = next;
    return next;
  };

  async function visibleAssets(auth: AuthContext): Promise<number[] | 'all'> {
    if (seesAll(auth)) return 'all';
    return deps.directory.visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
  }

  /** Raises from an alarm one at a time per alarm, so that a double click never makes two tickets. */
  const raising = new Map<number, Promise<AlarmTicket>>();
  async function raiseTicketOnce(auth: AuthContext, id: number): Promise<AlarmTicket> {
    const alarm = await repo.findVisible(auth.tenantId, id, await visibleAssets(auth));
    if (!alarm) throw notFound('Alarm not found.');
    if (alarm.ticket_id !== null) {
      const ticket = (await deps.tickets.states(auth.tenantId, [alarm.ticket_id])).get(alarm.ticket_id);
      if (ticket?.open) return { ticketId: alarm.ticket_id, ticketNo: ticket.ticketNo, reused: true };
    }
    const [device] = await link.flags(auth.tenantId, [alarm.device_id]);
    if (!device) throw notFound('Alarm not found.');
    const severity = alarm.severity as AlarmSeverity;
    const raisedAt = new Date(alarm.raised_at);
    const ticket = await deps.tickets.raiseFor(
      auth,
      {
        type: 'AlarmTicket',
        title: `${alarm.rule_name} on ${device.label}${device.assetLabel ? ` · ${device.assetLabel}` : ''}`.slice(0, 250),
        description: `${alarm.message}\nRaised ${raisedAt.toISOString()}`,
        event: 'Device Alarm',
        subEvent: alarm.rule_name,
        priority: PRIORITY_OF_SEVERITY[severity],
        entityId: device.id,
        locationId: device.assetId,
        deviceName: device.label,
        eventDate: raisedAt.toISOString(),
        metadata: { severity, alarmId: alarm.id },
      },
      `Raised from the alarm: ${alarm.message}`.slice(0, 1000),
    );
    await repo.setTicket(alarm.id, ticket.id);
    for (const listener of ticketListeners)
      listener({
        tenantId: auth.tenantId,
        alarmId: alarm.id,
        deviceId: device.id,
        assetId: device.assetId,
        ticketId: ticket.id,
        ticketNo: ticket.ticketId,
        raisedAt,
      });
    return { ticketId: ticket.id, ticketNo: ticket.ticketId, reused: false };
  }

  async function checkRule(tenantId: number, input: AlarmRuleInput) {
    if (input.templateId !== null && !(await deps.devices.templateExists(tenantId, input.templateId)))
      throw badRequest('templateId: no such device template');
  }

  return {
    /** Hears of every alarm that raised or joined a ticket; returns the unsubscribe function. */
    onTicketed(listener: (alarm: AlarmTicketed) => void) {
      ticketListeners.add(listener);
      return () => void ticketListeners.delete(listener);
    },
    /** An alarm of an outside source (external.ts) that got a ticket: told to the same listeners. */
    announceTicketed(alarm: AlarmTicketed) {
      for (const listener of ticketListeners) listener(alarm);
    },
    onBatch: (batch: BatchDevice[]) => serial(() => evaluateBatch(batch)),
    /** Whether a rule may apply to the device (always, while the rules are not loaded or due for a reload). */
    watches(device: { tenantId: number; type: string; templateId: number | null }) {
      if (rulesLoadedAt === 0 || now() - rulesLoadedAt > RULE_CACHE_MS) return true;
      return rules.some((rule) => rule.tenantId === device.tenantId && ruleApplies(rule, device));
    },
    tick: () => serial(evaluateTimers),
    /** Waits for every evaluation queued so far (tests). */
    settled: () => chain,
    invalidateRules() {
      rulesLoadedAt = 0;
    },

    async listRules(auth: AuthContext) {
      return { contents: (await repo.listRules(auth.tenantId)).map(toRule) };
    },
    async createRule(auth: AuthContext, input: AlarmRuleInput) {
      await checkRule(auth.tenantId, input);
      const row = await repo.insertRule(auth.tenantId, input);
      rulesLoadedAt = 0;
      return toRule(row);
    },
    async updateRule(auth: AuthContext, id: number, input: AlarmRuleInput) {
      await checkRule(auth.tenantId, input);
      const row = await repo.updateRule(auth.tenantId, id, input);
      if (!row) throw notFound('Alarm rule not found.');
      rulesLoadedAt = 0;
      // a changed rule starts its durations anew
      await serial(async () => {
        for (const key of pending.keys()) if (key.endsWith(`:${id}`)) pending.delete(key);
        await repo.dropPendingOfRule(id);
      });
      return toRule(row);
    },
    async deleteRule(auth: AuthContext, id: number) {
      if (!(await repo.deleteRule(auth.tenantId, id))) throw notFound('Alarm rule not found.');
      rulesLoadedAt = 0;
      return { success: true };
    },
    /**
     * Raises a device-health ticket from the alarm, pre-filled from it and linked both ways (the alarm's ticketId, the
     * ticket's metadata.alarmId); an alarm whose ticket is still open offers that ticket instead of a second one.
     */
    async raiseTicket(auth: AuthContext, id: number): Promise<AlarmTicket> {
      if (!deps.tickets.mayRaise(auth, 'AlarmTicket')) throw forbidden();
      const running = raising.get(id);
      if (running) return running;
      const work = raiseTicketOnce(auth, id).finally(() => raising.delete(id));
      raising.set(id, work);
      return work;
    },
    async listAlarms(auth: AuthContext, q: AlarmListQuery): Promise<{ contents: Alarm[]; totalCount: number }> {
      const { rows, total } = await repo.list(auth.tenantId, q, await visibleAssets(auth));
      const tickets = await deps.tickets.states(
        auth.tenantId,
        rows.flatMap((r) => (r.ticket_id === null ? [] : [r.ticket_id])),
      );
      return {
        totalCount: total,
        contents: rows.map((r) => ({
          id: r.id,
          ruleId: r.rule_id,
          ruleName: r.rule_name,
          deviceId: r.device_id,
          deviceLabel: r.device_label,
          siteName: r.site_name,
          severity: r.severity as AlarmSeverity,
          state: r.state as Alarm['state'],
          message: r.message,
          value: r.num ?? r.txt,
          suppressedBy: r.suppressed_by,
          ticketId: r.ticket_id,
          ticketNo: r.ticket_id === null ? null : (tickets.get(r.ticket_id)?.ticketNo ?? null),
          ticketOpen: r.ticket_id !== null && (tickets.get(r.ticket_id)?.open ?? false),
          raisedAt: new Date(r.raised_at).toISOString(),
          clearedAt: r.cleared_at ? new Date(r.cleared_at).toISOString() : null,
        })),
      };
    },
  };
}
export type AlarmService = ReturnType<typeof createAlarmService>;
