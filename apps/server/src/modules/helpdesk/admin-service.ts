import {
  DEFAULT_PRIORITY_COLOUR,
  type EscalationPolicy,
  escalationPolicyInputSchema,
  type HelpdeskConfig,
  helpdeskConfigSchema,
  type helpdeskConfigUpdateSchema,
  type IssueType,
  type issueTypeInputSchema,
  type prefsUpdateSchema,
  TICKET_STATUS_COLOURS,
  TICKET_STATUS_LABELS,
  TICKET_STATUSES,
  TICKET_TRANSITIONS,
  ticketListPrefsSchema,
  ticketNotificationPrefsSchema,
} from '@sitewatch/contracts';
import type { z } from 'zod';
import { type AuditOrigin, changedFields, masked, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { UserDirectory } from '../users/directory.ts';
import { type Actor, isAdmin } from './access.ts';
import * as repo from './admin-repository.ts';
import { displayName, iso } from './mapper.ts';
import type { StoredLevel } from './tables.ts';

const CONFIG_CACHE_MS = 5_000;

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** An issue type's columns from its input. */
const issueTypeValues = (input: z.infer<typeof issueTypeInputSchema>) => ({
  name: input.name,
  sub_types: [...new Set(input.subTypes)],
  ticket_types: input.ticketTypes,
  default_priority: input.defaultPriority,
  sla_hours: input.slaHours,
  description: input.description,
  active: input.active,
});

/** An issue type's fields as its activity log entries show them. */
const issueTypeRecord = (r: {
  name: string;
  sub_types: string[];
  ticket_types: string[];
  default_priority: string | null;
  sla_hours: number | null;
  description: string;
  active: boolean;
}) => ({
  name: r.name,
  subTypes: r.sub_types,
  ticketTypes: r.ticket_types,
  defaultPriority: r.default_priority,
  slaHours: r.sla_hours,
  description: r.description,
  active: r.active,
});

/** An escalation policy's fields as its activity log entries show them. */
const policyRecord = (r: {
  name: string;
  description: string;
  ticket_types: string[];
  priorities: string[];
  events: string[];
  stop_at: string;
  levels: unknown;
  active: boolean;
}) => ({
  name: r.name,
  description: r.description,
  ticketTypes: r.ticket_types,
  priorities: r.priorities,
  events: r.events,
  stopAt: r.stop_at,
  levels: typeof r.levels === 'string' ? (JSON.parse(r.levels) as unknown) : r.levels,
  active: r.active,
});

/** Helpdesk configuration, list preferences, issue types and escalation policies. */
export function createAdminService(db: Db, users: UserDirectory) {
  const cache = new Map<number, { config: HelpdeskConfig; at: number }>();

  async function config(tenantId: number): Promise<HelpdeskConfig> {
    const hit = cache.get(tenantId);
    if (hit && Date.now() - hit.at < CONFIG_CACHE_MS) return hit.config;
    const stored = await repo.findConfig(db, tenantId);
    const parsed = helpdeskConfigSchema.safeParse(stored);
    const value = parsed.success ? parsed.data : helpdeskConfigSchema.parse({});
    cache.set(tenantId, { config: value, at: Date.now() });
    return value;
  }

  const requireAdmin = (actor: Actor) => {
    if (!isAdmin(actor)) throw forbidden();
  };

  function toIssueType(r: NonNullable<Awaited<ReturnType<typeof repo.findIssueType>>>): IssueType {
    return {
      id: r.id,
      name: r.name,
      subTypes: r.sub_types,
      ticketTypes: r.ticket_types as IssueType['ticketTypes'],
      defaultPriority: r.default_priority,
      slaHours: r.sla_hours,
      description: r.description,
      active: r.active,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    };
  }

  function toPolicy(r: repo.PolicyRow, activeTickets: number): EscalationPolicy {
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      ticketTypes: r.ticket_types as EscalationPolicy['ticketTypes'],
      priorities: r.priorities,
      events: r.events,
      stopAt: r.stop_at as EscalationPolicy['stopAt'],
      levels: r.levels as EscalationPolicy['levels'],
      active: r.active,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
      activeTickets,
    };
  }

  async function checkPriority(tenantId: number, priority: string | null) {
    if (priority === null) return;
    const { priorities } = await config(tenantId);
    if (!priorities.some((p) => p.name === priority)) throw badRequest(`Unknown priority: ${priority}`);
  }

  async function checkPolicyUsers(tenantId: number, levels: StoredLevel[]) {
    const ids = [...new Set(levels.flatMap((l) => [...(l.assigneeId ? [l.assigneeId] : []), ...l.notify.userIds]))];
    const found = await users.byIds(tenantId, ids);
    const missing = ids.filter((id) => !found.some((u) => u.id === id));
    if (missing.length) throw badRequest(`Unknown users in the escalation levels: ${missing.join(', ')}`);
  }

  return {
    config,
    /** Each user's ticket notification config, when they saved one. */
    async notificationPrefs(tenantId: number, userIds: number[]): Promise<Map<number, unknown>> {
      const rows = await repo.prefsOfUsers(db, tenantId, userIds, 'notifications');
      return new Map(rows.map((r) => [r.user_id, r.value]));
    },
    /** `origin`: who changes the settings, for the activity log (null: not recorded). */
    async updateConfig(actor: Actor, patch: z.infer<typeof helpdeskConfigUpdateSchema>, origin: AuditOrigin | null) {
      requireAdmin(actor);
      const current = await config(actor.tenantId);
      const next = helpdeskConfigSchema.parse({
        ...current,
        ...(patch.priorities ? { priorities: patch.priorities } : {}),
        ...(patch.ratingThreshold !== undefined ? { ratingThreshold: patch.ratingThreshold } : {}),
        ...(patch.raiseTicketOnLowRating !== undefined ? { raiseTicketOnLowRating: patch.raiseTicketOnLowRating } : {}),
        ...(patch.defaultDueHours !== undefined ? { defaultDueHours: patch.defaultDueHours } : {}),
        types: patch.typeSettings ? { ...current.types, [patch.typeSettings.type]: patch.typeSettings } : current.types,
      });
      const names = next.priorities.map((p) => p.name);
      if (new Set(names).size !== names.length) throw badRequest('Priority names must be unique');
      await db.transaction().execute(async (trx) => {
        await repo.saveConfig(trx, actor.tenantId, next);
        if (origin) {
          const change = changedFields(masked(current), masked(next));
          const object = { type: 'helpdesk-settings', id: actor.tenantId };
          await writeActivity(trx, origin, { action: 'helpdesk-settings.update', object, ...change });
        }
      });
      cache.delete(actor.tenantId);
      return next;
    },

    statuses(page: number, limit: number) {
      const all = TICKET_STATUSES.map((name) => ({
        name,
        color: TICKET_STATUS_COLOURS[name],
        label: TICKET_STATUS_LABELS[name],
        transitions: [...TICKET_TRANSITIONS[name]],
      }));
      return { contents: all.slice((page - 1) * limit, page * limit), totalCount: all.length };
    },

    async priorities(tenantId: number) {
      return { contents: (await config(tenantId)).priorities };
    },
    priorityColour: async (tenantId: number, name: string) =>
      (await config(tenantId)).priorities.find((p) => p.name === name)?.color ?? DEFAULT_PRIORITY_COLOUR,

    async prefs(actor: Actor, type: string) {
      const rows = await repo.findPrefs(db, actor.tenantId, actor.userId, [`list:${type}`, 'notifications']);
      const list = rows.find((r) => r.key === `list:${type}`)?.value;
      const notifications = rows.find((r) => r.key === 'notifications')?.value;
      return {
        list: ticketListPrefsSchema.catch(ticketListPrefsSchema.parse({})).parse(list ?? {}),
        notifications: ticketNotificationPrefsSchema.catch(ticketNotificationPrefsSchema.parse({})).parse(notifications ?? {}),
      };
    },
    async savePrefs(actor: Actor, body: z.infer<typeof prefsUpdateSchema>) {
      if (body.list) await repo.savePrefs(db, actor.tenantId, actor.userId, `list:${body.type}`, body.list);
      if (body.notifications) await repo.savePrefs(db, actor.tenantId, actor.userId, 'notifications', body.notifications);
      return this.prefs(actor, body.type);
    },
    async assignees(tenantId: number, opts: { search?: string; ids?: number[]; limit: number }) {
      const rows = await users.search(tenantId, opts);
      return {
        contents: rows.map((u) => ({ id: u.id, name: displayName(u), email: u.email, roles: u.roles })),
        totalCount: rows.length,
      };
    },

    // Issue types -------------------------------------------------------------------------------------------------
    async listIssueTypes(tenantId: number, q: { page: number; limit: number; search?: string; ticketType?: string; active?: boolean }) {
      const { rows, total } = await repo.listIssueTypes(db, tenantId, { ...q, offset: (q.page - 1) * q.limit });
      return { contents: rows.map(toIssueType), totalCount: total };
    },
    async getIssueType(tenantId: number, id: number) {
      const row = await repo.findIssueType(db, tenantId, id);
      if (!row) throw notFound();
      return toIssueType(row);
    },
    async createIssueType(actor: Actor, input: z.infer<typeof issueTypeInputSchema>, origin: AuditOrigin | null) {
      requireAdmin(actor);
      await checkPriority(actor.tenantId, input.defaultPriority);
      try {
        const row = await db.transaction().execute(async (trx) => {
          const row = await repo.insertIssueType(trx, { ...issueTypeValues(input), tenant_id: actor.tenantId, updated_at: new Date() });
          if (origin) {
            const object = { type: 'issue-type', id: row.id };
            await writeActivity(trx, origin, { action: 'issue-type.create', object, after: issueTypeRecord(row) });
          }
          return row;
        });
        return toIssueType(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An issue type named "${input.name}" already exists`);
        throw error;
      }
    },
    async updateIssueType(actor: Actor, id: number, input: z.infer<typeof issueTypeInputSchema>, origin: AuditOrigin | null) {
      requireAdmin(actor);
      await checkPriority(actor.tenantId, input.defaultPriority);
      const current = await repo.findIssueType(db, actor.tenantId, id);
      if (!current) throw notFound();
      try {
        const row = await db.transaction().execute(async (trx) => {
          const row = await repo.updateIssueType(trx, actor.tenantId, id, issueTypeValues(input));
          if (!row) throw notFound();
          if (origin) {
            const change = changedFields(issueTypeRecord(current), issueTypeRecord(row));
            await writeActivity(trx, origin, { action: 'issue-type.update', object: { type: 'issue-type', id }, ...change });
          }
          return row;
        });
        return toIssueType(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An issue type named "${input.name}" already exists`);
        throw error;
      }
    },
    async deleteIssueType(actor: Actor, id: number, origin: AuditOrigin | null) {
      requireAdmin(actor);
      const current = await repo.findIssueType(db, actor.tenantId, id);
      if (!current) throw notFound();
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deleteIssueType(trx, actor.tenantId, id))) throw notFound();
        if (origin)
          await writeActivity(trx, origin, {
            action: 'issue-type.delete',
            object: { type: 'issue-type', id },
            before: issueTypeRecord(current),
          });
      });
    },
    findIssueTypeByName: (tenantId: number, name: string) => repo.findIssueTypeByName(db, tenantId, name),
    countIssueTypes: (tenantId: number) => repo.countIssueTypes(db, tenantId),

    // Escalation policies -----------------------------------------------------------------------------------------
    async listPolicies(tenantId: number, q: { page: number; limit: number; search?: string }) {
      const { rows, total } = await repo.listPolicies(db, tenantId, { ...q, offset: (q.page - 1) * q.limit });
      const counts = await repo.activeTicketCounts(
        db,
        tenantId,
        rows.map((r) => r.id),
      );
      return { contents: rows.map((r) => toPolicy(r, counts.get(r.id) ?? 0)), totalCount: total };
    },
    async getPolicy(tenantId: number, id: number) {
      const row = await repo.findPolicy(db, tenantId, id);
      if (!row) throw notFound();
      const counts = await repo.activeTicketCounts(db, tenantId, [id]);
      return toPolicy(row, counts.get(id) ?? 0);
    },
    /** Creates (id null) or changes a policy; `origin`: who, for the activity log (null: not recorded). */
    async savePolicy(actor: Actor, id: number | null, raw: z.input<typeof escalationPolicyInputSchema>, origin: AuditOrigin | null) {
      requireAdmin(actor);
      const input = escalationPolicyInputSchema.parse(raw);
      const levels = input.levels as StoredLevel[];
      await checkPolicyUsers(actor.tenantId, levels);
      for (const p of input.priorities) await checkPriority(actor.tenantId, p);
      const values = {
        name: input.name,
        description: input.description,
        ticket_types: input.ticketTypes,
        priorities: input.priorities,
        events: input.events,
        stop_at: input.stopAt,
        levels: JSON.stringify(levels),
        active: input.active,
      };
      try {
        if (id === null) {
          const row = await db.transaction().execute(async (trx) => {
            const row = await repo.insertPolicy(trx, { ...values, tenant_id: actor.tenantId, updated_at: new Date() });
            if (origin) {
              const object = { type: 'escalation-policy', id: row.id };
              await writeActivity(trx, origin, { action: 'escalation-policy.create', object, after: policyRecord(row) });
            }
            return row;
          });
          return toPolicy(row, 0);
        }
        const current = await repo.findPolicy(db, actor.tenantId, id);
        const row = await db.transaction().execute(async (trx) => {
          const updated = await repo.updatePolicy(trx, actor.tenantId, id, values);
          if (updated && !updated.active) await repo.stopPolicyTimers(trx, actor.tenantId, id);
          if (updated && current && origin) {
            const change = changedFields(policyRecord(current), policyRecord(updated));
            await writeActivity(trx, origin, { action: 'escalation-policy.update', object: { type: 'escalation-policy', id }, ...change });
          }
          return updated;
        });
        if (!row) throw notFound();
        const counts = await repo.activeTicketCounts(db, actor.tenantId, [id]);
        return toPolicy(row, counts.get(id) ?? 0);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An escalation policy named "${input.name}" already exists`);
        throw error;
      }
    },
    async deletePolicy(actor: Actor, id: number, origin: AuditOrigin | null) {
      requireAdmin(actor);
      const current = await repo.findPolicy(db, actor.tenantId, id);
      const deleted = await db.transaction().execute(async (trx) => {
        await repo.stopPolicyTimers(trx, actor.tenantId, id);
        const deleted = await repo.deletePolicy(trx, actor.tenantId, id);
        if (deleted && current && origin)
          await writeActivity(trx, origin, {
            action: 'escalation-policy.delete',
            object: { type: 'escalation-policy', id },
            before: policyRecord(current),
          });
        return deleted;
      });
      if (!deleted) throw notFound();
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
