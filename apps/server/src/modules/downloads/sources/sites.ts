import { DEVICE_TYPE_LABELS, deviceListQuerySchema, SITE_SUMMARY, siteSummaryQuerySchema } from '@sitewatch/contracts';
import type { z } from 'zod';
import type { Db } from '../../../platform/db.ts';
import type { EventBus } from '../../../platform/events.ts';
import { createDeviceService } from '../../devices/service.ts';
import { seesAllSites, type Viewer } from '../../sites/scope.ts';
import { createSiteService } from '../../sites/service.ts';
import type { ExportScope, ExportSource } from '../registry.ts';

const viewerOf = (scope: ExportScope): Viewer => ({ tenantId: scope.tenantId, userId: scope.userId, allSites: seesAllSites(scope.roles) });
const PAGE = 500;

/** Page-numbered services: the cursor is the next page number, every page the same size. */
function byPage<T>(fetch: (page: number) => Promise<{ contents: T[] }>, toRow: (item: T) => Record<string, unknown>) {
  return async (cursor: string | null, limit: number) => {
    const page = cursor ? Number(cursor) : 1;
    const { contents } = await fetch(page);
    return { rows: contents.slice(0, limit).map(toRow), nextCursor: contents.length === PAGE ? String(page + 1) : null };
  };
}

const summaryParams = siteSummaryQuerySchema.omit({ page: true, limit: true });
const detailParams = siteSummaryQuerySchema.pick({ searchText: true, path: true });
const deviceParams = deviceListQuerySchema.omit({ page: true, limit: true, groupBy: true });

/**
 * The site summary table (SPEC 2.11: Name, Total, Online, Offline, Not Connected; file SiteSummary; at most
 * 10000 rows), the 'Site detailed summary' and the device list, read through the sites and devices services
 * with the user's site visibility.
 */
export function siteSources(db: Db, events: EventBus): ExportSource<never>[] {
  const sites = createSiteService(db);
  // Only the device list is used here; provisioning never happens through an export.
  const devices = createDeviceService({
    db,
    events,
    settings: () => Promise.reject(new Error('not used by exports')),
    provisionCustomer: () => Promise.resolve(undefined),
  });
  const canSeeSites = (scope: ExportScope) => scope.permissions.includes('view_asset');
  const canSeeDevices = (scope: ExportScope) => scope.permissions.includes('view_device');

  const summary: ExportSource<z.infer<typeof summaryParams>> = {
    kind: 'site-summary',
    label: SITE_SUMMARY.exportFileName,
    params: summaryParams,
    columns: [
      { key: 'name', header: 'Name' },
      { key: 'total', header: 'Total' },
      { key: 'online', header: 'Online' },
      { key: 'offline', header: 'Offline' },
      { key: 'notC', header: 'Not Connected' },
    ],
    allowed: canSeeSites,
    maxRows: SITE_SUMMARY.exportMaxRows,
    pageSize: PAGE,
    count: async (scope, p) => (await sites.siteSummary(viewerOf(scope), { ...p, page: 1, limit: 1 })).totalCount,
    fetchPage: (scope, p, cursor, limit) =>
      byPage(
        (page) => sites.siteSummary(viewerOf(scope), { ...p, page, limit: PAGE }),
        (r) => ({ name: r.name, total: r.total, online: r.online, offline: r.offline, notC: r.notC }),
      )(cursor, limit),
  };

  const details: ExportSource<z.infer<typeof detailParams>> = {
    kind: 'site-details',
    label: 'Site detailed summary',
    params: detailParams,
    columns: [
      { key: 'name', header: 'Site Name' },
      { key: 'routerStatus', header: 'Router Status' },
      { key: 'siteId', header: 'Site ID' },
      { key: 'dvrCount', header: 'DVRs' },
      { key: 'dvrOffline', header: 'Offline DVRs' },
      { key: 'cameraCount', header: 'Cameras' },
      { key: 'cameraVideoLoss', header: 'Cameras With Video Loss' },
      { key: 'lastUpdated', header: 'Last Updated' },
    ],
    allowed: canSeeSites,
    pageSize: PAGE,
    count: async (scope, p) => (await sites.detailedSummary(viewerOf(scope), { ...p, page: 1, limit: 1 })).totalCount,
    fetchPage: (scope, p, cursor, limit) =>
      byPage(
        (page) => sites.detailedSummary(viewerOf(scope), { ...p, page, limit: PAGE }),
        (r) => ({ ...r }),
      )(cursor, limit),
  };

  const deviceList: ExportSource<z.infer<typeof deviceParams>> = {
    kind: 'devices',
    label: 'Devices',
    params: deviceParams,
    columns: [
      { key: 'label', header: 'Label' },
      { key: 'name', header: 'Name' },
      { key: 'type', header: 'Type' },
      { key: 'status', header: 'Status' },
      { key: 'alarmStatus', header: 'Alarm Status' },
      { key: 'site', header: 'Site' },
      { key: 'parent', header: 'Parent' },
      { key: 'lastActivityAt', header: 'Last Activity' },
    ],
    allowed: canSeeDevices,
    pageSize: PAGE,
    count: async (scope, p) => (await devices.list(viewerOf(scope), { ...p, page: 1, limit: 1 }, false)).totalCount,
    fetchPage: (scope, p, cursor, limit) =>
      byPage(
        (page) => devices.list(viewerOf(scope), { ...p, page, limit: PAGE }, false),
        (d) => ({
          label: d.label,
          name: d.name,
          type: DEVICE_TYPE_LABELS[d.type] ?? d.type,
          status: d.status,
          alarmStatus: d.alarmStatus,
          site: d.asset?.name ?? '',
          parent: d.parent?.label ?? '',
          lastActivityAt: d.lastActivityAt,
        }),
      )(cursor, limit),
  };

  return [summary, details, deviceList] as unknown as ExportSource<never>[];
}
