import { SITE_SUMMARY, siteSummaryQuerySchema } from '@sitewatch/contracts';
import type { z } from 'zod';
import type { ExportScope, ExportSource } from '../downloads/registry.ts';
import { seesAllSites, type Viewer } from './scope.ts';
import type { SiteService } from './service.ts';

export const viewerOf = (scope: ExportScope): Viewer => ({
  tenantId: scope.tenantId,
  userId: scope.userId,
  allSites: seesAllSites(scope.roles),
});
export const PAGE = 500;

/** Page-numbered services: the cursor is the next page number, every page the same size. */
export function byPage<T>(fetch: (page: number) => Promise<{ contents: T[] }>, toRow: (item: T) => Record<string, unknown>) {
  return async (cursor: string | null, limit: number) => {
    const page = cursor ? Number(cursor) : 1;
    const { contents } = await fetch(page);
    return { rows: contents.slice(0, limit).map(toRow), nextCursor: contents.length === PAGE ? String(page + 1) : null };
  };
}

const summaryParams = siteSummaryQuerySchema.omit({ page: true, limit: true });
const detailParams = siteSummaryQuerySchema.pick({ searchText: true, path: true });

/**
 * The site summary table (SPEC 2.11: Name, Total, Online, Offline, Not Connected; file SiteSummary; at most
 * 10000 rows) and the 'Site detailed summary', read through the sites service with the user's site visibility.
 */
export function siteExports(sites: SiteService): ExportSource<never>[] {
  const canSeeSites = (scope: ExportScope) => scope.permissions.includes('view_asset');

  const summary: ExportSource<z.infer<typeof summaryParams>> = {
    kind: 'site-summary',
    label: SITE_SUMMARY.exportFileName,
    params: summaryParams,
    columns: [
      { key: 'name', header: 'Name', type: 'text' },
      { key: 'total', header: 'Total', type: 'integer' },
      { key: 'online', header: 'Online', type: 'integer' },
      { key: 'offline', header: 'Offline', type: 'integer' },
      { key: 'notC', header: 'Not Connected', type: 'integer' },
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
      { key: 'name', header: 'Site Name', type: 'text' },
      { key: 'routerStatus', header: 'Router Status', type: 'text' },
      { key: 'siteId', header: 'Site ID', type: 'text' },
      { key: 'dvrCount', header: 'DVRs', type: 'integer' },
      { key: 'dvrOffline', header: 'Offline DVRs', type: 'integer' },
      { key: 'cameraCount', header: 'Cameras', type: 'integer' },
      { key: 'cameraVideoLoss', header: 'Cameras With Video Loss', type: 'integer' },
      { key: 'lastUpdated', header: 'Last Updated', type: 'datetime' },
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

  return [summary, details] as unknown as ExportSource<never>[];
}
