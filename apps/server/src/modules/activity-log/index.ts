import {
  type ActivityLogEntry,
  type ActivityLogQuery,
  activityLogPageSchema,
  activityLogQuerySchema,
  USER_PERMISSIONS,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import * as repo from '../../platform/activity-log.ts';
import { type AuditEntry, writeAudit } from '../../platform/audit.ts';
import { type AuthContext, requireAuth } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { ExportSource } from '../downloads/registry.ts';

export interface ActivityLogPorts {
  db: Db;
  clock: Clock;
  jobs: JobWorker;
  /** Each tenant with the retention of its activity log in days (customer settings). */
  tenants(): Promise<{ id: number; retentionDays: number }[]>;
  /** Display names of the tenant's users by id (the users module). */
  userNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
}

/** What other modules ask of the activity log: record an entry, in their own transaction when they pass one. */
export interface ActivityPort {
  record(db: Db, request: FastifyRequest, entry: AuditEntry): Promise<void>;
  exportSource: ExportSource<ExportParams>;
}

const UPKEEP_QUEUE = 'activity-log-upkeep';
const DAY_MS = 86_400_000;
/** The longest retention a tenant may set (customer settings allow 3650 days). */
const MAX_RETENTION_DAYS = 3650;

const exportParams = activityLogQuerySchema.omit({ cursor: true, limit: true });
type ExportParams = z.infer<typeof exportParams>;

function filterOf(q: Omit<ActivityLogQuery, 'cursor' | 'limit'>): repo.ActivityFilter {
  const from = q.from ? new Date(q.from) : undefined;
  const to = q.to ? new Date(q.to) : undefined;
  if (from && to && from >= to) throw badRequest('Please choose an end date greater than the start date');
  return { userId: q.userId, action: q.action, objectType: q.objectType, from, to };
}

const toEntry = (r: repo.ActivityRow, names: Map<number, string>): ActivityLogEntry => ({
  id: String(r.id),
  createdAt: r.created_at.toISOString(),
  performedAt: r.performed_at ? r.performed_at.toISOString() : null,
  actorId: r.actor_id,
  actorName: (r.actor_id !== null ? names.get(r.actor_id) : undefined) ?? r.actor_name,
  action: r.action,
  outcome: r.outcome,
  objectType: r.object_type,
  objectId: r.object_id,
  ip: r.ip,
  userAgent: r.user_agent,
  before: r.before,
  after: r.after,
});

/** /user-activity-logs: the append-only log of sign-ins and changes, its filters, CSV export, retention and upkeep. */
export function createActivityLogModule(ports: ActivityLogPorts): DomainModule<ActivityPort> {
  const { db, clock, jobs } = ports;
  const namesFor = (tenantId: number, rows: repo.ActivityRow[]) =>
    ports.userNames(tenantId, [...new Set(rows.map((r) => r.actor_id).filter((id): id is number => id !== null))]);
  const mayRead = (auth: Pick<AuthContext, 'permissions'>) => auth.permissions.has(USER_PERMISSIONS.view);

  async function upkeep() {
    const now = clock.now();
    for (let offset = 0; offset <= 2; offset++) {
      await repo.ensureMonth(db, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)));
    }
    for (const tenant of await ports.tenants()) {
      const before = new Date(now.getTime() - tenant.retentionDays * DAY_MS);
      while ((await repo.deleteOlderThan(db, tenant.id, before)) > 0) {
        // Bounded batches keep each delete short.
      }
    }
    await repo.dropMonthsBefore(db, new Date(now.getTime() - MAX_RETENTION_DAYS * DAY_MS));
  }

  const exportSource: ExportSource<ExportParams> = {
    kind: 'user-activity-logs',
    label: 'User activity log',
    params: exportParams,
    columns: [
      { key: 'createdAt', header: 'Time', type: 'datetime' },
      { key: 'performedAt', header: 'Done at the site', type: 'datetime' },
      { key: 'actorName', header: 'User', type: 'text' },
      { key: 'actorId', header: 'User ID', type: 'integer' },
      { key: 'action', header: 'Action', type: 'text' },
      { key: 'outcome', header: 'Outcome', type: 'text' },
      { key: 'objectType', header: 'Object', type: 'text' },
      { key: 'objectId', header: 'Object ID', type: 'text' },
      { key: 'ip', header: 'IP Address', type: 'text' },
      { key: 'before', header: 'Before', type: 'text' },
      { key: 'after', header: 'After', type: 'text' },
    ],
    allowed: (scope) => scope.permissions.includes(USER_PERMISSIONS.view),
    pageSize: 5000,
    async fetchPage(scope, params, cursor, limit) {
      const { rows, nextCursor } = await repo.page(db, scope.tenantId, filterOf(params), cursor ?? undefined, limit);
      const names = await namesFor(scope.tenantId, rows);
      return {
        rows: rows.map((r) => {
          const e = toEntry(r, names);
          return { ...e, before: e.before ? JSON.stringify(e.before) : '', after: e.after ? JSON.stringify(e.after) : '' };
        }),
        nextCursor,
      };
    },
  };

  return {
    register(app: FastifyInstance) {
      const r = app.withTypeProvider<ZodTypeProvider>();
      r.get(
        '/iotapp/user-activity-logs/',
        { schema: { tags: ['activity'], querystring: activityLogQuerySchema, response: { 200: activityLogPageSchema } } },
        async (request) => {
          const auth = requireAuth(request);
          if (!mayRead(auth)) throw forbidden();
          const { cursor, limit, ...filters } = request.query;
          const { rows, nextCursor } = await repo.page(db, auth.tenantId, filterOf(filters), cursor, limit);
          const names = await namesFor(auth.tenantId, rows);
          return { contents: rows.map((r) => toEntry(r, names)), nextCursor };
        },
      );
      jobs.register(UPKEEP_QUEUE, async () => {
        await upkeep();
        return undefined;
      });
      jobs.every(UPKEEP_QUEUE, DAY_MS);
    },
    ports: { record: writeAudit, exportSource },
  };
}
