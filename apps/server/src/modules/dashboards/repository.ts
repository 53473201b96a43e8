import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** The only SQL on the dashboards' own tables. */

export type FolderRow = Awaited<ReturnType<typeof listFolders>>[number];
export type DashboardRow = NonNullable<Awaited<ReturnType<typeof findDashboard>>>;
export type ComponentRow = NonNullable<Awaited<ReturnType<typeof findComponent>>>;
export type LinkRow = NonNullable<Awaited<ReturnType<typeof findLink>>>;

const json = (v: unknown) => JSON.stringify(v);

/* ------------------------------------------------------------------ folders */

export function listFolders(db: Db, tenantId: number) {
  return db
    .selectFrom('dashboard_folders as f')
    .select([
      'f.id',
      'f.name',
      'f.parent_id',
      'f.idx',
      'f.config',
      'f.created_at',
      sql<number>`(select count(*)::int from dashboards d where d.tenant_id = f.tenant_id and d.folder_id = f.id)`.as('dashboard_count'),
    ])
    .where('f.tenant_id', '=', tenantId)
    .orderBy('f.parent_id', 'asc')
    .orderBy('f.idx')
    .orderBy('f.id')
    .execute();
}

export async function countFolders(db: Db, tenantId: number) {
  const row = await db
    .selectFrom('dashboard_folders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function nextIndex(db: Db, tenantId: number, parentId: number | null) {
  const [f, d] = await Promise.all([
    db
      .selectFrom('dashboard_folders')
      .select(sql<number>`coalesce(max(idx), -1)::int`.as('m'))
      .where('tenant_id', '=', tenantId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .executeTakeFirst(),
    db
      .selectFrom('dashboards')
      .select(sql<number>`coalesce(max(idx), -1)::int`.as('m'))
      .where('tenant_id', '=', tenantId)
      .where('folder_id', parentId === null ? 'is' : '=', parentId)
      .executeTakeFirst(),
  ]);
  return Math.max(Number(f?.m ?? -1), Number(d?.m ?? -1)) + 1;
}

export function insertFolder(
  db: Db,
  v: { tenantId: number; name: string; parentId: number | null; idx: number; config: unknown; userId: number },
) {
  return db
    .insertInto('dashboard_folders')
    .values({ tenant_id: v.tenantId, name: v.name, parent_id: v.parentId, idx: v.idx, config: json(v.config), created_by: v.userId })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function updateFolder(db: Db, tenantId: number, id: number, v: { name: string; config: unknown }) {
  return db
    .updateTable('dashboard_folders')
    .set({ name: v.name, config: json(v.config), updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

export function placeFolder(db: Db, tenantId: number, id: number, parentId: number | null, idx: number) {
  return db
    .updateTable('dashboard_folders')
    .set({ parent_id: parentId, idx, updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

export function deleteFolder(db: Db, tenantId: number, id: number) {
  return db.deleteFrom('dashboard_folders').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/* ------------------------------------------------------------------ dashboards */

const dashboardColumns = [
  'id',
  'name',
  'folder_id',
  'idx',
  'type',
  'config',
  'layouts',
  'widgets',
  'version',
  'created_by',
  'created_at',
  'updated_at',
] as const;

export function findDashboard(db: Db, tenantId: number, id: number) {
  return db.selectFrom('dashboards').select(dashboardColumns).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export function listDashboards(
  db: Db,
  tenantId: number,
  q: { search?: string; folderId?: number | 'root'; type?: string; ids?: number[] },
  page?: { offset: number; limit: number },
) {
  let query = db.selectFrom('dashboards').select(dashboardColumns).where('tenant_id', '=', tenantId);
  if (q.search) query = query.where('name', 'ilike', `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.folderId === 'root') query = query.where('folder_id', 'is', null);
  else if (q.folderId !== undefined) query = query.where('folder_id', '=', q.folderId);
  if (q.type) query = query.where('type', '=', q.type);
  if (q.ids) query = q.ids.length ? query.where('id', 'in', q.ids) : query.where(sql<boolean>`false`);
  query = query.orderBy('folder_id', 'asc').orderBy('idx').orderBy('id');
  if (page) query = query.offset(page.offset).limit(page.limit);
  return query.execute();
}

export async function countDashboards(db: Db, tenantId: number, q: { search?: string; folderId?: number | 'root'; type?: string }) {
  let query = db
    .selectFrom('dashboards')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId);
  if (q.search) query = query.where('name', 'ilike', `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.folderId === 'root') query = query.where('folder_id', 'is', null);
  else if (q.folderId !== undefined) query = query.where('folder_id', '=', q.folderId);
  if (q.type) query = query.where('type', '=', q.type);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

export interface DashboardValues {
  name: string;
  folderId: number | null;
  type: string;
  config: unknown;
  layouts: unknown;
  widgets: unknown[];
}

export function insertDashboard(db: Db, tenantId: number, userId: number, idx: number, v: DashboardValues) {
  return db
    .insertInto('dashboards')
    .values({
      tenant_id: tenantId,
      name: v.name,
      folder_id: v.folderId,
      idx,
      type: v.type,
      config: json(v.config),
      layouts: json(v.layouts),
      widgets: json(v.widgets),
      version: 1,
      created_by: userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Saves the content and moves to the next version; returns the new version number. */
export async function saveDashboard(db: Db, tenantId: number, id: number, v: Omit<DashboardValues, 'folderId'>) {
  const row = await db
    .updateTable('dashboards')
    .set((eb) => ({
      name: v.name,
      type: v.type,
      config: json(v.config),
      layouts: json(v.layouts),
      widgets: json(v.widgets),
      version: eb('version', '+', 1),
      updated_at: new Date(),
    }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning('version')
    .executeTakeFirst();
  return row?.version ?? null;
}

export function placeDashboard(db: Db, tenantId: number, id: number, folderId: number | null, idx: number) {
  return db
    .updateTable('dashboards')
    .set({ folder_id: folderId, idx, updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

export function deleteDashboard(db: Db, tenantId: number, id: number) {
  return db.deleteFrom('dashboards').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** Ids of the tenant's dashboards that place a component. */
export async function dashboardsUsing(db: Db, tenantId: number, componentIds: number[]) {
  if (componentIds.length === 0) return new Map<number, number>();
  const { rows } = await sql<{ component_id: number; n: number }>`
    select (w->>'componentId')::int as component_id, count(distinct d.id)::int as n
    from dashboards d, jsonb_array_elements(d.widgets) w
    where d.tenant_id = ${tenantId} and w->>'kind' = 'component'
      and (w->>'componentId')::int in (${sql.join(componentIds.map((id) => sql`${id}`))})
    group by 1`.execute(db);
  return new Map(rows.map((r) => [r.component_id, r.n]));
}

/* ------------------------------------------------------------------ versions */

export function insertVersion(
  db: Db,
  v: {
    tenantId: number;
    dashboardId: number;
    version: number;
    name: string;
    note: string;
    config: unknown;
    layouts: unknown;
    widgets: unknown[];
    restoredFrom: number | null;
    userId: number | null;
  },
) {
  return db
    .insertInto('dashboard_versions')
    .values({
      tenant_id: v.tenantId,
      dashboard_id: v.dashboardId,
      version: v.version,
      name: v.name,
      note: v.note,
      config: json(v.config),
      layouts: json(v.layouts),
      widgets: json(v.widgets),
      restored_from: v.restoredFrom,
      created_by: v.userId,
    })
    .execute();
}

const versionColumns = ['id', 'dashboard_id', 'version', 'name', 'note', 'restored_from', 'created_by', 'created_at'] as const;

export function listVersions(db: Db, tenantId: number, dashboardId: number, page: { offset: number; limit: number }) {
  return db
    .selectFrom('dashboard_versions')
    .select(versionColumns)
    .where('tenant_id', '=', tenantId)
    .where('dashboard_id', '=', dashboardId)
    .orderBy('version', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export async function countVersions(db: Db, tenantId: number, dashboardId: number) {
  const row = await db
    .selectFrom('dashboard_versions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('dashboard_id', '=', dashboardId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function findVersion(db: Db, tenantId: number, dashboardId: number, version: number) {
  return db
    .selectFrom('dashboard_versions')
    .select([...versionColumns, 'config', 'layouts', 'widgets'])
    .where('tenant_id', '=', tenantId)
    .where('dashboard_id', '=', dashboardId)
    .where('version', '=', version)
    .executeTakeFirst();
}

/* ------------------------------------------------------------------ components */

const componentColumns = ['id', 'name', 'widget', 'size', 'created_by', 'created_at', 'updated_at'] as const;

export function findComponent(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom('dashboard_components')
    .select(componentColumns)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function componentsByIds(db: Db, tenantId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('dashboard_components').select(componentColumns).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
}

export function listComponents(db: Db, tenantId: number, search: string | undefined, page: { offset: number; limit: number }) {
  let q = db.selectFrom('dashboard_components').select(componentColumns).where('tenant_id', '=', tenantId);
  if (search) q = q.where('name', 'ilike', `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return q.orderBy('name').orderBy('id').offset(page.offset).limit(page.limit).execute();
}

export async function countComponents(db: Db, tenantId: number, search: string | undefined) {
  let q = db
    .selectFrom('dashboard_components')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId);
  if (search) q = q.where('name', 'ilike', `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

export function insertComponent(db: Db, tenantId: number, userId: number, v: { name: string; widget: unknown; size: unknown }) {
  return db
    .insertInto('dashboard_components')
    .values({ tenant_id: tenantId, name: v.name, widget: json(v.widget), size: json(v.size), created_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function updateComponent(db: Db, tenantId: number, id: number, v: { name: string; widget: unknown; size: unknown }) {
  return db
    .updateTable('dashboard_components')
    .set({ name: v.name, widget: json(v.widget), size: json(v.size), updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function deleteComponent(db: Db, tenantId: number, id: number) {
  return db.deleteFrom('dashboard_components').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/* ------------------------------------------------------------------ analytics links */

const linkColumns = [
  'l.id',
  'l.dashboard_id',
  'l.label',
  'l.rls_conditions',
  'l.expires_at',
  'l.kid',
  'l.view_count',
  'l.last_viewed_at',
  'l.revoked_at',
  'l.created_by',
  'l.created_at',
  'd.name as dashboard_name',
] as const;

export function findLink(db: Db, tenantId: number, id: string) {
  return db
    .selectFrom('analytics_links as l')
    .innerJoin('dashboards as d', 'd.id', 'l.dashboard_id')
    .select(linkColumns)
    .where('l.tenant_id', '=', tenantId)
    .where('l.id', '=', id)
    .executeTakeFirst();
}

export function listLinks(
  db: Db,
  tenantId: number,
  q: { dashboardId?: number; state?: 'active' | 'expired' | 'revoked' },
  now: Date,
  page: { offset: number; limit: number } | null,
) {
  let query = db
    .selectFrom('analytics_links as l')
    .innerJoin('dashboards as d', 'd.id', 'l.dashboard_id')
    .select(linkColumns)
    .where('l.tenant_id', '=', tenantId);
  if (q.dashboardId) query = query.where('l.dashboard_id', '=', q.dashboardId);
  if (q.state === 'revoked') query = query.where('l.revoked_at', 'is not', null);
  if (q.state === 'expired') query = query.where('l.revoked_at', 'is', null).where('l.expires_at', '<=', now);
  if (q.state === 'active') query = query.where('l.revoked_at', 'is', null).where('l.expires_at', '>', now);
  query = query.orderBy('l.created_at', 'desc').orderBy('l.id');
  if (page) query = query.offset(page.offset).limit(page.limit);
  return query.execute();
}

export function insertLink(
  db: Db,
  v: {
    id: string;
    tenantId: number;
    dashboardId: number;
    label: string;
    conditions: unknown[];
    expiresAt: Date;
    kid: string;
    userId: number;
  },
) {
  return db
    .insertInto('analytics_links')
    .values({
      id: v.id,
      tenant_id: v.tenantId,
      dashboard_id: v.dashboardId,
      label: v.label,
      rls_conditions: json(v.conditions),
      expires_at: v.expiresAt,
      kid: v.kid,
      created_by: v.userId,
    })
    .execute();
}

export function revokeLink(db: Db, tenantId: number, id: string, userId: number, now: Date) {
  return db
    .updateTable('analytics_links')
    .set({ revoked_at: now, revoked_by: userId })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export function countView(db: Db, tenantId: number, id: string, now: Date) {
  return db
    .updateTable('analytics_links')
    .set((eb) => ({ view_count: eb('view_count', '+', 1), last_viewed_at: now }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}
