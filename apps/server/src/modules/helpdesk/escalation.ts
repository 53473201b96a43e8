import {
  EVENT_TYPES,
  TICKET_NOTICE_BATCH,
  type TicketEventPayload,
  type TicketEventType,
  type TicketNoticeBatch,
} from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import * as adminRepo from './admin-repository.ts';
import * as esc from './escalation-repository.ts';
import type { StoredChange, StoredLevel } from './tables.ts';
import { ESCALATABLE, isTerminal, stopReached } from './ticket-rules.ts';
import type { HelpdeskDeps } from './ticket-service.ts';

export const SWEEP_QUEUE = 'helpdesk.sla-sweep';
export const SWEEP_INTERVAL_MS = 30_000;
/** Up to this many events of a batch go out one by one (browsers refresh at once); more travel as one batch event. */
export const SINGLE_EVENTS_MAX = 20;
/** Batches a sweep works on at once. */
export const SWEEP_WORKERS = 2;

/** The active users of a role in a tenant, keyed `${tenantId}:${role}`, as the users directory gave them. */
type RoleMembers = Map<string, number[]>;
const roleKey = (tenantId: number, role: string) => `${tenantId}:${role}`;

/**
 * What a sweep knows of the roles it assigns to: their members, and per role the unfinished tickets of each member.
 * The loads are counted once per sweep and then kept up to date with the sweep's own reassignments, so that a
 * backlog of many batches does not count every member's tickets again for each batch.
 */
interface SweepRoles {
  members: RoleMembers;
  loads: Map<string, Map<number, number>>;
}

interface Plan {
  steps: esc.EscalationStep[];
  clear: number[];
  /** Per ticket: the level that fired (for whom to notify) and whether the assignee changed. */
  fired: Map<number, { level: StoredLevel; reassigned: boolean }>;
}

/**
 * Escalation and SLA timers. A ticket under a policy carries the time its next level is due, and a wake-up job in
 * the database is due then (one per few seconds, shared by every ticket due in them: see scheduleWakeUp). A
 * wake-up, like the periodic sweep, escalates everything due in a few set-based statements per batch and marks
 * tickets past their due date overdue. Rows are taken with FOR UPDATE SKIP LOCKED and moved to the next level in
 * the same transaction, so a level fires once however many wake-ups, sweeps and workers run, also after a restart.
 */
export function createEscalationEngine(deps: HelpdeskDeps) {
  const { db, clock } = deps;

  /** Of a role's members, the one with the fewest unfinished tickets assigned (ties: lowest id), or null. */
  async function leastLoaded(trx: Db, tenantId: number, key: string, userIds: number[], roles: SweepRoles) {
    let loads = roles.loads.get(key);
    if (!loads) {
      const counted = await adminRepo.unfinishedTicketCounts(trx, tenantId, userIds);
      // The other worker may have counted them meanwhile and moved them since: its loads stay the ones kept.
      loads = roles.loads.get(key) ?? new Map(counted.map((l) => [l.assigned_to as number, Number(l.n)]));
      roles.loads.set(key, loads);
    }
    let best: { id: number; load: number } | null = null;
    for (const id of userIds) {
      const load = loads.get(id) ?? 0;
      if (!best || load < best.load || (load === best.load && id < best.id)) best = { id, load };
    }
    return best?.id ?? null;
  }

  /** An unfinished ticket of `tenantId` moved from one assignee to another: the loads counted so far follow. */
  function moveLoad(roles: SweepRoles, tenantId: number, from: number | null, to: number) {
    for (const [key, loads] of roles.loads) {
      if (!key.startsWith(`${tenantId}:`)) continue;
      const members = roles.members.get(key) ?? [];
      if (from !== null && members.includes(from)) loads.set(from, Math.max(0, (loads.get(from) ?? 0) - 1));
      if (members.includes(to)) loads.set(to, (loads.get(to) ?? 0) + 1);
    }
  }

  /**
   * The steps of a locked batch. A role level needs the role's members, which the users directory reads on its own
   * connection, never inside this transaction: roles not in `members` yet are returned as missing instead.
   */
  async function plan(
    trx: Db,
    rows: esc.DueEscalation[],
    roles: SweepRoles,
  ): Promise<Plan | { missing: Array<{ tenantId: number; role: string }> }> {
    const policies = new Map(
      (
        await adminRepo.policiesByIds(trx, [...new Set(rows.map((r) => r.escalation_policy_id).filter((id): id is number => id !== null))])
      ).map((p) => [p.id, p]),
    );
    const roleUsers = new Map<string, number | null>();
    const missing = new Map<string, { tenantId: number; role: string }>();
    const moves: Array<{ tenantId: number; from: number | null; to: number }> = [];
    const result: Plan = { steps: [], clear: [], fired: new Map() };
    for (const row of rows) {
      const policy = row.escalation_policy_id === null ? undefined : policies.get(row.escalation_policy_id);
      const level = row.escalation_level + 1;
      const step = policy?.levels[level - 1];
      if (!policy?.active || policy.tenant_id !== row.tenant_id || !step || stopReached(policy.stop_at, row.status)) {
        result.clear.push(row.id);
        continue;
      }
      let assignee = step.assigneeId;
      if (assignee === null && step.role) {
        const key = roleKey(row.tenant_id, step.role);
        const candidates = roles.members.get(key);
        if (!candidates) {
          missing.set(key, { tenantId: row.tenant_id, role: step.role });
          continue;
        }
        if (!roleUsers.has(key)) roleUsers.set(key, await leastLoaded(trx, row.tenant_id, key, candidates, roles));
        assignee = roleUsers.get(key) ?? null;
      }
      const status = ESCALATABLE.includes(row.status) ? 'ESCALATE' : row.status;
      const changes: StoredChange[] = [{ field: 'escalationLevel', from: level - 1, to: level }];
      if (status !== row.status) changes.push({ field: 'status', from: row.status, to: status });
      const reassigned = assignee !== null && assignee !== row.assigned_to;
      if (reassigned) changes.push({ field: 'assignedTo', from: row.assigned_to, to: assignee });
      if (reassigned && !isTerminal(status)) moves.push({ tenantId: row.tenant_id, from: row.assigned_to, to: assignee as number });
      result.steps.push({
        id: row.id,
        level,
        status,
        assignee: reassigned ? assignee : null,
        nextWait: policy.levels[level]?.waitMinutes ?? null,
        changes: JSON.stringify(changes),
        note: step.message || `Escalated to level ${level} of ${policy.levels.length} by the policy "${policy.name}"`,
      });
      result.fired.set(row.id, { level: step, reassigned });
    }
    if (missing.size > 0) return { missing: [...missing.values()] };
    for (const move of moves) moveLoad(roles, move.tenantId, move.from, move.to);
    return result;
  }

  function payloadOf(t: esc.SweptTicket, changes: string[]): TicketEventPayload {
    const info = (t.additional_information ?? {}) as { assetLabel?: string | null; deviceLabel?: string | null };
    return {
      id: t.id,
      ticketId: t.ticket_no,
      title: t.title,
      type: t.type,
      event: t.event,
      status: t.status,
      priority: t.priority,
      locationId: t.location_id,
      entityId: t.entity_id,
      assetLabel: info.assetLabel ?? null,
      deviceLabel: info.deviceLabel ?? null,
      ownerId: t.created_by,
      assignedTo: t.assigned_to,
      watcherIds: t.watchers ?? [],
      changes,
      historyId: t.history_id,
      actorId: null,
    };
  }

  /**
   * Tells those concerned about a batch: for an escalation the level's list, for an overdue mark the owner, the
   * assignee and the watchers (whose notification config the notifications module applies). A few events are
   * emitted one by one; a large batch (a sweep catching up) is one event per tenant, which the notifications
   * module stores in a few statements and pushes grouped per recipient.
   */
  function announce(tickets: esc.SweptTicket[], kind: 'escalated' | 'overdue', fired?: Plan['fired']) {
    const byTenant = new Map<number, TicketNoticeBatch<TicketEventPayload, TicketEventType>['events']>();
    for (const t of tickets) {
      const events = byTenant.get(t.tenant_id) ?? [];
      byTenant.set(t.tenant_id, events);
      const step = fired?.get(t.id)?.level;
      const ids =
        kind === 'overdue' || !step
          ? [t.created_by, t.assigned_to, ...(t.watchers ?? [])]
          : [
              ...step.notify.userIds,
              ...(step.notify.assignee ? [t.assigned_to] : []),
              ...(step.notify.owner ? [t.created_by] : []),
              ...(step.notify.watchers ? (t.watchers ?? []) : []),
            ];
      const userIds = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
      const changes = kind === 'overdue' ? (t.status !== t.old_status ? ['status', 'overdue'] : ['overdue']) : ['escalationLevel'];
      if (userIds.length > 0) {
        events.push({
          type: kind === 'escalated' ? EVENT_TYPES.ticketEscalated : EVENT_TYPES.ticketUpdated,
          userIds,
          payload: payloadOf(t, changes),
        });
      }
      if (fired?.get(t.id)?.reassigned && t.assigned_to) {
        events.push({ type: EVENT_TYPES.ticketAssigned, userIds: [t.assigned_to], payload: payloadOf(t, ['assignedTo']) });
      }
    }
    for (const [tenantId, events] of byTenant) {
      if (events.length <= SINGLE_EVENTS_MAX) for (const e of events) deps.events.emit({ ...e, tenantId });
      else deps.events.emit({ type: TICKET_NOTICE_BATCH, tenantId, payload: { events } });
    }
  }

  /** Marks overdue batch after batch until a batch comes back short or the time is up. */
  async function markOverdueLoop(batch: number, deadline: number) {
    let overdue = 0;
    for (;;) {
      const rows = await esc.markOverdue(db, batch, clock.now());
      overdue += rows.length;
      announce(rows, 'overdue');
      if (rows.length < batch || Date.now() > deadline) return overdue;
    }
  }

  /** Moves due tickets to their next level batch after batch, until a batch comes back short or the time is up. */
  async function escalateLoop(batch: number, deadline: number, roles: SweepRoles) {
    let escalated = 0;
    for (;;) {
      const out = await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const due = await esc.lockDueEscalations(trx, batch, now);
        const p = await plan(trx, due, roles);
        if ('missing' in p) return p;
        await esc.clearEscalation(trx, p.clear);
        const applied = await esc.applyEscalations(trx, p.steps, now);
        // The next levels: one wake-up per distinct wait of the batch.
        const waits = new Set(p.steps.map((step) => step.nextWait).filter((w): w is number => w !== null));
        for (const wait of waits) await esc.scheduleWakeUp(trx, new Date(now.getTime() + wait * 60_000));
        return { due: due.length, applied, fired: p.fired };
      });
      if ('missing' in out) {
        // Nothing was changed: read the roles' members outside the transaction, then take the batch again.
        for (const { tenantId, role } of out.missing) {
          roles.members.set(
            roleKey(tenantId, role),
            (await deps.users.withRoles(tenantId, [role])).map((u) => u.id),
          );
        }
        continue;
      }
      escalated += out.applied.length;
      announce(out.applied, 'escalated', out.fired);
      if (out.due < batch) return escalated;
      if (Date.now() > deadline) {
        // Out of time with more due: the next wake-up carries on at once.
        await esc.scheduleWakeUp(db, clock.now());
        return escalated;
      }
    }
  }

  const total = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

  return {
    /**
     * One pass over everything due: overdue marks first, then escalation levels, in batches, within a time budget.
     * `workers` loops take batches side by side (SKIP LOCKED gives each its own rows), so a backlog keeps two
     * database backends busy while this process plans and announces; on the embedded database they take turns.
     */
    async sweep(opts: { batch?: number; budgetMs?: number; workers?: number } = {}) {
      const batch = opts.batch ?? 5000;
      const deadline = Date.now() + (opts.budgetMs ?? 20_000);
      const loops = Array.from({ length: Math.max(1, opts.workers ?? SWEEP_WORKERS) });
      const overdue = total(await Promise.all(loops.map(() => markOverdueLoop(batch, deadline))));
      const roles: SweepRoles = { members: new Map(), loads: new Map() };
      const escalated = total(await Promise.all(loops.map(() => escalateLoop(batch, deadline, roles))));
      return { overdue, escalated };
    },
  };
}
export type EscalationEngine = ReturnType<typeof createEscalationEngine>;
