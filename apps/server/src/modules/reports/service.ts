import {
  MAX_REPORT_SCHEDULES,
  REPORT_KINDS,
  type ReportKind,
  type ReportSchedule,
  type ReportScheduleInput,
  SCHEDULE_FREQUENCY_LABELS,
} from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { Clock } from '../../platform/module.ts';
import { issueMessage } from '../../platform/validation-messages.ts';
import type { DownloadService, ExportScope } from '../downloads/index.ts';
import type { UserDirectory } from '../users/directory.ts';
import { nextRun } from './next-run.ts';
import * as repo from './repository.ts';
import type { ReportSources } from './sources.ts';

type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;
const DUE_BATCH = 100;

const scopeOf = (actor: Actor): ExportScope => ({
  tenantId: actor.tenantId,
  userId: actor.userId,
  roles: actor.roles,
  permissions: [...actor.permissions],
});

function toSchedule(r: repo.ScheduleRow): ReportSchedule {
  return {
    id: r.id,
    kind: r.kind as ReportKind,
    name: r.name,
    frequency: r.frequency,
    time: r.time_of_day,
    dayOfWeek: r.day_of_week,
    dayOfMonth: r.day_of_month,
    format: r.format,
    params: r.params,
    nextRunAt: new Date(r.next_run_at).toISOString(),
    lastRunAt: r.last_run_at ? new Date(r.last_run_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/**
 * Report schedules: a user asks for a report (kind, filters, format) daily, weekly or monthly; the job starts the
 * export as that user with their rights at the time of the run, and the file lands in /downloads with an inbox item.
 * A user sees and deletes only their own schedules.
 */
export function createReportScheduleService(deps: {
  db: Db;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  users: Pick<UserDirectory, 'actor'>;
  downloads: Pick<DownloadService, 'startExportAs'>;
  reports: ReportSources;
}) {
  const { db, reports } = deps;

  function sourceFor(actor: Actor, kind: ReportKind) {
    const source = reports.sources[kind];
    if (!source.allowed(scopeOf(actor))) throw forbidden();
    return source;
  }

  return {
    /** Whether the actor may schedule a report of at least one kind (which kind is the body's). */
    mayScheduleAny: (actor: Actor) => Object.values(reports.sources).some((source) => source.allowed(scopeOf(actor))),

    async list(actor: Actor, kind?: ReportKind) {
      const rows = await repo.listOwn(db, actor.tenantId, actor.userId, kind);
      return { contents: rows.map(toSchedule), totalCount: rows.length };
    },

    async create(actor: Actor, input: ReportScheduleInput, origin: AuditOrigin | null) {
      const source = sourceFor(actor, input.kind);
      let params = input.params;
      if (source.params) {
        const parsed = source.params.safeParse(input.params);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw badRequest(issue ? issueMessage(issue) : 'Validation failed', 'validation_error');
        }
        params = parsed.data;
      }
      if ((await repo.countOwn(db, actor.tenantId, actor.userId)) >= MAX_REPORT_SCHEDULES)
        throw conflict(`At most ${MAX_REPORT_SCHEDULES} report schedules; delete one first.`, 'too_many_schedules');
      const cadence = {
        frequency: input.frequency,
        time: input.time,
        dayOfWeek: input.frequency === 'WEEKLY' ? input.dayOfWeek : null,
        dayOfMonth: input.frequency === 'MONTHLY' ? input.dayOfMonth : null,
      };
      const row = await db.transaction().execute(async (trx) => {
        const created = await repo.insert(trx, {
          tenant_id: actor.tenantId,
          user_id: actor.userId,
          kind: input.kind,
          name: input.name,
          frequency: cadence.frequency,
          time_of_day: cadence.time,
          day_of_week: cadence.dayOfWeek,
          day_of_month: cadence.dayOfMonth,
          format: input.format,
          params: JSON.stringify(params),
          next_run_at: nextRun(cadence, deps.clock.now()),
          created_at: deps.clock.now(),
        });
        if (origin)
          await writeActivity(trx, origin, {
            action: 'report-schedule.create',
            object: { type: 'report-schedule', id: created.id },
            after: { kind: input.kind, name: input.name, frequency: SCHEDULE_FREQUENCY_LABELS[input.frequency], format: input.format },
          });
        return created;
      });
      return toSchedule(row);
    },

    async remove(actor: Actor, id: number, origin: AuditOrigin | null) {
      const row = await repo.findOwn(db, actor.tenantId, actor.userId, id);
      if (!row) throw notFound('Schedule not found.');
      await db.transaction().execute(async (trx) => {
        await repo.remove(trx, actor.tenantId, actor.userId, id);
        if (origin)
          await writeActivity(trx, origin, {
            action: 'report-schedule.delete',
            object: { type: 'report-schedule', id },
            before: { kind: row.kind, name: row.name },
          });
      });
    },

    /**
     * Starts every schedule whose time has come by the clock. Each run is claimed by moving the schedule on first,
     * so two workers never start the same run, and a run missed while nothing ran is made once, not many times.
     */
    async runDue() {
      let started = 0;
      const now = deps.clock.now();
      for (const row of await repo.due(db, now, DUE_BATCH)) {
        const cadence = { frequency: row.frequency, time: row.time_of_day, dayOfWeek: row.day_of_week, dayOfMonth: row.day_of_month };
        if (!(await repo.claim(db, row, nextRun(cadence, now), now))) continue;
        if (!(REPORT_KINDS as readonly string[]).includes(row.kind)) continue;
        const actor = await deps.users.actor(row.tenant_id, row.user_id);
        if (!actor) continue;
        try {
          const job = await deps.downloads.startExportAs(
            scopeOf(actor),
            { kind: row.kind, format: row.format, params: row.params, name: `${row.name} ${now.toISOString().slice(0, 10)}` },
            { notify: true },
          );
          await repo.setLastJob(db, row.tenant_id, row.id, job.jobId);
          started++;
        } catch (err) {
          deps.log.warn({ err, scheduleId: row.id }, 'scheduled report not started');
        }
      }
      return { started };
    },
  };
}
export type ReportScheduleService = ReturnType<typeof createReportScheduleService>;
