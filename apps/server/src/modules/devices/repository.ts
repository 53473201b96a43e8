import type { CompactListQuery, DeviceListQuery } from '@sitewatch/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { assetVisible, contains, siteIdsNamed, siteIdsUnderPath, siteNameOf, siteNames, startsWith, type Viewer } from '../sites/scope.ts';
import { ALARM_RANK } from './scope.ts';

/** The only SQL of devices: the list, the compact list, the hierarchy and the toggles. */

/** Types that are parent devices even before anything hangs under them. */
export const PARENT_TYPES = ['ROUTER', 'DVR', 'ETH'] as const;

const ORDER = {
  name: sql`d.name collate "C"`,
  label: sql`lower(d.label)`,
  type: sql`d.type`,
  status: sql`d.status`,
  alarmStatus: ALARM_RANK,
  createdAt: sql`d.created_at`,
  updatedAt: sql`d.updated_at`,
  lastActivityAt: sql`d.last_activity_at`,
  id: sql`d.id`,
} as const;

const order = (value: string) => {
  const key = value.replace('-', '') as keyof typeof ORDER;
  return { expr: ORDER[key], dir: value.startsWith('-') ? ('desc' as const) : ('asc' as const) };
};

const idFilter = (column: string, value: '!null' | 'null' | number): Expression<SqlBool> =>
  value === '!null'
    ? sql<boolean>`${sql.ref(column)} is not null`
    : value === 'null'
      ? sql<boolean>`${sql.ref(column)} is null`
      : sql<boolean>`${sql.ref(column)} = ${value}`;

type Filters = Omit<Partial<DeviceListQuery>, 'groupBy' | 'orderBy'> & Partial<Pick<CompactListQuery, 'alarmUpdatedAt__gt'>>;

function conditions(viewer: Viewer, q: Filters): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [sql<boolean>`d.tenant_id = ${viewer.tenantId}`];
  if (!viewer.allSites) where.push(assetVisible(viewer, 'd.asset_id'));
  if (q.ids?.length) where.push(sql<boolean>`d.id = any(${q.ids}::int[])`);
  if (q.discovered !== undefined) where.push(sql<boolean>`d.discovered = ${q.discovered}`);
  else if (!q.ids?.length) where.push(sql<boolean>`not d.discovered`);
  if (q.name__icontains) where.push(sql<boolean>`d.name ilike ${contains(q.name__icontains)}`);
  if (q.name__startswith) where.push(sql<boolean>`d.name like ${startsWith(q.name__startswith)}`);
  if (q.label__icontains) where.push(sql<boolean>`d.label ilike ${contains(q.label__icontains)}`);
  if (q.assetId !== undefined) where.push(idFilter('d.asset_id', q.assetId));
  if (q.parentId !== undefined) where.push(idFilter('d.parent_id', q.parentId));
  if (q.type?.length) where.push(sql<boolean>`d.type = any(${q.type}::text[])`);
  if (q.status?.length) where.push(sql<boolean>`d.status = any(${q.status}::text[])`);
  if (q.alarmStatus?.length) where.push(sql<boolean>`d.alarm_status = any(${q.alarmStatus}::text[])`);
  if (q.isParent !== undefined) where.push(sql<boolean>`d.is_parent = ${q.isParent}`);
  if (q.templateId) where.push(sql<boolean>`d.template_id = ${q.templateId}`);
  if (q.alarmUpdatedAt__gt) where.push(sql<boolean>`d.alarm_updated_at > ${q.alarmUpdatedAt__gt}::timestamptz`);
  if (q.path?.length) where.push(sql<boolean>`d.asset_id in ${siteIdsUnderPath(viewer.tenantId, q.path)}`);
  if (q.searchText) {
    const pattern = contains(q.searchText);
    const keys = q.searchKeys?.length ? q.searchKeys : ['label', 'name'];
    const parts = keys.map((key) => {
      if (key === 'site__name') return sql`d.asset_id in ${siteIdsNamed(viewer.tenantId, pattern)}`;
      if (key === 'type') return sql`d.type ilike ${pattern}`;
      return sql`${sql.ref(`d.${key}`)} ilike ${pattern}`;
    });
    where.push(sql<boolean>`(${sql.join(parts, sql` or `)})`);
  }
  return where;
}

const all = (parts: Expression<SqlBool>[]) => sql.join(parts, sql` and `);

export interface DeviceRow {
  id: number;
  name: string;
  label: string;
  type: string;
  status: string;
  alarm_status: string | null;
  alarm_updated_at: Date | null;
  last_activity_at: Date | null;
  asset_id: number | null;
  asset_name: string | null;
  parent_id: number | null;
  parent_name: string | null;
  parent_label: string | null;
  parent_type: string | null;
  is_parent: boolean;
  child_count: number;
  template_id: number | null;
  discovered: boolean;
  access_token: string;
  metadata: Record<string, unknown>;
  state: Record<string, unknown>;
  state_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const FULL = sql`d.id, d.name, d.label, d.type, d.status, d.alarm_status, d.alarm_updated_at, d.last_activity_at,
  d.asset_id, a.name as asset_name, d.parent_id, p.name as parent_name, p.label as parent_label, p.type as parent_type,
  d.is_parent, (select count(*) from devices c where c.parent_id = d.id)::int as child_count, d.template_id, d.discovered,
  d.access_token, d.metadata, d.state, d.state_updated_at, d.created_at, d.updated_at`;
const FULL_FROM = sql`devices d left join ${siteNames} a on a.id = d.asset_id left join devices p on p.id = d.parent_id`;

export async function listDevices(db: Db, viewer: Viewer, q: DeviceListQuery) {
  const where = all(conditions(viewer, q));
  const { expr, dir } = order(q.orderBy);
  const [rows, total] = await Promise.all([
    sql<DeviceRow>`select ${FULL} from ${FULL_FROM} where ${where}
      order by ${expr} ${sql.raw(dir)} nulls last, d.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from devices d where ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

/** groupBy=type: the types present among the matching devices, with their counts. */
export async function typeCounts(db: Db, viewer: Viewer, q: DeviceListQuery) {
  const result = await sql<{ type: string; count: number }>`
    select d.type, count(*)::int as count from devices d where ${all(conditions(viewer, q))}
    group by d.type order by d.type limit ${q.limit}`.execute(db);
  return result.rows;
}

export async function findDevice(db: Db, viewer: Viewer, id: number) {
  const where = all([...conditions(viewer, { discovered: undefined, ids: [id] })]);
  const result = await sql<DeviceRow>`select ${FULL} from ${FULL_FROM} where ${where}`.execute(db);
  return result.rows[0];
}

export interface CompactRow {
  id: number;
  name: string;
  label: string;
  type: string;
  status: string;
  alarm_status: string | null;
  alarm_updated_at: Date | null;
  asset_id: number | null;
  parent_id: number | null;
  is_parent: boolean;
  site_name?: string | null;
  has_children?: boolean;
}

export async function compactList(db: Db, viewer: Viewer, q: CompactListQuery) {
  const where = all(conditions(viewer, q));
  const { expr, dir } = order(q.orderBy);
  const extra = [
    q.includeSite || q.groupBy === 'site' ? sql`, ${siteNameOf('d.asset_id')} as site_name` : sql``,
    q.checkChildExist ? sql`, exists (select 1 from devices c where c.parent_id = d.id) as has_children` : sql``,
  ];
  const orderExpr = q.groupBy === 'site' ? sql`d.asset_id nulls last, ${expr} ${sql.raw(dir)}` : sql`${expr} ${sql.raw(dir)}`;
  const [rows, total] = await Promise.all([
    sql<CompactRow>`select d.id, d.name, d.label, d.type, d.status, d.alarm_status, d.alarm_updated_at, d.asset_id, d.parent_id,
        d.is_parent ${extra[0]} ${extra[1]}
      from devices d where ${where}
      order by ${orderExpr} nulls last, d.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from devices d where ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

/** The device and every device below it. */
export async function subtreeIds(db: Db, tenantId: number, rootId: number): Promise<number[]> {
  const result = await sql<{ id: number }>`
    with recursive tree as (
      select id from devices where tenant_id = ${tenantId} and id = ${rootId}
      union all
      select c.id from devices c join tree t on c.parent_id = t.id where c.tenant_id = ${tenantId}
    ) select id from tree`.execute(db);
  return result.rows.map((r) => r.id);
}

export interface NewDevice {
  name: string;
  label: string;
  type: string;
  assetId: number | null;
  parentId: number | null;
  templateId: number | null;
  accessToken: string;
  discovered?: boolean;
  metadata: Record<string, unknown>;
}

export const insertDevice = (db: Db, tenantId: number, d: NewDevice) =>
  db
    .insertInto('devices')
    .values({
      tenant_id: tenantId,
      name: d.name,
      label: d.label,
      type: d.type,
      asset_id: d.assetId,
      parent_id: d.parentId,
      template_id: d.templateId,
      access_token: d.accessToken,
      discovered: d.discovered ?? false,
      is_parent: (PARENT_TYPES as readonly string[]).includes(d.type),
      metadata: JSON.stringify(d.metadata),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

export const updateDeviceRow = (
  db: Db,
  tenantId: number,
  id: number,
  d: Omit<NewDevice, 'accessToken' | 'name'> & { discovered: boolean },
) =>
  db
    .updateTable('devices')
    .set({
      label: d.label,
      type: d.type,
      asset_id: d.assetId,
      parent_id: d.parentId,
      template_id: d.templateId,
      discovered: d.discovered,
      metadata: JSON.stringify(d.metadata),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

/**
 * Gives a device its name and carries the name and the site down its subtree: every descendant becomes
 * `{parent name}:{label}` and lives at the same site as the root.
 */
export const renameSubtree = (db: Db, tenantId: number, rootId: number, rootName: string, assetId: number | null) =>
  sql`
    with recursive tree as (
      select id, ${rootName}::text as name from devices where tenant_id = ${tenantId} and id = ${rootId}
      union all
      select c.id, t.name || ':' || c.label from devices c join tree t on c.parent_id = t.id where c.tenant_id = ${tenantId}
    )
    update devices d set name = tree.name, asset_id = ${assetId}, updated_at = now()
    from tree where d.id = tree.id and (d.name is distinct from tree.name or d.asset_id is distinct from ${assetId})`.execute(db);

/** Keeps the names of a site's devices (site root:…:label) true when the site's code or name changes. */
export const renameSiteRoot = (db: Db, tenantId: number, assetId: number, oldRoot: string, newRoot: string) =>
  db
    .updateTable('devices')
    .set({ name: sql`${newRoot} || substr(name, ${oldRoot.length + 1})`, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('asset_id', '=', assetId)
    .where(sql<boolean>`left(name, ${oldRoot.length + 1}) = ${`${oldRoot}:`}`)
    .execute();

/** A device is a parent when its type is, or when devices hang under it. */
export const refreshIsParent = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve()
    : sql`update devices d set is_parent = (d.type = any(${[...PARENT_TYPES]}::text[]) or exists (select 1 from devices c where c.parent_id = d.id))
        where d.tenant_id = ${tenantId} and d.id = any(${ids}::int[])`.execute(db);

/** Mappings name either kind of entity, so no foreign key removes them: a device's or a site's go with it. */
export const deleteMappingsOf = (db: Db, tenantId: number, type: 'ASSET' | 'DEVICE', id: number) =>
  db
    .deleteFrom('entity_mappings')
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([eb.and([eb('from_type', '=', type), eb('from_id', '=', id)]), eb.and([eb('to_type', '=', type), eb('to_id', '=', id)])]),
    )
    .execute();

/** The cameras a CAMERA MAPPING joins to the device or to its site (ids of CAMERA devices of the tenant). */
export const camerasMappedTo = async (db: Db, tenantId: number, deviceId: number, assetId: number | null) =>
  (
    await db
      .selectFrom('entity_mappings as m')
      .innerJoin('devices as d', (j) => j.onRef('d.id', '=', 'm.to_id').onRef('d.tenant_id', '=', 'm.tenant_id'))
      .select('d.id')
      .distinct()
      .where('m.tenant_id', '=', tenantId)
      .where('m.relation_type', '=', 'CAMERA MAPPING')
      .where('m.to_type', '=', 'DEVICE')
      .where('d.type', '=', 'CAMERA')
      .where((eb) =>
        eb.or([
          eb.and([eb('m.from_type', '=', 'DEVICE'), eb('m.from_id', '=', deviceId)]),
          ...(assetId === null ? [] : [eb.and([eb('m.from_type', '=', 'ASSET'), eb('m.from_id', '=', assetId)])]),
        ]),
      )
      .orderBy('d.id')
      .limit(50)
      .execute()
  ).map((r) => r.id);

export async function deleteDeviceRow(db: Db, tenantId: number, id: number) {
  await deleteMappingsOf(db, tenantId, 'DEVICE', id);
  const result = await db.deleteFrom('devices').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export const childIds = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('devices').select(['id', 'type', 'label']).where('tenant_id', '=', tenantId).where('parent_id', '=', id).execute();

/** Sets one toggle of the devices' metadata and stamps the alarm update so trees repaint them. */
export const setToggle = (db: Db, tenantId: number, ids: number[], key: string, value: boolean) =>
  sql`update devices set metadata = jsonb_set(metadata, ${[key]}::text[], to_jsonb(${value}::boolean), true),
      alarm_updated_at = now(), updated_at = now()
    where tenant_id = ${tenantId} and id = any(${ids}::int[])`.execute(db);

export const insertAlarmAction = (
  db: Db,
  a: {
    tenantId: number;
    deviceId: number;
    key: string;
    value: boolean;
    updateChild: boolean;
    updated: number;
    createTicket: boolean;
    description: string;
    userId: number | null;
  },
) =>
  db
    .insertInto('device_alarm_actions')
    .values({
      tenant_id: a.tenantId,
      device_id: a.deviceId,
      telemetry_key: a.key,
      telemetry_value: a.value,
      update_child_device: a.updateChild,
      updated_devices: a.updated,
      create_ticket: a.createTicket,
      description: a.description,
      user_id: a.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

export async function listAlarmActions(db: Db, tenantId: number, deviceId: number, page: number, limit: number) {
  const base = db.selectFrom('device_alarm_actions as x').where('x.tenant_id', '=', tenantId).where('x.device_id', '=', deviceId);
  const [rows, total] = await Promise.all([
    base
      .select([
        'x.id',
        'x.telemetry_key',
        'x.telemetry_value',
        'x.update_child_device',
        'x.updated_devices',
        'x.create_ticket',
        'x.description',
        'x.created_at',
        'x.user_id',
      ])
      .orderBy('x.created_at', 'desc')
      .orderBy('x.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** For other domains: a device with its parent's label, regardless of the viewer. */
export const deviceById = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('devices as d')
    .leftJoin('devices as p', 'p.id', 'd.parent_id')
    .select(['d.id', 'd.name', 'd.label', 'd.type', 'd.asset_id', 'd.parent_id', 'p.label as parent_label'])
    .select(siteNameOf('d.asset_id').as('site_name'))
    .where('d.tenant_id', '=', tenantId)
    .where('d.id', '=', id)
    .executeTakeFirst();

export const templateExists = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('device_templates').select('id').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst().then(Boolean);

/** Sets a device's hardware (serial number, vendor, model in its metadata) in the caller's transaction; the old values, or null. */
export async function replaceHardware(
  trx: Db,
  tenantId: number,
  id: number,
  hardware: { serialNumber: string; vendor: string; model: string },
): Promise<{ serialNumber: string; vendor: string; model: string } | null> {
  const row = await trx
    .selectFrom('devices')
    .select('metadata')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return null;
  const before = row.metadata ?? {};
  await trx
    .updateTable('devices')
    .set({ metadata: JSON.stringify({ ...before, ...hardware }), updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
  const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  return { serialNumber: text(before.serialNumber), vendor: text(before.vendor), model: text(before.model) };
}
