import { EVENT_TYPES, type TicketEventPayload } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import * as adminRepo from './admin-repository.ts';
import * as esc from './escalation-repository.ts';
import type { StoredChange, StoredLevel } from './tables.ts';
import { ESCALATABLE, stopReached } from './ticket-rules.ts';
import { ESCALATION_QUEUE, type HelpdeskDeps } from './ticket-service.ts';

export const SWEEP_QUEUE = 'helpdesk.sla-sweep';
export const SWEEP_INTERVAL_MS = 30_000;

interface Plan {
  steps: esc.EscalationStep[];
  clear: number[];
  /** Per ticket: the level that fired (for whom to notify) and whether the assignee changed. */
  fired: Map<number, { level: StoredLevel; reassigned: boolean }>;
}

/**
 * Escalation and SLA timers. A ticket under a policy carries the time its next level is due; a fire-once timer
 * job (dedupe key tenant:ticket:cycle:level) fires it on time, and the periodic sweep fires whatever is due in
 * batches and marks tickets past their due date overdue. Both take the ticket row lock and check the level, so a
 * level fires once however many workers and sweeps run.
 */
export function createEscalationEngine(deps: HelpdeskDeps) {
  const { db } = deps;

  async function plan(trx: Db, rows: esc.DueEscalation[]): Promise<Plan> {
    const policies = new Map(
      (
        await adminRepo.policiesByIds(trx, [...new Set(rows.map((r) => r.escalation_policy_id).filter((id): id is number => id !== null))])
      ).map((p) => [p.id, p]),
    );
    const roleUsers = new Map<string, number | null>();
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
        const key = `${row.tenant_id}:${step.role}`;
        if (!roleUsers.has(key)) roleUsers.set(key, (await adminRepo.leastLoadedUserOfRole(trx, row.tenant_id, step.role))?.id ?? null);
        assignee = roleUsers.get(key) ?? null;
      }
      const status = ESCALATABLE.includes(row.status) ? 'ESCALATE' : row.status;
      const changes: StoredChange[] = [{ field: 'escalationLevel', from: level - 1, to: level }];
      if (status !== row.status) changes.push({ field: 'status', from: row.status, to: status });
      const reassigned = assignee !== null && assignee !== row.assigned_to;
      if (reassigned) changes.push({ field: 'assignedTo', from: row.assigned_to, to: assignee });
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
    return result;
  }

  function payloadOf(t: esc.SweptTicket, changes: string[]): TicketEventPayload {
    const info = (t.additional_information ?? {}) as { assetLabel?: string | null; deviceLabel?: string | null };
    return {
      id: t.id,
      ticketId: t.ticket_no,
      title: t.title,
      type: t.type,
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

  /** Sends the events of a batch; the notification config of the users named is read once per tenant. */
  async function announce(tickets: esc.SweptTicket[], kind: 'escalated' | 'overdue', fired?: Plan['fired']) {
    const byTenant = new Map<number, esc.SweptTicket[]>();
    for (const t of tickets) byTenant.set(t.tenant_id, [...(byTenant.get(t.tenant_id) ?? []), t]);
    for (const [tenantId, list] of byTenant) {
      const targets = new Map<number, number[]>();
      for (const t of list) {
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
        targets.set(t.id, [...new Set(ids.filter((id): id is number => typeof id === 'number'))]);
      }
      const everyone = [...new Set([...targets.values()].flat())];
      const want = await deps.admin.notificationFilter(tenantId, everyone);
      for (const t of list) {
        const eventKind = kind === 'escalated' ? 'escalated' : 'updated';
        const userIds = (targets.get(t.id) ?? []).filter((id) => want(id, eventKind, t.type));
        const changes = kind === 'overdue' ? (t.status !== t.old_status ? ['status', 'overdue'] : ['overdue']) : ['escalationLevel'];
        if (userIds.length > 0) {
          deps.events.emit({
            type: kind === 'escalated' ? EVENT_TYPES.ticketEscalated : EVENT_TYPES.ticketUpdated,
            tenantId,
            userIds,
            payload: payloadOf(t, changes),
          });
        }
        if (fired?.get(t.id)?.reassigned && t.assigned_to && want(t.assigned_to, 'assigned', t.type)) {
          deps.events.emit({ type: EVENT_TYPES.ticketAssigned, tenantId, userIds: [t.assigned_to], payload: payloadOf(t, ['assignedTo']) });
        }
      }
    }
  }

  return {
    /** The timer of one level: fires it when it is still the next one and due, then schedules the following level. */
    async escalateTicket(tenantId: number, ticketId: number, cycle: number, level: number) {
      const out = await db.transaction().execute(async (trx) => {
        const row = await esc.lockEscalationOf(trx, tenantId, ticketId, cycle, level);
        if (!row) return null;
        const p = await plan(trx, [row]);
        if (p.clear.length) await esc.clearEscalation(trx, p.clear);
        const applied = await esc.applyEscalations(trx, p.steps);
        const next = p.steps[0]?.nextWait;
        if (applied.length && next) {
          await enqueueJob(trx, {
            tenantId,
            queue: ESCALATION_QUEUE,
            payload: { ticketId, cycle, level: level + 1 },
            runAt: new Date(Date.now() + next * 60_000),
            dedupeKey: `${tenantId}:${ticketId}:${cycle}:${level + 1}`,
          });
        }
        return { applied, fired: p.fired };
      });
      if (out?.applied.length) await announce(out.applied, 'escalated', out.fired);
      return out?.applied.length ?? 0;
    },

    /** One pass over everything due: overdue marks first, then escalation levels, in batches, within a time budget. */
    async sweep(opts: { batch?: number; budgetMs?: number } = {}) {
      const batch = opts.batch ?? 5000;
      const deadline = Date.now() + (opts.budgetMs ?? 20_000);
      let overdue = 0;
      let escalated = 0;
      for (;;) {
        const rows = await esc.markOverdue(db, batch);
        overdue += rows.length;
        await announce(rows, 'overdue');
        if (rows.length < batch || Date.now() > deadline) break;
      }
      for (;;) {
        const out = await db.transaction().execute(async (trx) => {
          const due = await esc.lockDueEscalations(trx, batch);
          const p = await plan(trx, due);
          await esc.clearEscalation(trx, p.clear);
          return { due: due.length, applied: await esc.applyEscalations(trx, p.steps), fired: p.fired };
        });
        escalated += out.applied.length;
        await announce(out.applied, 'escalated', out.fired);
        if (out.due < batch || Date.now() > deadline) break;
      }
      return { overdue, escalated };
    },
  };
}
export type EscalationEngine = ReturnType<typeof createEscalationEngine>;
