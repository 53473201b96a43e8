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
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { UserDirectory } from '../users/directory.ts';
import { type Actor, isAdmin } from './access.ts';
import * as repo from './admin-repository.ts';
import { displayName, iso } from './mapper.ts';
import type { StoredLevel } from './tables.ts';

const CONFIG_CACHE_MS = 5_000;

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

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
    async updateConfig(actor: Actor, patch: z.infer<typeof helpdeskConfigUpdateSchema>) {
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
      await repo.saveConfig(db, actor.tenantId, next);
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
    async createIssueType(actor: Actor, input: z.infer<typeof issueTypeInputSchema>) {
      requireAdmin(actor);
      await checkPriority(actor.tenantId, input.defaultPriority);
      try {
        const row = await repo.insertIssueType(db, {
          tenant_id: actor.tenantId,
          name: input.name,
          sub_types: [...new Set(input.subTypes)],
          ticket_types: input.ticketTypes,
          default_priority: input.defaultPriority,
          sla_hours: input.slaHours,
          description: input.description,
          active: input.active,
          updated_at: new Date(),
        });
        return toIssueType(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An issue type named "${input.name}" already exists`);
        throw error;
      }
    },
    async updateIssueType(actor: Actor, id: number, input: z.infer<typeof issueTypeInputSchema>) {
      requireAdmin(actor);
      await checkPriority(actor.tenantId, input.defaultPriority);
      try {
        const row = await repo.updateIssueType(db, actor.tenantId, id, {
          name: input.name,
          sub_types: [...new Set(input.subTypes)],
          ticket_types: input.ticketTypes,
          default_priority: input.defaultPriority,
          sla_hours: input.slaHours,
          description: input.description,
          active: input.active,
        });
        if (!row) throw notFound();
        return toIssueType(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An issue type named "${input.name}" already exists`);
        throw error;
      }
    },
    async deleteIssueType(actor: Actor, id: number) {
      requireAdmin(actor);
      if (!(await repo.deleteIssueType(db, actor.tenantId, id))) throw notFound();
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
    async savePolicy(actor: Actor, id: number | null, raw: z.input<typeof escalationPolicyInputSchema>) {
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
          const row = await repo.insertPolicy(db, { ...values, tenant_id: actor.tenantId, updated_at: new Date() });
          return toPolicy(row, 0);
        }
        const row = await db.transaction().execute(async (trx) => {
          const updated = await repo.updatePolicy(trx, actor.tenantId, id, values);
          if (updated && !updated.active) await repo.stopPolicyTimers(trx, actor.tenantId, id);
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
    async deletePolicy(actor: Actor, id: number) {
      requireAdmin(actor);
      const deleted = await db.transaction().execute(async (trx) => {
        await repo.stopPolicyTimers(trx, actor.tenantId, id);
        return repo.deletePolicy(trx, actor.tenantId, id);
      });
      if (!deleted) throw notFound();
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
