import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { cameraVideoLost } from '../analysis/scope.ts';
import { assetVisible, contains, siteIdsNamed, siteNameOf, type Viewer } from '../sites/scope.ts';

/**
 * SQL of the devices for other modules' queries that must join them for speed (the alarm list, the site tree and
 * summaries, telemetry's batch upsert, the camera list). Each builder is one meaning over the devices table, so
 * the table and its columns are named only in this module.
 */

/** A device's alarm status as a rank (0 none … 5 critical); `ALARM_BY_RANK` reads it back. */
export const ALARM_RANK = sql<number>`case d.alarm_status when 'CRITICAL' then 5 when 'MAJOR' then 4 when 'MINOR' then 3 when 'WARNING' then 2 when 'NORMAL' then 1 else 0 end`;
export const ALARM_BY_RANK = [null, 'NORMAL', 'WARNING', 'MINOR', 'MAJOR', 'CRITICAL'] as const;

/**
 * The device's row locked for the caller's transaction: an alarm and the device's alarm status change together, and
 * a second alarm of the same device waits so that it reads the first one's outcome.
 */
export const lockDeviceForAlarm = (tenantId: number, deviceId: number) =>
  sql`select 1 from devices d where d.tenant_id = ${tenantId} and d.id = ${deviceId} for update`;

/** Sets the device's alarm status to `status` (SQL over `d`, the device's row) and stamps alarmUpdatedAt; returns it. */
export const setDeviceAlarmStatus = (tenantId: number, deviceId: number, status: Expression<string>) =>
  sql<{ alarm_status: string }>`update devices d set alarm_status = ${status}, alarm_updated_at = now()
    where d.tenant_id = ${tenantId} and d.id = ${deviceId} returning d.alarm_status`;

/**
 * The keys of the stored state of devices active within `windowMs` before the most recently active device
 * (`tenant_id`, `device_id`, `key`, `value`): what telemetry catches up with its history after a crash.
 */
export const recentDeviceStateKeys = (windowMs: number) =>
  sql`select d.tenant_id, d.id as device_id, s.key, s.value from devices d cross join jsonb_each(d.state) s
    where d.last_activity_at >= (select max(last_activity_at) from devices) - make_interval(secs => ${windowMs / 1000})`;

/** The columns of a site's row in the query around a builder. */
export interface SiteColumns {
  tenantId: string;
  id: string;
}

const atSite = (site: SiteColumns) => sql<boolean>`d.tenant_id = ${sql.ref(site.tenantId)} and d.asset_id = ${sql.ref(site.id)}`;

/** How many devices the site has. */
export const siteDeviceCount = (site: SiteColumns) => sql<number>`(select count(*) from devices d where ${atSite(site)})::int`;

/** Whether the site has any device. */
export const siteHasDevices = (site: SiteColumns) => sql<boolean>`exists (select 1 from devices d where ${atSite(site)})`;

/** The worst alarm of the site's devices as a rank (`ALARM_BY_RANK`). */
export const siteWorstAlarmRank = (site: SiteColumns) =>
  sql<number>`(select coalesce(max(${ALARM_RANK}), 0) from devices d where ${atSite(site)})::int`;

const STATUS_COUNTS = sql`count(*)::int as total,
  count(*) filter (where d.status = 'Online')::int as online,
  count(*) filter (where d.status = 'Offline')::int as offline,
  count(*) filter (where d.status = 'Not yet connected')::int as "notC"`;

/** The counts of the site's devices by status (`total`, `online`, `offline`, `notC`), of one type when given. */
export const siteStatusCounts = (site: SiteColumns, type?: string) =>
  sql`select ${STATUS_COUNTS} from devices d
    where ${atSite(site)} and not d.discovered ${type ? sql`and d.type = ${type}` : sql``}`;

/** The site's DVRs, cameras and their trouble, and when any of its devices last spoke or changed state. */
export const siteVideoCounts = (site: SiteColumns) =>
  sql`select count(*) filter (where d.type = 'DVR')::int as dvr_count,
      count(*) filter (where d.type = 'DVR' and d.status <> 'Online')::int as dvr_offline,
      count(*) filter (where d.type = 'CAMERA')::int as camera_count,
      count(*) filter (where d.type = 'CAMERA' and ((d.state->>'videoLoss') = 'true' or ${cameraVideoLost('d')}))::int as camera_video_loss,
      max(greatest(d.last_activity_at, d.state_updated_at)) as last_updated
    from devices d where ${atSite(site)} and not d.discovered`;

/** The status of the site's router (its first). */
export const siteRouterStatus = (site: SiteColumns) =>
  sql<string | null>`(select d.status from devices d where ${atSite(site)} and d.type = 'ROUTER' order by d.id limit 1)`;

/** The `status` and `alarm_status` of the site's first device of the type (the site's marker on the map). */
export const siteDeviceOfType = (site: SiteColumns, type: string) =>
  sql`select d.status, d.alarm_status from devices d where ${atSite(site)} and d.type = ${type} order by d.id limit 1`;

/** A site's device counts by status for each type present, by type. */
export const siteStatusCountsByType = (tenantId: number, assetId: number) =>
  sql<{ type: string; total: number; online: number; offline: number; notC: number }>`
    select d.type, ${STATUS_COUNTS} from devices d
    where d.tenant_id = ${tenantId} and d.asset_id = ${assetId} and not d.discovered
    group by d.type order by d.type`;

/**
 * The numbers of the tenant's devices at a site (discovered devices excluded) by type and status, of these types and
 * this site when given, at the sites `atSites` accepts (given the device's site column).
 */
export function placedStatusCounts(
  tenantId: number,
  opts: { types?: readonly string[]; assetId?: number },
  atSites: (assetIdColumn: string) => Expression<SqlBool>[],
) {
  const parts: Expression<SqlBool>[] = [sql`d.tenant_id = ${tenantId}`, sql`d.asset_id is not null`, sql`not d.discovered`];
  if (opts.types?.length) parts.push(sql`d.type = any(${[...opts.types]}::text[])`);
  if (opts.assetId) parts.push(sql`d.asset_id = ${opts.assetId}`);
  parts.push(...atSites('d.asset_id'));
  // Grouping by type and status reads the covering index in order (devices_counts_idx).
  return sql<{ type: string; status: string; n: number }>`
    select d.type, d.status, count(*)::int as n
    from devices d
    where ${sql.join(parts, sql` and `)}
    group by d.type, d.status`;
}

/** The tree search's devices: the first `limit` by label of those the viewer sees whose label contains the text. */
export const devicesLabelled = (db: Db, viewer: Viewer, text: string, limit: number) =>
  db
    .selectFrom('devices as d')
    .where('d.tenant_id', '=', viewer.tenantId)
    .where(assetVisible(viewer, 'd.asset_id'))
    .where('d.discovered', '=', false)
    .where('d.label', 'ilike', contains(text))
    .select([
      'd.id',
      'd.label',
      'd.type',
      'd.status',
      'd.alarm_status',
      'd.asset_id',
      'd.is_parent',
      sql<boolean>`exists (select 1 from devices c where c.parent_id = d.id)`.as('has_children'),
    ])
    .orderBy('d.label')
    .orderBy('d.id')
    .limit(limit);

/**
 * The `id`, `label` and `site_name` of the devices at these sites (or all): joined on an alarm's device, its name and
 * visibility.
 */
export function devicesAtSites(db: Db, assetIds: number[] | 'all') {
  const devices = db.selectFrom('devices').select(['id', 'label', siteNameOf('devices.asset_id').as('site_name')]);
  if (assetIds === 'all') return devices;
  return assetIds.length ? devices.where('asset_id', 'in', assetIds) : devices.where(sql<boolean>`false`);
}

/** The tenant's CAMERA devices (`id`, `tenant_id`, `name`, `label`, `asset_id`, `parent_id`) with their `parent_label` and `site_name`. */
export const cameraDevices = (db: Db, tenantId: number) =>
  db
    .selectFrom('devices as d')
    .leftJoin('devices as p', (j) => j.onRef('p.id', '=', 'd.parent_id').onRef('p.tenant_id', '=', 'd.tenant_id'))
    .select(['d.id', 'd.tenant_id', 'd.name', 'd.label', 'd.asset_id', 'd.parent_id', 'p.label as parent_label'])
    .select(siteNameOf('d.asset_id').as('site_name'))
    .where('d.tenant_id', '=', tenantId)
    .where('d.type', '=', 'CAMERA');

/**
 * The ids of the tenant's devices whose label or site's name matches the ILIKE pattern, as a subquery
 * (`x.device_id in ${...}`): labels repeat at every site, so a device is found by its site too.
 */
export const deviceIdsNamed = (tenantId: number, pattern: string) =>
  sql`(select d.id from devices d where d.tenant_id = ${tenantId}
    and (d.label ilike ${pattern} or d.asset_id in ${siteIdsNamed(tenantId, pattern)}))`;

/** Joined to rows by their device id column, keeps only the rows whose device still exists (a batch may outlive one). */
export const joinExistingDevices = (deviceIdColumn: string) => sql`join devices on devices.id = ${sql.ref(deviceIdColumn)}`;

/** The devices a viewer may address with a command: by ids, at a site, of a type (at a site when given), by id. */
export const commandableDevices = (viewer: Viewer, filter: { ids?: readonly number[]; assetId?: number; type?: string }, limit: number) =>
  sql<{ id: number; label: string; asset_id: number | null; type: string }>`select d.id, d.label, d.asset_id, d.type from devices d
    where d.tenant_id = ${viewer.tenantId} and not d.discovered and ${assetVisible(viewer, 'd.asset_id')}
    ${filter.ids ? sql`and d.id = any(${sql.val([...filter.ids])}::int[])` : sql``}
    ${filter.assetId !== undefined ? sql`and d.asset_id = ${filter.assetId}` : sql``}
    ${filter.type !== undefined ? sql`and d.type = ${filter.type}` : sql``}
    order by d.id limit ${limit}`;

/**
 * The tenant's devices of these types that the viewer sees (`id`, `label`, `type`, `status`, `alarm_status`,
 * `asset_id`, `metadata`, `state`, `last_activity_at`, `site_name`), by site name then label: the device operations
 * screens. Filters: one site, one device, a label or site name containing the text.
 */
export function devicesOfTypes(
  db: Db,
  viewer: Viewer,
  types: readonly string[],
  opts: { assetId?: number; deviceId?: number; search?: string },
) {
  let q = db
    .selectFrom('devices as d')
    .where('d.tenant_id', '=', viewer.tenantId)
    .where('d.type', 'in', [...types])
    .where('d.discovered', '=', false)
    .where(assetVisible(viewer, 'd.asset_id'));
  if (opts.assetId !== undefined) q = q.where('d.asset_id', '=', opts.assetId);
  if (opts.deviceId !== undefined) q = q.where('d.id', '=', opts.deviceId);
  if (opts.search) {
    const pattern = contains(opts.search);
    q = q.where((eb) => eb.or([eb('d.label', 'ilike', pattern), sql<boolean>`d.asset_id in ${siteIdsNamed(viewer.tenantId, pattern)}`]));
  }
  return q;
}

/** The columns of `devicesOfTypes` rows. */
export const deviceOpsColumns = [
  'd.id',
  'd.label',
  'd.type',
  'd.status',
  'd.alarm_status',
  'd.asset_id',
  'd.metadata',
  'd.state',
  'd.last_activity_at',
  siteNameOf('d.asset_id').as('site_name'),
] as const;
