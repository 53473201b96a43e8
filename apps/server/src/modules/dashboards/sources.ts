import {
  DASHBOARD_LIMITS,
  DEVICE_TYPE_LABELS,
  type DeviceType,
  TICKET_STATUS_COLOURS,
  TICKET_STATUS_LABELS,
  type TicketStatus,
} from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import { ANY, type TimeRange, type ValueFilter } from '../../platform/sql-lists.ts';
import { type AlarmDashboardReads, createAlarmDashboardReads } from '../alarms/dashboard-reads.ts';
import { createDeviceDashboardReads, type DeviceDashboardReads, type DeviceScope, deviceIdsInScope } from '../devices/dashboard-reads.ts';
import { createFormDashboardReads, type FormDashboardReads } from '../forms/dashboard-reads.ts';
import type { TicketDashboardReads, TicketScope } from '../helpdesk/dashboard-reads.ts';
import { createSiteDashboardReads, type SiteDashboardReads } from '../sites/dashboard-reads.ts';
import { createTelemetryDashboardReads, type TelemetryDashboardReads } from '../telemetry/dashboard-reads.ts';
import { type CameraDashboardReads, createCameraDashboardReads } from '../video/dashboard-reads.ts';
import { allowed, type DataScope, sitesWithin, type Value } from './scope.ts';

/**
 * The bounded, scoped reads behind widgets, composed from each owning module's dashboard reads (every table is
 * read by its own module). The scope's sites and typed filters travel as bound parameters; nothing from a widget or
 * a condition is spliced into SQL text.
 */

export type Range = TimeRange;

export interface DashboardReads {
  sites: SiteDashboardReads;
  devices: DeviceDashboardReads;
  telemetry: TelemetryDashboardReads;
  alarms: AlarmDashboardReads;
  tickets: TicketDashboardReads;
  cameras: CameraDashboardReads;
  forms: FormDashboardReads;
}

/** Each owning module's reads over the database; tickets come from the helpdesk, which knows who sees which ticket. */
export const createDashboardReads = (db: Db, tickets: TicketDashboardReads): DashboardReads => ({
  sites: createSiteDashboardReads(db),
  devices: createDeviceDashboardReads(db),
  telemetry: createTelemetryDashboardReads(db),
  alarms: createAlarmDashboardReads(db),
  tickets,
  cameras: createCameraDashboardReads(db),
  forms: createFormDashboardReads(db),
});

const filterOf = (scope: DataScope, key: string, wanted: readonly Value[] = []): ValueFilter => allowed(scope.filters.get(key), wanted);

function deviceScope(scope: DataScope, sites: number[] | 'all' = scope.sites): DeviceScope {
  return { tenantId: scope.tenantId, sites, ids: filterOf(scope, 'devices.id'), types: filterOf(scope, 'devices.type') };
}

export function createDashboardSources(reads: DashboardReads) {
  const ticketScope = (
    scope: DataScope,
    w: { types: string[]; statuses: string[]; priorities?: string[]; siteIds: number[] },
    range: Range | null,
  ): TicketScope => ({
    tenantId: scope.tenantId,
    actor: scope.actor,
    // the actor's own sites are part of the helpdesk's visibility (with the tickets they take part in); only the
    // widget's sites and a link's site conditions narrow further
    sites: scope.sitesConditioned ? sitesWithin(scope, w.siteIds) : w.siteIds.length ? [...w.siteIds] : 'all',
    types: filterOf(scope, 'tickets.type', w.types),
    statuses: filterOf(scope, 'tickets.status', w.statuses),
    priorities: filterOf(scope, 'tickets.priority', w.priorities ?? []),
    // a device condition reaches the tickets raised on a device
    entities: scope.filters.has('devices.id') ? filterOf(scope, 'devices.id') : ANY,
    range,
  });

  return {
    resolveSites: (tenantId: number, base: number[] | 'all', filters: Parameters<SiteDashboardReads['resolve']>[2]) =>
      reads.sites.resolve(tenantId, base, filters),

    /** Whether any of these sites, devices or customers lies outside `base` (or outside the tenant). */
    async outside(tenantId: number, base: number[] | 'all', names: { siteIds: number[]; deviceIds: number[]; customerIds: number[] }) {
      const distinct = (ids: number[]) => [...new Set(ids)];
      const sites = distinct(names.siteIds);
      const devices = distinct(names.deviceIds);
      const customers = distinct(names.customerIds);
      if (sites.length && (await reads.sites.countWithin(tenantId, base, sites)) !== sites.length) return true;
      if (devices.length && (await reads.devices.countWithin(tenantId, base, devices)) !== devices.length) return true;
      if (customers.length && (await reads.sites.customersWithin(tenantId, base, customers)) !== customers.length) return true;
      return false;
    },

    async device(scope: DataScope, deviceId: number) {
      return (await reads.devices.some(deviceScope(scope), [deviceId]))[0] ?? null;
    },

    series: (scope: DataScope, deviceId: number, key: string, range: Range, agg: 'none' | 'avg' | 'min' | 'max', interval: number) =>
      reads.telemetry.series(scope.tenantId, deviceId, key, range, agg, interval, DASHBOARD_LIMITS.pointsPerSeries),

    latest: (scope: DataScope, deviceId: number, key: string) => reads.telemetry.latest(scope.tenantId, deviceId, key),

    async siteSummary(scope: DataScope, siteIds: number[], types: DeviceType[]) {
      const s = deviceScope(scope, sitesWithin(scope, siteIds));
      const { rows, sites } = await reads.devices.summary(s, filterOf(scope, 'devices.type', types), DASHBOARD_LIMITS.rowsPerTable);
      return {
        rows: rows.map((r) => ({
          type: r.type,
          label: DEVICE_TYPE_LABELS[r.type as DeviceType] ?? r.type,
          total: r.total,
          online: r.online,
          offline: r.offline,
          notC: r.notc,
        })),
        sites,
      };
    },

    async alarms(
      scope: DataScope,
      w: { severities: string[]; state: string | null; siteIds: number[]; limit: number },
      range: Range | null,
    ) {
      const s = deviceScope(scope, sitesWithin(scope, w.siteIds));
      const { rows, totalCount } = await reads.alarms.list(scope.tenantId, deviceIdsInScope(s), {
        severity: filterOf(scope, 'alarms.severity', w.severities),
        state: w.state,
        range,
        limit: w.limit,
      });
      const devices = new Map((await reads.devices.some(s, [...new Set(rows.map((r) => r.device_id))])).map((d) => [d.id, d]));
      return {
        rows: rows.map((r) => ({
          id: r.id,
          deviceId: r.device_id,
          deviceLabel: devices.get(r.device_id)?.label ?? '',
          siteId: devices.get(r.device_id)?.asset_id ?? null,
          siteName: devices.get(r.device_id)?.site_name ?? null,
          severity: r.severity,
          state: r.state,
          message: r.message,
          createdAt: new Date(r.raised_at).toISOString(),
        })),
        totalCount,
        truncated: totalCount > rows.length,
      };
    },

    async ticketCounters(scope: DataScope, w: { types: string[]; statuses: TicketStatus[]; siteIds: number[] }, range: Range | null) {
      const s = ticketScope(scope, w, range);
      const rows = await reads.tickets.countsByStatus(s);
      const by = new Map(rows.map((r) => [r.status, r.n]));
      const shown = (s.statuses.only ?? w.statuses).filter((v) => !s.statuses.not.includes(v)) as TicketStatus[];
      return {
        counts: shown.map((status) => ({
          status,
          label: TICKET_STATUS_LABELS[status] ?? status,
          color: TICKET_STATUS_COLOURS[status] ?? '#808080',
          count: by.get(status) ?? 0,
        })),
        total: rows.reduce((a, r) => a + r.n, 0),
      };
    },

    async ticketList(
      scope: DataScope,
      w: { types: string[]; statuses: string[]; priorities: string[]; siteIds: number[]; limit: number },
      range: Range | null,
    ) {
      const { rows, totalCount } = await reads.tickets.list(ticketScope(scope, w, range), w.limit);
      return {
        rows: rows.map((r) => ({
          id: r.id,
          ticketId: r.ticket_no,
          title: r.title,
          status: r.status,
          priority: r.priority,
          type: r.type,
          siteId: r.location_id,
          siteName: r.site_name,
          createdAt: new Date(r.created_at).toISOString(),
        })),
        totalCount,
        truncated: totalCount > rows.length,
      };
    },

    async siteMap(scope: DataScope, siteIds: number[]) {
      const limit = DASHBOARD_LIMITS.rowsPerTable;
      const sites = await reads.sites.located(scope.tenantId, sitesWithin(scope, siteIds), limit);
      const kept = sites.slice(0, limit);
      const counts = await reads.devices.countsBySite(
        deviceScope(scope),
        kept.map((s) => s.id),
      );
      return {
        sites: kept.map((s) => ({
          id: s.id,
          name: s.name,
          latitude: Number(s.latitude),
          longitude: Number(s.longitude),
          devices: counts.get(s.id)?.devices ?? 0,
          offline: counts.get(s.id)?.offline ?? 0,
        })),
        truncated: sites.length > limit,
      };
    },

    async camera(scope: DataScope, cameraId: number) {
      const device = (await reads.devices.some(deviceScope(scope), [cameraId]))[0];
      if (!device) return null;
      const label = await reads.cameras.label(scope.tenantId, cameraId);
      if (label === null) return null;
      return { device_id: device.id, name: label || device.label, asset_id: device.asset_id, site_name: device.site_name };
    },

    async formResponses(tenantId: number, formId: number, range: Range) {
      const found = await reads.forms.responsesPerDay(tenantId, formId, range);
      if (!found) return null;
      return {
        formId: found.form.id,
        formName: found.form.label || found.form.name,
        total: found.rows.reduce((a, r) => a + r.n, 0),
        perDay: found.rows.map((r) => ({ day: r.day, count: r.n })),
      };
    },
  };
}
export type DashboardSources = ReturnType<typeof createDashboardSources>;
