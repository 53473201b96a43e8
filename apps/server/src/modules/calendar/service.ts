import {
  CALENDAR_LIMITS,
  CALENDAR_MESSAGES,
  type CalendarEvent,
  type CalendarItem,
  type CalendarRangeQuery,
  type CalendarReschedule,
  type calendarEventInputSchema,
  isCustomerAdmin,
  OWN_EVENT_KINDS,
  type Recurrence,
  ROLES_SEEING_ALL_SITES,
  WEEKDAYS,
} from '@sitewatch/contracts';
import type { z } from 'zod';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { HelpdeskSchedule } from '../helpdesk/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { type UserDirectory, usersById } from '../users/directory.ts';
import { bounds, expand, isOccurrence, rruleText, type Schedule, shiftLocal } from './recurrence.ts';
import * as repo from './repository.ts';

export type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;
type Input = z.output<typeof calendarEventInputSchema>;

/** The clusters port as the calendar uses it (the clusters module's ClusterDirectory). */
export interface ClusterSites {
  siteIdsOf(tenantId: number, clusterId: number): Promise<number[]>;
  list(tenantId: number): Promise<{ id: number; name: string; siteIds: number[] }[]>;
}

export interface CalendarDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  directory: SiteDirectory;
  users: UserDirectory;
  helpdesk: HelpdeskSchedule;
  clusters: ClusterSites;
  /** Called after a maintenance window's event changed or went (the window's timers follow). */
  windowChanged(tenantId: number, eventId: number): Promise<void>;
}

const isAdmin = (a: Actor) => a.roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r)) || isCustomerAdmin(a.roles);

/**
 * Who may do what (docs/field-work.md): admins everything; view_event sees the events of their sites, events
 * without a site and those they take part in; add_event alone adds shifts, visits and other events for oneself and
 * changes or deletes what one added; change_event / delete_event act on every event one sees. A maintenance window
 * switches devices' maintenance mode, so it also needs edit_alarm_config.
 */
export function rightsOf(a: Actor) {
  const admin = isAdmin(a);
  const has = (p: string) => admin || a.permissions.has(p);
  return {
    view: has('view_event'),
    add: has('add_event'),
    change: has('change_event'),
    delete: has('delete_event'),
    addOwnOnly: !admin && a.permissions.has('add_event') && !a.permissions.has('change_event'),
    maintenance: admin || (a.permissions.has('change_event') && a.permissions.has('edit_alarm_config')),
  };
}

export const scheduleOf = (
  row: Pick<repo.EventRow, 'start_local' | 'end_local' | 'time_zone' | 'all_day' | 'recurrence' | 'exceptions'>,
): Schedule => ({
  startLocal: row.start_local,
  endLocal: row.end_local,
  timeZone: row.time_zone,
  allDay: row.all_day,
  recurrence: (row.recurrence as Recurrence | null) ?? null,
  exceptions: row.exceptions,
});

const MINUTE = 60_000;
const floating = (local: string) => Date.parse(`${local}:00Z`);

export function createCalendarService(deps: CalendarDeps) {
  const { db, clock } = deps;

  async function sitesOf(a: Actor): Promise<number[] | 'all'> {
    if (isAdmin(a)) return 'all';
    return deps.directory.visibleAssetIds(a.tenantId, a.userId, a.roles);
  }

  const canSee = (a: Actor, row: repo.EventRow, sites: number[] | 'all') =>
    sites === 'all' ||
    row.site_id === null ||
    sites.includes(row.site_id) ||
    row.created_by === a.userId ||
    row.assignee_ids.includes(a.userId);

  /** May the actor change (or delete) this event? Own events for add_event holders. */
  function mayAct(a: Actor, row: repo.EventRow, what: 'change' | 'delete') {
    const r = rightsOf(a);
    if (row.kind === 'maintenance_window' && !r.maintenance) return false;
    if (r[what]) return true;
    return r.add && row.created_by === a.userId;
  }

  async function visibleEvent(a: Actor, id: number) {
    if (!rightsOf(a).view) throw forbidden();
    const row = await repo.findEvent(db, a.tenantId, id);
    if (!row || !canSee(a, row, await sitesOf(a))) throw notFound();
    return row;
  }

  async function present(a: Actor, rows: repo.EventRow[]): Promise<CalendarEvent[]> {
    const names = await usersById(
      deps.users,
      a.tenantId,
      rows.flatMap((r) => r.assignee_ids),
    );
    const siteNames = await siteNamesOf(
      a.tenantId,
      rows.map((r) => r.site_id),
    );
    const devices = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.device_id).filter((d): d is number => d !== null))) {
      const d = await deps.directory.device(a.tenantId, id);
      if (d) devices.set(id, d.label);
    }
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      kind: r.kind as CalendarEvent['kind'],
      allDay: r.all_day,
      start: r.start_local,
      end: r.end_local,
      timeZone: r.time_zone,
      recurrence: (r.recurrence as Recurrence | null) ?? null,
      rrule: rruleText((r.recurrence as Recurrence | null) ?? null, r.start_local),
      exceptions: r.exceptions,
      seriesId: r.series_id,
      originalStart: r.original_start,
      assignees: r.assignee_ids.map((id) => {
        const u = names.get(id);
        return { id, name: u ? `${u.firstname} ${u.lastname}`.trim() || u.username : `User ${id}` };
      }),
      site: r.site_id !== null ? { id: r.site_id, name: siteNames.get(r.site_id) ?? '' } : null,
      device: r.device_id !== null ? { id: r.device_id, label: devices.get(r.device_id) ?? '' } : null,
      clusterId: r.cluster_id,
      notes: r.notes,
      color: r.color,
      createdBy: r.created_by,
      version: r.version,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      can: { change: mayAct(a, r, 'change'), delete: mayAct(a, r, 'delete') },
    }));
  }

  async function siteNamesOf(tenantId: number, ids: (number | null)[]) {
    const out = new Map<number, string>();
    for (const id of new Set(ids.filter((i): i is number => i !== null))) {
      const s = await deps.directory.asset(tenantId, id);
      if (s) out.set(id, s.name);
    }
    return out;
  }

  /** The stored form of an input: checks what no schema can (zone, length, sites, devices, users, clusters). */
  async function validated(a: Actor, input: Input) {
    const r = rightsOf(a);
    if (input.kind === 'maintenance_window' && !r.maintenance) throw forbidden();
    let assignees = [...new Set(input.assigneeIds)];
    if (r.addOwnOnly) {
      if (!OWN_EVENT_KINDS.includes(input.kind)) throw forbidden(CALENDAR_MESSAGES.ownOnly);
      if (assignees.length === 0) assignees = [a.userId];
      if (assignees.some((id) => id !== a.userId)) throw forbidden(CALENDAR_MESSAGES.ownOnly);
    }
    const minutes = (floating(input.end) - floating(input.start)) / MINUTE;
    if (minutes > CALENDAR_LIMITS.durationDays * 1440) throw badRequest(`end: ${CALENDAR_MESSAGES.tooLong}`);
    const start = input.allDay ? `${input.start.slice(0, 10)}T00:00` : input.start;
    let end = input.allDay ? `${input.end.slice(0, 10)}T00:00` : input.end;
    if (input.allDay && end <= start) end = shiftLocal(start, '2000-01-01T00:00', '2000-01-02T00:00');
    const sites = await sitesOf(a);
    const seesSite = (id: number) => sites === 'all' || sites.includes(id);
    if (input.siteId !== null && (!seesSite(input.siteId) || !(await deps.directory.asset(a.tenantId, input.siteId))))
      throw badRequest('siteId: Choose a site you may see');
    let siteId = input.siteId;
    if (input.deviceId !== null) {
      const device = await deps.directory.device(a.tenantId, input.deviceId);
      if (!device || device.assetId === null || !seesSite(device.assetId)) throw badRequest('deviceId: Choose a device you may see');
      if (siteId !== null && device.assetId !== siteId) throw badRequest(`deviceId: ${CALENDAR_MESSAGES.deviceSite}`);
      siteId = device.assetId;
    }
    if (assignees.length) {
      const found = await deps.users.byIds(a.tenantId, assignees);
      if (found.length !== assignees.length) throw badRequest('assigneeIds: Choose users of your organisation');
    }
    if (input.clusterId !== null) {
      const clusters = await deps.clusters.list(a.tenantId);
      if (!clusters.some((c) => c.id === input.clusterId)) throw badRequest('clusterId: Choose an existing cluster');
    }
    const recurrence = input.recurrence ? { ...input.recurrence, byWeekday: [...new Set(input.recurrence.byWeekday)] } : null;
    const schedule: Schedule = {
      startLocal: start,
      endLocal: end,
      timeZone: input.timeZone,
      allDay: input.allDay,
      recurrence,
      exceptions: [],
    };
    if (recurrence?.until && recurrence.until < start.slice(0, 10))
      throw badRequest('recurrence.until: The last day must not be before the start');
    const b = bounds(schedule);
    return {
      title: input.title,
      kind: input.kind,
      all_day: input.allDay,
      start_local: start,
      end_local: end,
      time_zone: input.timeZone,
      recurrence: recurrence ? JSON.stringify(recurrence) : null,
      site_id: siteId,
      device_id: input.deviceId,
      cluster_id: input.clusterId,
      notes: input.notes,
      color: input.color,
      assignee_ids: assignees,
      starts_at: b.startsAt,
      ends_at: b.endsAt,
    };
  }

  const record = (r: repo.EventRow) => ({
    title: r.title,
    kind: r.kind,
    allDay: r.all_day,
    start: r.start_local,
    end: r.end_local,
    timeZone: r.time_zone,
    recurrence: r.recurrence,
    exceptions: r.exceptions,
    siteId: r.site_id,
    deviceId: r.device_id,
    clusterId: r.cluster_id,
    assigneeIds: r.assignee_ids,
    notes: r.notes,
    color: r.color,
  });

  function changed(a: Actor, row: Pick<repo.EventRow, 'id' | 'site_id' | 'kind'>, action: 'created' | 'updated' | 'deleted') {
    deps.events.emit({ type: 'calendar.changed', tenantId: a.tenantId, payload: { eventId: row.id, assetId: row.site_id, action } });
  }

  async function afterWrite(a: Actor, rows: Pick<repo.EventRow, 'id' | 'kind'>[], wasWindow = false) {
    for (const r of rows) if (r.kind === 'maintenance_window' || wasWindow) await deps.windowChanged(a.tenantId, r.id);
  }

  const checkVersion = (row: repo.EventRow, version?: number) => {
    if (version !== undefined && version !== row.version)
      throw conflict('This event was changed by someone else. Reload it and try again.', 'stale_version');
  };

  return {
    rightsOf,

    /** Refuses a caller who may not change this event (unseen: 404; not theirs to change: 403). */
    async mayChange(a: Actor, id: number) {
      if (!mayAct(a, await visibleEvent(a, id), 'change')) throw forbidden();
    },

    async options(a: Actor) {
      const r = rightsOf(a);
      if (!r.view) throw forbidden();
      const clusters = await deps.clusters.list(a.tenantId);
      const sites = await sitesOf(a);
      const visible = clusters.filter((c) => sites === 'all' || c.siteIds.some((s) => sites.includes(s)));
      return {
        clusters: visible.map((c) => ({ id: c.id, name: c.name })),
        can: { add: r.add, change: r.change, delete: r.delete, addOwnOnly: r.addOwnOnly, maintenance: r.maintenance },
      };
    },

    /** The occurrences in a range, with the helpdesk's due times, filtered by user, site, cluster and kind. */
    async items(a: Actor, q: CalendarRangeQuery) {
      if (!rightsOf(a).view) throw forbidden();
      const from = new Date(q.from);
      const to = new Date(q.to);
      const sites = await sitesOf(a);
      let onlySites: number[] | undefined;
      if (q.siteId !== undefined) onlySites = [q.siteId];
      if (q.clusterId !== undefined) {
        const cluster = await deps.clusters.siteIdsOf(a.tenantId, q.clusterId);
        onlySites = onlySites ? onlySites.filter((s) => cluster.includes(s)) : cluster;
      }
      if (onlySites && sites !== 'all') onlySites = onlySites.filter((s) => sites.includes(s));
      const rows = await repo.eventsInRange(
        db,
        a.tenantId,
        from,
        to,
        { siteIds: sites, userId: a.userId, assigneeId: q.userId, onlySites, clusterId: q.clusterId, kind: q.kind },
        CALENDAR_LIMITS.items,
      );
      const siteNames = await siteNamesOf(
        a.tenantId,
        rows.map((r) => r.site_id),
      );
      const items: CalendarItem[] = [];
      let truncated = rows.length >= CALENDAR_LIMITS.items;
      for (const r of rows) {
        const editable = mayAct(a, r, 'change');
        for (const o of expand(scheduleOf(r), from, to, CALENDAR_LIMITS.items)) {
          items.push({
            id: `${r.id}:${o.local}`,
            source: 'event',
            eventId: r.id,
            ticketId: null,
            title: r.title,
            kind: r.kind as CalendarItem['kind'],
            start: r.all_day ? o.local.slice(0, 10) : o.start.toISOString(),
            end: r.all_day ? shiftLocal(o.local, r.start_local, r.end_local).slice(0, 10) : o.end.toISOString(),
            allDay: r.all_day,
            timeZone: r.time_zone,
            occurrence: o.local,
            recurring: r.recurrence !== null,
            siteId: r.site_id,
            siteName: r.site_id !== null ? (siteNames.get(r.site_id) ?? null) : null,
            deviceId: r.device_id,
            assigneeIds: r.assignee_ids,
            color: r.color,
            editable,
          });
        }
        if (items.length >= CALENDAR_LIMITS.items) {
          truncated = true;
          break;
        }
      }
      if (q.tickets === 'true' && q.userId === undefined && (q.kind === undefined || q.kind === 'preventive_maintenance')) {
        const due = await deps.helpdesk.dueItems(a, from, to, onlySites ?? null);
        const dueNames = await siteNamesOf(
          a.tenantId,
          due.map((d) => d.siteId),
        );
        for (const d of due) {
          const at = d.at.toISOString();
          items.push({
            id: `${d.kind === 'workorder' ? 'wo' : 'esc'}:${d.ticketId}`,
            source: d.kind,
            eventId: null,
            ticketId: d.ticketId,
            title: `${d.kind === 'workorder' ? 'Work order due' : 'Escalation due'}: ${d.ticketNo} ${d.title}`.slice(0, 300),
            kind: null,
            start: at,
            end: new Date(d.at.getTime() + 30 * MINUTE).toISOString(),
            allDay: false,
            timeZone: null,
            occurrence: null,
            recurring: false,
            siteId: d.siteId,
            siteName: d.siteId !== null ? (dueNames.get(d.siteId) ?? null) : null,
            deviceId: null,
            assigneeIds: [],
            color: null,
            editable: false,
          });
        }
      }
      items.sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
      return { contents: items.slice(0, CALENDAR_LIMITS.items), truncated };
    },

    async list(a: Actor, q: { page: number; limit: number; search?: string; kind?: string }) {
      if (!rightsOf(a).view) throw forbidden();
      const { rows, total } = await repo.listEvents(
        db,
        a.tenantId,
        { siteIds: await sitesOf(a), userId: a.userId, search: q.search, kind: q.kind },
        q.page,
        q.limit,
      );
      return { contents: await present(a, rows), totalCount: total };
    },

    async get(a: Actor, id: number) {
      const [event] = await present(a, [await visibleEvent(a, id)]);
      return event as CalendarEvent;
    },

    async create(a: Actor, input: Input, origin: AuditOrigin) {
      if (!rightsOf(a).add) throw forbidden();
      const values = await validated(a, input);
      const row = await db.transaction().execute(async (trx) => {
        const created = await repo.insertEvent(trx, { tenant_id: a.tenantId, ...values, created_by: a.userId });
        await writeActivity(trx, origin, {
          action: 'calendar.create',
          object: { type: 'calendar_event', id: created.id },
          after: record(created),
        });
        return created;
      });
      changed(a, row, 'created');
      await afterWrite(a, [row]);
      return this.get(a, row.id);
    },

    async update(a: Actor, id: number, input: Input & { version?: number }, origin: AuditOrigin) {
      const current = await visibleEvent(a, id);
      if (!mayAct(a, current, 'change')) throw forbidden();
      checkVersion(current, input.version);
      const values = await validated(a, input);
      const row = await db.transaction().execute(async (trx) => {
        const before = await repo.lockEvent(trx, a.tenantId, id);
        if (!before) throw notFound();
        checkVersion(before, input.version);
        // A new rule or start makes the old exceptions meaningless.
        const keep = before.start_local === values.start_local && JSON.stringify(before.recurrence) === (values.recurrence ?? 'null');
        const after = await repo.updateEvent(trx, a.tenantId, id, { ...values, exceptions: keep ? before.exceptions : [] }, clock.now());
        const { before: b, after: f } = changedFields(record(before), record(after));
        await writeActivity(trx, origin, { action: 'calendar.update', object: { type: 'calendar_event', id }, before: b, after: f });
        return after;
      });
      changed(a, row, 'updated');
      await afterWrite(a, [row], current.kind === 'maintenance_window');
      return this.get(a, id);
    },

    /** Moves one occurrence (an exception in the series plus a detached event) or the whole series. */
    async reschedule(a: Actor, id: number, body: CalendarReschedule, origin: AuditOrigin) {
      const current = await visibleEvent(a, id);
      if (!mayAct(a, current, 'change')) throw forbidden();
      checkVersion(current, body.version);
      const schedule = scheduleOf(current);
      if (!isOccurrence(schedule, body.occurrence)) throw badRequest(`occurrence: ${CALENDAR_MESSAGES.notAnOccurrence}`);
      const minutes = (floating(body.end) - floating(body.start)) / MINUTE;
      if (minutes > CALENDAR_LIMITS.durationDays * 1440) throw badRequest(`end: ${CALENDAR_MESSAGES.tooLong}`);
      const allDay = body.allDay ?? current.all_day;
      const result = await db.transaction().execute(async (trx) => {
        const row = await repo.lockEvent(trx, a.tenantId, id);
        if (!row) throw notFound();
        if (!current.recurrence || body.scope === 'series') {
          const recurrence = current.recurrence ? shiftWeekdays(current.recurrence as Recurrence, body.occurrence, body.start) : null;
          const startLocal = current.recurrence ? shiftLocal(row.start_local, body.occurrence, body.start) : body.start;
          const endLocal = shiftLocal(startLocal, body.start, body.end);
          const exceptions = current.recurrence ? row.exceptions.map((x) => shiftLocal(x, body.occurrence, body.start)) : row.exceptions;
          const b = bounds({ startLocal, endLocal, timeZone: row.time_zone, allDay, recurrence, exceptions });
          const after = await repo.updateEvent(
            trx,
            a.tenantId,
            id,
            {
              start_local: startLocal,
              end_local: endLocal,
              all_day: allDay,
              recurrence: recurrence ? JSON.stringify(recurrence) : null,
              exceptions,
              starts_at: b.startsAt,
              ends_at: b.endsAt,
            },
            clock.now(),
          );
          await writeActivity(trx, origin, {
            action: 'calendar.reschedule',
            object: { type: 'calendar_event', id },
            before: { start: row.start_local, end: row.end_local },
            after: { start: after.start_local, end: after.end_local, scope: body.scope },
          });
          return { row: after, touched: [after] };
        }
        const series = await repo.updateEvent(trx, a.tenantId, id, { exceptions: [...row.exceptions, body.occurrence] }, clock.now());
        const b = bounds({ startLocal: body.start, endLocal: body.end, timeZone: row.time_zone, allDay, recurrence: null, exceptions: [] });
        const detached = await repo.insertEvent(trx, {
          tenant_id: a.tenantId,
          title: row.title,
          kind: row.kind,
          all_day: allDay,
          start_local: body.start,
          end_local: body.end,
          time_zone: row.time_zone,
          recurrence: null,
          exceptions: [],
          series_id: row.id,
          original_start: body.occurrence,
          site_id: row.site_id,
          device_id: row.device_id,
          cluster_id: row.cluster_id,
          notes: row.notes,
          color: row.color,
          assignee_ids: row.assignee_ids,
          starts_at: b.startsAt,
          ends_at: b.endsAt,
          created_by: row.created_by,
        });
        await writeActivity(trx, origin, {
          action: 'calendar.reschedule',
          object: { type: 'calendar_event', id },
          before: { occurrence: body.occurrence },
          after: { start: body.start, end: body.end, scope: 'occurrence', eventId: detached.id },
        });
        return { row: detached, touched: [series, detached] };
      });
      for (const r of result.touched) changed(a, r, 'updated');
      await afterWrite(a, result.touched);
      const [event] = await present(a, [result.row]);
      return { event: event as CalendarEvent };
    },

    /** Deletes an event (with its moved occurrences), or one occurrence of a series. */
    async remove(a: Actor, id: number, occurrence: string | undefined, origin: AuditOrigin) {
      const current = await visibleEvent(a, id);
      if (!mayAct(a, current, 'delete')) throw forbidden();
      if (occurrence !== undefined && current.recurrence) {
        if (!isOccurrence(scheduleOf(current), occurrence)) throw badRequest(`occurrence: ${CALENDAR_MESSAGES.notAnOccurrence}`);
        await db.transaction().execute(async (trx) => {
          const row = await repo.lockEvent(trx, a.tenantId, id);
          if (!row) throw notFound();
          await repo.updateEvent(trx, a.tenantId, id, { exceptions: [...row.exceptions, occurrence] }, clock.now());
          await writeActivity(trx, origin, { action: 'calendar.delete', object: { type: 'calendar_event', id }, detail: { occurrence } });
        });
        changed(a, current, 'updated');
        await afterWrite(a, [current]);
        return;
      }
      const detached = await repo.detachedOf(db, a.tenantId, id);
      await db.transaction().execute(async (trx) => {
        await repo.deleteEvent(trx, a.tenantId, id);
        await writeActivity(trx, origin, { action: 'calendar.delete', object: { type: 'calendar_event', id }, before: record(current) });
      });
      changed(a, current, 'deleted');
      await afterWrite(a, [current, ...detached]);
    },
  };
}

/** Moving a weekly series by whole days moves its weekdays with it (a Wednesday shift dragged to Thursday). */
function shiftWeekdays(r: Recurrence, fromLocal: string, toLocal: string): Recurrence {
  const days = Math.round((floating(`${toLocal.slice(0, 10)}T00:00`) - floating(`${fromLocal.slice(0, 10)}T00:00`)) / 86_400_000);
  if (days === 0 || r.byWeekday.length === 0) return r;
  const shift = ((days % 7) + 7) % 7;
  return { ...r, byWeekday: r.byWeekday.map((d) => WEEKDAYS[(WEEKDAYS.indexOf(d) + shift) % 7] as (typeof WEEKDAYS)[number]) };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
