import {
  type ComponentInput,
  componentInputSchema,
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  DASHBOARD_PERMISSIONS,
  type DashboardComponent,
  type DashboardConfig,
  type DashboardDetail,
  type DashboardFolder,
  type DashboardInput,
  type DashboardListQuery,
  type DashboardSummary,
  dashboardConfigSchema,
  dashboardInputSchema,
  type FolderDetail,
  type FolderInput,
  folderInputSchema,
  type Layouts,
  type MoveInput,
  moveInputSchema,
  type ReorderInput,
  reorderInputSchema,
  type Widget,
  widgetSchema,
} from '@sitewatch/contracts';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { UserDirectory } from '../users/directory.ts';
import * as repo from './repository.ts';

export interface Actor {
  userId: number;
  tenantId: number;
  roles: string[];
  permissions: ReadonlySet<string>;
}

export interface DashboardDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  users: Pick<UserDirectory, 'byIds' | 'groupIdsOf' | 'groups'>;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const emptyLayouts = { lg: [], sm: [], src: null };

/** Stored JSON read back through the contracts (an old row missing a field gets its default). */
export const parseConfig = (v: unknown): DashboardConfig => {
  const parsed = dashboardConfigSchema.safeParse(v ?? {});
  return parsed.success ? parsed.data : dashboardConfigSchema.parse({});
};
export const parseLayouts = (v: unknown): DashboardDetail['layouts'] => {
  const l = (v ?? {}) as Partial<Layouts>;
  return { lg: Array.isArray(l.lg) ? l.lg : [], sm: Array.isArray(l.sm) ? l.sm : [], src: typeof l.src === 'string' ? l.src : null };
};
export const parseWidgets = (v: unknown): Widget[] =>
  (Array.isArray(v) ? v : []).flatMap((w) => {
    const parsed = widgetSchema.safeParse(w);
    return parsed.success ? [parsed.data] : [];
  });
export const parseWidget = (v: unknown): Widget | null => {
  const parsed = widgetSchema.safeParse(v);
  return parsed.success ? parsed.data : null;
};

export function createDashboardService(deps: DashboardDeps) {
  const { db } = deps;
  const announce = (tenantId: number, kind: 'dashboard' | 'folder' | 'component', id: number, dashboardId: number | null = null) =>
    deps.events.emit({ type: 'dashboard.changed', tenantId, payload: { kind, id, dashboardId } });
  const need = (actor: Actor, codename: string) => {
    if (!actor.permissions.has(codename)) throw forbidden();
  };
  /** Edit and delete: the permission, or the creator holding add_dashboard (their own views). */
  const mayChange = (actor: Actor, row: { created_by: number | null }, codename: string) => {
    if (actor.permissions.has(codename)) return;
    if (row.created_by === actor.userId && actor.permissions.has(DASHBOARD_PERMISSIONS.add)) return;
    throw forbidden();
  };

  async function names(tenantId: number, ids: Array<number | null>) {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    const users = wanted.length ? await deps.users.byIds(tenantId, wanted) : [];
    return new Map(users.map((u) => [u.id, `${u.firstname} ${u.lastname}`.trim() || u.username]));
  }

  function summary(row: repo.DashboardRow, who: Map<number, string>): DashboardSummary {
    const layouts = parseLayouts(row.layouts);
    return {
      id: row.id,
      name: row.name,
      index: row.idx,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      folder: row.folder_id,
      parentId: row.folder_id,
      isFolder: false,
      config: parseConfig(row.config),
      layouts: { src: layouts.src },
      version: row.version,
      createdBy: row.created_by !== null ? { id: row.created_by, name: who.get(row.created_by) ?? `User ${row.created_by}` } : null,
    };
  }

  /**
   * Whether a dashboard is meant for the user (one of its roles or groups; everyone when it names neither), or
   * theirs. `groupIds` are the user's groups (`audienceOf`).
   */
  const meantFor = (actor: Actor, groupIds: readonly number[], row: repo.DashboardRow) => {
    const { roles, groups } = parseConfig(row.config).settings;
    if (row.created_by === actor.userId || (roles.length === 0 && groups.length === 0)) return true;
    return roles.some((r) => actor.roles.includes(r)) || groups.some((g) => groupIds.includes(g));
  };
  /** Who a dashboard is put before, as the activity log records it. */
  const audienceNamed = (config: DashboardConfig) => ({
    inNavigation: config.settings.showInMenu,
    onHome: config.settings.showOnHome,
    roles: config.settings.roles,
    groups: config.settings.groups,
  });
  /** The user's groups, read once per request, for `meantFor`. */
  const audienceOf = (actor: Actor) => deps.users.groupIdsOf(actor.tenantId, actor.userId);

  async function componentsOf(tenantId: number, widgets: Widget[]): Promise<DashboardComponent[]> {
    const ids = [...new Set(widgets.flatMap((w) => (w.kind === 'component' ? [w.componentId] : [])))];
    const rows = await repo.componentsByIds(db, tenantId, ids);
    const used = await repo.dashboardsUsing(db, tenantId, ids);
    return rows.flatMap((r) => {
      const c = presentComponent(r, used);
      return c ? [c] : [];
    });
  }

  function presentComponent(r: repo.ComponentRow, used: Map<number, number>): DashboardComponent | null {
    const widget = parseWidget(r.widget);
    if (!widget) return null;
    return {
      id: r.id,
      name: r.name,
      widget,
      size: r.size,
      usedBy: used.get(r.id) ?? 0,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    };
  }

  async function folderPath(tenantId: number, folderId: number | null) {
    if (folderId === null) return [];
    const folders = new Map((await repo.listFolders(db, tenantId)).map((f) => [f.id, f]));
    const path: Array<{ id: number; name: string }> = [];
    let at = folders.get(folderId);
    while (at && path.length <= DASHBOARD_LIMITS.folderDepth + 1) {
      path.unshift({ id: at.id, name: at.name });
      at = at.parent_id !== null ? folders.get(at.parent_id) : undefined;
    }
    return path;
  }

  async function detail(actor: Actor, row: repo.DashboardRow): Promise<DashboardDetail> {
    const who = await names(actor.tenantId, [row.created_by]);
    const widgets = parseWidgets(row.widgets);
    return {
      ...summary(row, who),
      layouts: parseLayouts(row.layouts),
      widgets,
      components: await componentsOf(actor.tenantId, widgets),
      path: await folderPath(actor.tenantId, row.folder_id),
    };
  }

  async function visibleDashboard(actor: Actor, id: number) {
    need(actor, DASHBOARD_PERMISSIONS.view);
    const row = await repo.findDashboard(db, actor.tenantId, id);
    if (!row) throw notFound(DASHBOARD_MESSAGES.notFound);
    if (actor.permissions.has(DASHBOARD_PERMISSIONS.change) || meantFor(actor, await audienceOf(actor), row)) return row;
    throw notFound(DASHBOARD_MESSAGES.notFound);
  }

  async function checkFolder(actor: Actor, folderId: number | null) {
    if (folderId === null) return;
    const folders = await repo.listFolders(db, actor.tenantId);
    if (!folders.some((f) => f.id === folderId)) throw badRequest(DASHBOARD_MESSAGES.folderNotFound);
  }

  /** An audience names only the tenant's groups. */
  async function checkAudience(actor: Actor, config: DashboardConfig) {
    const wanted = config.settings.groups;
    if (wanted.length === 0) return;
    const known = new Set((await deps.users.groups(actor.tenantId)).map((g) => g.id));
    if (wanted.some((id) => !known.has(id))) throw badRequest(DASHBOARD_MESSAGES.groupUnknown);
  }

  /** Components placed must be the tenant's. */
  async function checkWidgets(actor: Actor, widgets: Widget[]) {
    const ids = [...new Set(widgets.flatMap((w) => (w.kind === 'component' ? [w.componentId] : [])))];
    const found = await repo.componentsByIds(db, actor.tenantId, ids);
    if (found.length !== ids.length) throw badRequest(DASHBOARD_MESSAGES.componentNotFound);
  }

  const contentOf = (input: ReturnType<typeof dashboardInputSchema.parse>) => ({
    name: input.name,
    type: input.config.type,
    config: input.config,
    layouts: input.layouts,
    widgets: input.widgets,
  });

  function subtreeHeight(folders: repo.FolderRow[], id: number): number {
    const kids = folders.filter((f) => f.parent_id === id);
    return 1 + Math.max(0, ...kids.map((k) => subtreeHeight(folders, k.id)));
  }
  function depthOf(folders: repo.FolderRow[], id: number | null): number {
    let depth = 0;
    let at = id;
    const byId = new Map(folders.map((f) => [f.id, f]));
    while (at !== null && depth <= DASHBOARD_LIMITS.folderDepth + 1) {
      depth++;
      at = byId.get(at)?.parent_id ?? null;
    }
    return depth;
  }

  function presentFolders(rows: repo.FolderRow[]): DashboardFolder[] {
    return rows.map((f) => ({
      id: f.id,
      name: f.name,
      index: f.idx,
      parentId: f.parent_id,
      isFolder: true,
      config: { titleAsBreadCrumb: f.config?.titleAsBreadCrumb === true },
      createdAt: iso(f.created_at),
      children: rows
        .filter((c) => c.parent_id === f.id)
        .sort((a, b) => a.idx - b.idx || a.id - b.id)
        .map((c) => c.id),
      dashboardCount: Number(f.dashboard_count),
    }));
  }

  /** Siblings (folders and dashboards of one parent) renumbered with `moved` at `index`. */
  async function renumber(
    tenantId: number,
    parentId: number | null,
    moved: { kind: 'folder' | 'dashboard'; id: number } | null,
    index?: number,
  ) {
    const folders = (await repo.listFolders(db, tenantId)).filter((f) => f.parent_id === parentId);
    const dashboards = await repo.listDashboards(db, tenantId, { folderId: parentId === null ? 'root' : parentId });
    const items = [
      ...folders.map((f) => ({ kind: 'folder' as const, id: f.id, idx: f.idx })),
      ...dashboards.map((d) => ({ kind: 'dashboard' as const, id: d.id, idx: d.idx })),
    ]
      .filter((i) => !(moved && i.kind === moved.kind && i.id === moved.id))
      .sort((a, b) => a.idx - b.idx || (a.kind === b.kind ? a.id - b.id : a.kind === 'folder' ? -1 : 1));
    if (moved) items.splice(index === undefined ? items.length : Math.min(index, items.length), 0, { ...moved, idx: 0 });
    await db.transaction().execute(async (trx) => {
      for (const [i, item] of items.entries()) {
        if (item.kind === 'folder') await repo.placeFolder(trx, tenantId, item.id, parentId, i);
        else await repo.placeDashboard(trx, tenantId, item.id, parentId, i);
      }
    });
  }

  return {
    summary,
    names,
    parseWidgets,
    componentsOf,

    async list(actor: Actor, q: DashboardListQuery) {
      need(actor, DASHBOARD_PERMISSIONS.view);
      const all = await repo.listDashboards(db, actor.tenantId, q);
      const groupIds = actor.permissions.has(DASHBOARD_PERMISSIONS.change) ? [] : await audienceOf(actor);
      const seen = actor.permissions.has(DASHBOARD_PERMISSIONS.change) ? all : all.filter((r) => meantFor(actor, groupIds, r));
      const page = seen.slice((q.page - 1) * q.limit, q.page * q.limit);
      const who = await names(
        actor.tenantId,
        page.map((r) => r.created_by),
      );
      return { contents: page.map((r) => summary(r, who)), totalCount: seen.length };
    },

    /** SPEC 7 `/iotapp/user-dashboards/`: the dashboards meant for the user (menu and home page), in folder order. */
    async userDashboards(actor: Actor) {
      need(actor, DASHBOARD_PERMISSIONS.view);
      const groupIds = await audienceOf(actor);
      const rows = (await repo.listDashboards(db, actor.tenantId, {})).filter((r) => {
        const settings = parseConfig(r.config).settings;
        return meantFor(actor, groupIds, r) && (settings.showInMenu || settings.showOnHome);
      });
      const kept = rows.slice(0, 500);
      const who = await names(
        actor.tenantId,
        kept.map((r) => r.created_by),
      );
      return { contents: kept.map((r) => summary(r, who)), totalCount: rows.length };
    },

    async get(actor: Actor, id: number) {
      return detail(actor, await visibleDashboard(actor, id));
    },

    /** The groups an editor may choose a dashboard's audience from. */
    async audience(actor: Actor) {
      if (!actor.permissions.has(DASHBOARD_PERMISSIONS.add) && !actor.permissions.has(DASHBOARD_PERMISSIONS.change)) throw forbidden();
      return { groups: await deps.users.groups(actor.tenantId) };
    },

    /** A dashboard row the viewer may see (widget queries of a saved dashboard). */
    visibleDashboard,

    /** Refuses a caller who may not edit this dashboard (unseen: 404; not theirs to change: 403). */
    async mayEdit(actor: Actor, id: number) {
      mayChange(actor, await visibleDashboard(actor, id), DASHBOARD_PERMISSIONS.change);
    },

    async create(actor: Actor, body: DashboardInput, origin: AuditOrigin) {
      need(actor, DASHBOARD_PERMISSIONS.add);
      const input = dashboardInputSchema.parse(body);
      await checkFolder(actor, input.folderId);
      await checkWidgets(actor, input.widgets);
      await checkAudience(actor, input.config);
      const idx = await repo.nextIndex(db, actor.tenantId, input.folderId);
      const content = contentOf(input);
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await repo.insertDashboard(trx, actor.tenantId, actor.userId, idx, { ...content, folderId: input.folderId });
        await repo.insertVersion(trx, {
          tenantId: actor.tenantId,
          dashboardId: id,
          version: 1,
          ...content,
          note: input.note,
          restoredFrom: null,
          userId: actor.userId,
        });
        await writeActivity(trx, origin, {
          action: 'dashboard.create',
          object: { type: 'dashboard', id },
          after: { name: input.name, ...audienceNamed(input.config) },
        });
        return id;
      });
      announce(actor.tenantId, 'dashboard', id, id);
      return this.get(actor, id);
    },

    async update(actor: Actor, id: number, body: DashboardInput, origin: AuditOrigin) {
      const row = await visibleDashboard(actor, id);
      mayChange(actor, row, DASHBOARD_PERMISSIONS.change);
      const input = dashboardInputSchema.parse(body);
      await checkWidgets(actor, input.widgets);
      await checkAudience(actor, input.config);
      if (input.folderId !== row.folder_id) await checkFolder(actor, input.folderId);
      const content = contentOf(input);
      await db.transaction().execute(async (trx) => {
        const version = await repo.saveDashboard(trx, actor.tenantId, id, content);
        if (version === null) throw notFound(DASHBOARD_MESSAGES.notFound);
        await repo.insertVersion(trx, {
          tenantId: actor.tenantId,
          dashboardId: id,
          version,
          ...content,
          note: input.note,
          restoredFrom: null,
          userId: actor.userId,
        });
        await writeActivity(trx, origin, {
          action: 'dashboard.update',
          object: { type: 'dashboard', id },
          before: { name: row.name, version: row.version, ...audienceNamed(parseConfig(row.config)) },
          after: { name: input.name, version, ...audienceNamed(input.config) },
        });
      });
      if (input.folderId !== row.folder_id) await renumber(actor.tenantId, input.folderId, { kind: 'dashboard', id });
      announce(actor.tenantId, 'dashboard', id, id);
      return this.get(actor, id);
    },

    async remove(actor: Actor, id: number, origin: AuditOrigin) {
      const row = await visibleDashboard(actor, id);
      mayChange(actor, row, DASHBOARD_PERMISSIONS.delete);
      await db.transaction().execute(async (trx) => {
        await repo.deleteDashboard(trx, actor.tenantId, id);
        await writeActivity(trx, origin, { action: 'dashboard.delete', object: { type: 'dashboard', id }, before: { name: row.name } });
      });
      announce(actor.tenantId, 'dashboard', id, id);
    },

    async move(actor: Actor, id: number, body: MoveInput) {
      const row = await visibleDashboard(actor, id);
      mayChange(actor, row, DASHBOARD_PERMISSIONS.change);
      const input = moveInputSchema.parse(body);
      await checkFolder(actor, input.parentId);
      await renumber(actor.tenantId, input.parentId, { kind: 'dashboard', id }, input.index);
      if (row.folder_id !== input.parentId) await renumber(actor.tenantId, row.folder_id, null);
      const after = await repo.findDashboard(db, actor.tenantId, id);
      if (!after) throw notFound(DASHBOARD_MESSAGES.notFound);
      announce(actor.tenantId, 'dashboard', id, id);
      return summary(after, await names(actor.tenantId, [after.created_by]));
    },

    async reorder(actor: Actor, body: ReorderInput) {
      need(actor, DASHBOARD_PERMISSIONS.change);
      const input = reorderInputSchema.parse(body);
      await checkFolder(actor, input.parentId);
      const folders = (await repo.listFolders(db, actor.tenantId)).filter((f) => f.parent_id === input.parentId);
      const dashboards = await repo.listDashboards(db, actor.tenantId, { folderId: input.parentId === null ? 'root' : input.parentId });
      const folderIds = new Set(folders.map((f) => f.id));
      const dashboardIds = new Set(dashboards.map((d) => d.id));
      if (!input.folderIds.every((id) => folderIds.has(id)) || !input.dashboardIds.every((id) => dashboardIds.has(id)))
        throw badRequest('Every id must be a direct child of the parent');
      // the named ones first, in the order given (folders, then dashboards); the rest keep their order after them
      const order = [
        ...input.folderIds.map((id) => ({ kind: 'folder' as const, id })),
        ...input.dashboardIds.map((id) => ({ kind: 'dashboard' as const, id })),
      ];
      const rest = [
        ...folders.filter((f) => !input.folderIds.includes(f.id)).map((f) => ({ kind: 'folder' as const, id: f.id, idx: f.idx })),
        ...dashboards.filter((d) => !input.dashboardIds.includes(d.id)).map((d) => ({ kind: 'dashboard' as const, id: d.id, idx: d.idx })),
      ].sort((a, b) => a.idx - b.idx);
      await db.transaction().execute(async (trx) => {
        for (const [i, item] of [...order, ...rest].entries()) {
          if (item.kind === 'folder') await repo.placeFolder(trx, actor.tenantId, item.id, input.parentId, i);
          else await repo.placeDashboard(trx, actor.tenantId, item.id, input.parentId, i);
        }
      });
      announce(actor.tenantId, 'folder', input.parentId ?? 0);
      return { success: true };
    },

    /* -------------------------------------------------------------- versions */

    async versions(actor: Actor, id: number, q: { page: number; limit: number }) {
      await visibleDashboard(actor, id);
      const [rows, totalCount] = await Promise.all([
        repo.listVersions(db, actor.tenantId, id, { offset: (q.page - 1) * q.limit, limit: q.limit }),
        repo.countVersions(db, actor.tenantId, id),
      ]);
      const who = await names(
        actor.tenantId,
        rows.map((r) => r.created_by),
      );
      return { contents: rows.map((r) => presentVersion(r, who)), totalCount };
    },

    async version(actor: Actor, id: number, version: number) {
      await visibleDashboard(actor, id);
      const row = await repo.findVersion(db, actor.tenantId, id, version);
      if (!row) throw notFound(DASHBOARD_MESSAGES.versionNotFound);
      const who = await names(actor.tenantId, [row.created_by]);
      return {
        ...presentVersion(row, who),
        config: parseConfig(row.config),
        layouts: parseLayouts(row.layouts),
        widgets: parseWidgets(row.widgets),
      };
    },

    /** Restoring saves the old content as a new version (history is never rewritten). */
    async restore(actor: Actor, id: number, version: number, origin: AuditOrigin) {
      const row = await visibleDashboard(actor, id);
      mayChange(actor, row, DASHBOARD_PERMISSIONS.change);
      const old = await repo.findVersion(db, actor.tenantId, id, version);
      if (!old) throw notFound(DASHBOARD_MESSAGES.versionNotFound);
      const widgets = parseWidgets(old.widgets);
      // a component deleted since would leave a hole: drop such widgets and their layout items
      const present = new Set((await componentsOf(actor.tenantId, widgets)).map((c) => c.id));
      const kept = widgets.filter((w) => w.kind !== 'component' || present.has(w.componentId));
      const ids = new Set(kept.map((w) => w.id));
      const layouts = parseLayouts(old.layouts);
      const content = {
        name: old.name,
        type: parseConfig(old.config).type,
        config: parseConfig(old.config),
        layouts: { lg: layouts.lg.filter((i) => ids.has(i.i)), sm: layouts.sm.filter((i) => ids.has(i.i)), src: layouts.src },
        widgets: kept,
      };
      await db.transaction().execute(async (trx) => {
        const next = await repo.saveDashboard(trx, actor.tenantId, id, content);
        if (next === null) throw notFound(DASHBOARD_MESSAGES.notFound);
        await repo.insertVersion(trx, {
          tenantId: actor.tenantId,
          dashboardId: id,
          version: next,
          ...content,
          note: `Restored from version ${version}`,
          restoredFrom: version,
          userId: actor.userId,
        });
        await writeActivity(trx, origin, { action: 'dashboard.restore', object: { type: 'dashboard', id }, detail: { version, next } });
      });
      announce(actor.tenantId, 'dashboard', id, id);
      return this.get(actor, id);
    },

    /* -------------------------------------------------------------- folders */

    async folders(actor: Actor, q: { limit: number; parentId?: number | 'root' }) {
      need(actor, DASHBOARD_PERMISSIONS.view);
      const all = presentFolders(await repo.listFolders(db, actor.tenantId));
      const picked =
        q.parentId === undefined ? all : all.filter((f) => (q.parentId === 'root' ? f.parentId === null : f.parentId === q.parentId));
      return { contents: picked.slice(0, q.limit), totalCount: picked.length };
    },

    async folder(actor: Actor, id: number): Promise<FolderDetail> {
      need(actor, DASHBOARD_PERMISSIONS.view);
      const rows = await repo.listFolders(db, actor.tenantId);
      const all = presentFolders(rows);
      const me = all.find((f) => f.id === id);
      if (!me) throw notFound(DASHBOARD_MESSAGES.folderNotFound);
      const groupIds = await audienceOf(actor);
      const dashboards = (await repo.listDashboards(db, actor.tenantId, { folderId: id })).filter(
        (r) => meantFor(actor, groupIds, r) || actor.permissions.has(DASHBOARD_PERMISSIONS.change),
      );
      const who = await names(
        actor.tenantId,
        dashboards.map((r) => r.created_by),
      );
      return {
        ...me,
        path: await folderPath(actor.tenantId, id),
        folders: all.filter((f) => f.parentId === id).sort((a, b) => a.index - b.index || a.id - b.id),
        dashboards: dashboards.map((r) => summary(r, who)),
      };
    },

    async createFolder(actor: Actor, body: FolderInput, origin: AuditOrigin) {
      need(actor, DASHBOARD_PERMISSIONS.add);
      const input = folderInputSchema.parse(body);
      const rows = await repo.listFolders(db, actor.tenantId);
      if (rows.length >= DASHBOARD_LIMITS.folders) throw conflict(DASHBOARD_MESSAGES.folderLimit);
      if (input.parentId !== null && !rows.some((f) => f.id === input.parentId)) throw badRequest(DASHBOARD_MESSAGES.folderNotFound);
      if (depthOf(rows, input.parentId) + 1 > DASHBOARD_LIMITS.folderDepth) throw badRequest(DASHBOARD_MESSAGES.folderTooDeep);
      const idx = await repo.nextIndex(db, actor.tenantId, input.parentId);
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await repo.insertFolder(trx, {
          tenantId: actor.tenantId,
          name: input.name,
          parentId: input.parentId,
          idx,
          config: input.config,
          userId: actor.userId,
        });
        await writeActivity(trx, origin, {
          action: 'dashboard_folder.create',
          object: { type: 'dashboard_folder', id },
          after: { name: input.name },
        });
        return id;
      });
      announce(actor.tenantId, 'folder', id);
      return presentFolders(await repo.listFolders(db, actor.tenantId)).find((f) => f.id === id) as DashboardFolder;
    },

    async updateFolder(actor: Actor, id: number, body: FolderInput, origin: AuditOrigin) {
      need(actor, DASHBOARD_PERMISSIONS.change);
      const input = folderInputSchema.parse(body);
      const rows = await repo.listFolders(db, actor.tenantId);
      const me = rows.find((f) => f.id === id);
      if (!me) throw notFound(DASHBOARD_MESSAGES.folderNotFound);
      await db.transaction().execute(async (trx) => {
        await repo.updateFolder(trx, actor.tenantId, id, { name: input.name, config: input.config });
        await writeActivity(trx, origin, {
          action: 'dashboard_folder.update',
          object: { type: 'dashboard_folder', id },
          ...changedFields({ name: me.name, config: me.config }, { name: input.name, config: input.config }),
        });
      });
      if (input.parentId !== me.parent_id) return this.moveFolder(actor, id, { parentId: input.parentId });
      announce(actor.tenantId, 'folder', id);
      return presentFolders(await repo.listFolders(db, actor.tenantId)).find((f) => f.id === id) as DashboardFolder;
    },

    async moveFolder(actor: Actor, id: number, body: MoveInput) {
      need(actor, DASHBOARD_PERMISSIONS.change);
      const input = moveInputSchema.parse(body);
      const rows = await repo.listFolders(db, actor.tenantId);
      const me = rows.find((f) => f.id === id);
      if (!me) throw notFound(DASHBOARD_MESSAGES.folderNotFound);
      if (input.parentId !== null) {
        if (!rows.some((f) => f.id === input.parentId)) throw badRequest(DASHBOARD_MESSAGES.folderNotFound);
        // the new parent may not be the folder itself or below it
        let at: number | null = input.parentId;
        const byId = new Map(rows.map((f) => [f.id, f]));
        for (let guard = 0; at !== null && guard <= rows.length; guard++) {
          if (at === id) throw badRequest(DASHBOARD_MESSAGES.folderCycle);
          at = byId.get(at)?.parent_id ?? null;
        }
      }
      if (depthOf(rows, input.parentId) + subtreeHeight(rows, id) > DASHBOARD_LIMITS.folderDepth)
        throw badRequest(DASHBOARD_MESSAGES.folderTooDeep);
      await renumber(actor.tenantId, input.parentId, { kind: 'folder', id }, input.index);
      if (me.parent_id !== input.parentId) await renumber(actor.tenantId, me.parent_id, null);
      announce(actor.tenantId, 'folder', id);
      return presentFolders(await repo.listFolders(db, actor.tenantId)).find((f) => f.id === id) as DashboardFolder;
    },

    async removeFolder(actor: Actor, id: number, origin: AuditOrigin) {
      need(actor, DASHBOARD_PERMISSIONS.delete);
      const rows = await repo.listFolders(db, actor.tenantId);
      const me = rows.find((f) => f.id === id);
      if (!me) throw notFound(DASHBOARD_MESSAGES.folderNotFound);
      if (rows.some((f) => f.parent_id === id) || Number(me.dashboard_count) > 0) throw conflict(DASHBOARD_MESSAGES.folderNotEmpty);
      await db.transaction().execute(async (trx) => {
        await repo.deleteFolder(trx, actor.tenantId, id);
        await writeActivity(trx, origin, {
          action: 'dashboard_folder.delete',
          object: { type: 'dashboard_folder', id },
          before: { name: me.name },
        });
      });
      announce(actor.tenantId, 'folder', id);
    },

    /* -------------------------------------------------------------- components */

    async components(actor: Actor, q: { search?: string; page: number; limit: number }) {
      need(actor, DASHBOARD_PERMISSIONS.view);
      const [rows, totalCount] = await Promise.all([
        repo.listComponents(db, actor.tenantId, q.search, { offset: (q.page - 1) * q.limit, limit: q.limit }),
        repo.countComponents(db, actor.tenantId, q.search),
      ]);
      const used = await repo.dashboardsUsing(
        db,
        actor.tenantId,
        rows.map((r) => r.id),
      );
      return { contents: rows.flatMap((r) => presentComponent(r, used) ?? []), totalCount };
    },

    async component(actor: Actor, id: number) {
      need(actor, DASHBOARD_PERMISSIONS.view);
      const row = await repo.findComponent(db, actor.tenantId, id);
      const c = row ? presentComponent(row, await repo.dashboardsUsing(db, actor.tenantId, [id])) : null;
      if (!c) throw notFound(DASHBOARD_MESSAGES.componentNotFound);
      return c;
    },

    async createComponent(actor: Actor, body: ComponentInput, origin: AuditOrigin) {
      need(actor, DASHBOARD_PERMISSIONS.add);
      const input = componentInputSchema.parse(body);
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await repo.insertComponent(trx, actor.tenantId, actor.userId, input);
        await writeActivity(trx, origin, {
          action: 'dashboard_component.create',
          object: { type: 'dashboard_component', id },
          after: { name: input.name },
        });
        return id;
      });
      announce(actor.tenantId, 'component', id);
      return this.component(actor, id);
    },

    async updateComponent(actor: Actor, id: number, body: ComponentInput, origin: AuditOrigin) {
      need(actor, DASHBOARD_PERMISSIONS.change);
      const input = componentInputSchema.parse(body);
      await db.transaction().execute(async (trx) => {
        const res = await repo.updateComponent(trx, actor.tenantId, id, input);
        if (Number(res.numUpdatedRows) === 0) throw notFound(DASHBOARD_MESSAGES.componentNotFound);
        await writeActivity(trx, origin, {
          action: 'dashboard_component.update',
          object: { type: 'dashboard_component', id },
          after: { name: input.name },
        });
      });
      announce(actor.tenantId, 'component', id);
      return this.component(actor, id);
    },

    async removeComponent(actor: Actor, id: number, origin: AuditOrigin) {
      need(actor, DASHBOARD_PERMISSIONS.delete);
      const row = await repo.findComponent(db, actor.tenantId, id);
      if (!row) throw notFound(DASHBOARD_MESSAGES.componentNotFound);
      if ((await repo.dashboardsUsing(db, actor.tenantId, [id])).get(id)) throw conflict(DASHBOARD_MESSAGES.componentInUse);
      await db.transaction().execute(async (trx) => {
        await repo.deleteComponent(trx, actor.tenantId, id);
        await writeActivity(trx, origin, {
          action: 'dashboard_component.delete',
          object: { type: 'dashboard_component', id },
          before: { name: row.name },
        });
      });
      announce(actor.tenantId, 'component', id);
    },
  };

  function presentVersion(
    r: {
      id: number;
      dashboard_id: number;
      version: number;
      name: string;
      note: string;
      restored_from: number | null;
      created_by: number | null;
      created_at: Date;
    },
    who: Map<number, string>,
  ) {
    return {
      id: r.id,
      dashboardId: r.dashboard_id,
      version: r.version,
      name: r.name,
      note: r.note,
      restoredFrom: r.restored_from,
      createdAt: iso(r.created_at),
      createdBy: r.created_by !== null ? { id: r.created_by, name: who.get(r.created_by) ?? `User ${r.created_by}` } : null,
    };
  }
}
export type DashboardService = ReturnType<typeof createDashboardService>;
export { emptyLayouts };
