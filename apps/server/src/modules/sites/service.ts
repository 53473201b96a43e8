import {
  ASSET_MESSAGES,
  type Asset,
  type AssetInput,
  type AssetListQuery,
  alarmColour,
  assetInputSchema,
  assetMetadataSchema,
  type DeviceCount,
  type TreeNode,
} from '@sitewatch/contracts';
import { DEVICE_TYPES } from '@sitewatch/contracts/devices';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { ALARM_BY_RANK } from '../devices/scope.ts';
import type { UserDirectory } from '../users/directory.ts';
import * as repo from './repository.ts';
import { isoOf, type Viewer } from './scope.ts';
import * as summary from './summary-repository.ts';
import * as tree from './tree-repository.ts';

type AssetRow = NonNullable<Awaited<ReturnType<typeof repo.findAsset>>>;

function toAsset(row: AssetRow): Asset {
  const metadata = assetMetadataSchema.safeParse(row.metadata);
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    metadata: metadata.success ? metadata.data : {},
    customerId: row.customer_id,
    customerName: row.customer_name ?? null,
    deviceCount: row.device_count,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

/** The first part of every device name of a site: its code, else its name. */
export const siteRoot = (asset: { name: string; metadata: Record<string, unknown> }) =>
  typeof asset.metadata.assetCode === 'string' && asset.metadata.assetCode ? asset.metadata.assetCode : asset.name;

const siteNode = (row: { id: number; name: string; address: string[]; alarm_rank: number; has_devices: boolean }): TreeNode => ({
  id: `asset:${row.id}`,
  text: row.name,
  nodeType: 'asset',
  icon: 'site',
  iconColor: alarmColour(ALARM_BY_RANK[row.alarm_rank] ?? null),
  assetId: row.id,
  children: row.has_devices,
  path: row.address,
  alarmStatus: ALARM_BY_RANK[row.alarm_rank] ?? null,
});

/** A site's fields as its activity log entries show them. */
const recordOf = (a: Pick<Asset, 'name' | 'address' | 'latitude' | 'longitude' | 'metadata' | 'customerId'>) => ({
  name: a.name,
  address: a.address,
  latitude: a.latitude,
  longitude: a.longitude,
  metadata: a.metadata,
  customerId: a.customerId,
});

const counts = (row: DeviceCount): DeviceCount => ({ total: row.total, online: row.online, offline: row.offline, notC: row.notC });

/** What a site's change does to its devices, in the site's transaction `db` (the devices module's records). */
export interface SiteDevices {
  renameSiteRoot(db: Db, tenantId: number, assetId: number, oldRoot: string, newRoot: string): Promise<void>;
  removeMappingsOf(db: Db, tenantId: number, type: 'ASSET', id: number): Promise<void>;
}

/** `users`: the users module's directory (names and roles of the users assigned to a site). */
export function createSiteService(db: Db, users: Pick<UserDirectory, 'byIds'>, devices: SiteDevices) {
  async function get(viewer: Viewer, id: number) {
    const row = await repo.findAsset(db, viewer, id);
    if (!row) throw notFound();
    return row;
  }

  async function checkInput(tenantId: number, input: AssetInput, exceptId?: number) {
    if (await repo.nameTaken(db, tenantId, input.name, exceptId)) throw conflict(ASSET_MESSAGES.alreadyExists, 'asset_exists');
    if (input.customerId !== null && !(await repo.customerExists(db, tenantId, input.customerId))) {
      throw badRequest('body.customerId: Unknown customer');
    }
  }

  return {
    async list(viewer: Viewer, q: AssetListQuery) {
      const { rows, total } = await repo.listAssets(db, viewer, q);
      return { contents: rows.map(toAsset), totalCount: total };
    },

    async detail(viewer: Viewer, id: number, opts: { showRoles?: boolean; userRole?: string }) {
      const asset = toAsset(await get(viewer, id));
      if (opts.showRoles || opts.userRole) {
        // The site's active users (by first name), with the role asked for if any: the asset's `roles` of SPEC 3.
        const assigned = await users.byIds(viewer.tenantId, await repo.userIdsForAsset(db, viewer.tenantId, id));
        const roles: Record<string, { id: number; name: string; email: string }[]> = {};
        for (const u of assigned) {
          if (!u.isActive || (opts.userRole !== undefined && !u.roles.includes(opts.userRole))) continue;
          for (const role of u.roles) {
            if (opts.userRole && role !== opts.userRole) continue;
            const name = `${u.firstname} ${u.lastname}`.trim() || u.username;
            roles[role] = [...(roles[role] ?? []), { id: u.id, name, email: u.email }];
          }
        }
        asset.roles = roles;
      }
      return asset;
    },

    /** `origin`: who creates it, for the activity log (null: a system caller, not recorded). */
    async create(viewer: Viewer, input: AssetInput, origin: AuditOrigin | null) {
      await checkInput(viewer.tenantId, input);
      const { id } = await db.transaction().execute(async (trx) => {
        const created = await repo.insertAsset(trx, viewer.tenantId, input);
        if (origin)
          await writeActivity(trx, origin, { action: 'site.create', object: { type: 'site', id: created.id }, after: recordOf(input) });
        return created;
      });
      return toAsset(await get({ ...viewer, allSites: true }, id));
    },

    async update(viewer: Viewer, id: number, patch: Partial<AssetInput>, origin: AuditOrigin | null) {
      const current = toAsset(await get(viewer, id));
      const next = assetInputSchema.parse({
        name: patch.name ?? current.name,
        address: patch.address ?? current.address,
        latitude: patch.latitude !== undefined ? patch.latitude : current.latitude,
        longitude: patch.longitude !== undefined ? patch.longitude : current.longitude,
        metadata: patch.metadata ?? current.metadata,
        customerId: patch.customerId !== undefined ? patch.customerId : current.customerId,
      });
      await checkInput(viewer.tenantId, next, id);
      await db.transaction().execute(async (trx) => {
        await repo.updateAsset(trx, viewer.tenantId, id, next);
        const before = siteRoot(current);
        const after = siteRoot(next);
        if (before !== after) await devices.renameSiteRoot(trx, viewer.tenantId, id, before, after);
        if (origin) {
          const change = changedFields(recordOf(current), recordOf(next));
          await writeActivity(trx, origin, { action: 'site.update', object: { type: 'site', id }, ...change });
        }
      });
      return toAsset(await get(viewer, id));
    },

    async remove(viewer: Viewer, id: number, origin: AuditOrigin | null) {
      const current = toAsset(await get(viewer, id));
      await db.transaction().execute(async (trx) => {
        await devices.removeMappingsOf(trx, viewer.tenantId, 'ASSET', id);
        await repo.deleteAsset(trx, viewer.tenantId, id);
        if (origin) await writeActivity(trx, origin, { action: 'site.delete', object: { type: 'site', id }, before: recordOf(current) });
      });
    },

    /** One level of the asset tree: the next address levels, then the sites at this address. */
    async treeLevel(viewer: Viewer, path: string[], page: number, limit: number) {
      const { levels, sites, under } = await tree.levelCounts(db, viewer, path);
      const offset = (page - 1) * limit;
      const nodes: TreeNode[] = [];
      if (offset < levels) {
        const rows = await tree.childLevels(db, viewer, path, offset, limit);
        for (const row of rows) {
          const nodePath = [...path, row.text];
          nodes.push({
            id: `level:${JSON.stringify(nodePath)}`,
            text: row.text,
            nodeType: 'level',
            icon: 'level',
            iconColor: alarmColour(null),
            assetId: null,
            children: true,
            path: nodePath,
            count: row.count,
          });
        }
      }
      const room = limit - nodes.length;
      if (room > 0 && sites > 0) {
        const siteOffset = Math.max(0, offset - levels);
        const rows = await tree.sitesAt(db, viewer, path, siteOffset, room);
        nodes.push(...rows.map(siteNode));
      }
      return { contents: nodes, totalCount: levels + sites, siteCount: under };
    },

    async treeSearch(viewer: Viewer, text: string, limit: number) {
      const [sites, devices] = await Promise.all([tree.searchSites(db, viewer, text, limit), tree.searchDevices(db, viewer, text, limit)]);
      return {
        sites: sites.map(siteNode),
        devices: devices.map((d) => ({
          id: `device:${d.id}`,
          text: d.label,
          nodeType: 'device' as const,
          icon: d.type,
          iconColor: alarmColour(d.alarm_status),
          assetId: d.asset_id,
          children: d.has_children,
          deviceId: d.id,
          deviceType: d.type,
          status: d.status,
          alarmStatus: d.alarm_status,
          isParent: d.is_parent,
          path: d.address ?? undefined,
          siteName: d.site_name,
        })),
      };
    },

    statusCounts: (viewer: Viewer, opts: { types?: string[]; assetId?: number; path?: string[] }) =>
      summary.statusCountsByType(db, viewer, opts),

    /** A site the viewer may see, for other domains: its `root` starts the names of its devices. Null otherwise. */
    async visibleSite(viewer: Viewer, id: number) {
      const row = await repo.visibleAssetById(db, viewer, id);
      return row ? { id: row.id, name: row.name, root: siteRoot(row) } : null;
    },

    async siteSummary(viewer: Viewer, q: Parameters<typeof summary.siteSummary>[2]) {
      const { rows, total } = await summary.siteSummary(db, viewer, q);
      return {
        contents: rows.map((r) => ({
          id: r.id,
          name: r.name,
          address: r.address,
          latitude: r.latitude,
          longitude: r.longitude,
          ...counts(r),
        })),
        totalCount: total,
      };
    },

    async detailedSummary(viewer: Viewer, q: Parameters<typeof summary.detailedSummary>[2]) {
      const { rows, total } = await summary.detailedSummary(db, viewer, q);
      return {
        contents: rows.map((r) => ({
          id: r.id,
          name: r.name,
          siteId: r.site_id,
          routerStatus: r.router_status,
          dvrCount: r.dvr_count,
          dvrOffline: r.dvr_offline,
          cameraCount: r.camera_count,
          cameraVideoLoss: r.camera_video_loss,
          lastUpdated: r.last_updated ? isoOf(r.last_updated) : null,
        })),
        totalCount: total,
      };
    },

    async map(viewer: Viewer, q: Parameters<typeof summary.mapSites>[2]) {
      // A type no device can have would answer an empty map that looks like "no sites": refuse it instead.
      if (!(DEVICE_TYPES as readonly string[]).includes(q.parentDevice)) throw badRequest(`Unknown device type: ${q.parentDevice}`);
      const { rows, total } = await summary.mapSites(db, viewer, q);
      return {
        contents: rows.map((r) => ({
          id: r.id,
          name: r.name,
          latitude: r.latitude,
          longitude: r.longitude,
          level1: r.level1,
          status: r.status,
          alarmStatus: r.alarm_status,
        })),
        totalCount: total,
      };
    },

    async siteCounts(viewer: Viewer, id: number) {
      const asset = await get(viewer, id);
      const byType = await summary.siteCounts(db, viewer.tenantId, id);
      const total = byType.reduce(
        (acc, r) => ({
          total: acc.total + r.total,
          online: acc.online + r.online,
          offline: acc.offline + r.offline,
          notC: acc.notC + r.notC,
        }),
        { total: 0, online: 0, offline: 0, notC: 0 },
      );
      return {
        id: asset.id,
        name: asset.name,
        address: asset.address,
        ...total,
        byType: byType.map((r) => ({ type: r.type, ...counts(r) })),
      };
    },
  };
}
export type SiteService = ReturnType<typeof createSiteService>;
