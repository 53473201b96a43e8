import { randomUUID } from 'node:crypto';
import {
  type AnalyticsLink,
  type AnalyticsLinkInput,
  analyticsLinkInputSchema,
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  DASHBOARD_PERMISSIONS,
  type LinkRefusal,
  type LinkView,
  type RangeOverride,
  type RlsCondition,
  rlsConditionSchema,
  type Widget,
  type WidgetDataResponse,
} from '@sitewatch/contracts';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import type { CheckedLive } from '../video/index.ts';
import { type LinkKeyRing, LinkRefused } from './link-keys.ts';
import * as repo from './repository.ts';
import { type DataScope, groupConditions } from './scope.ts';
import type { Actor, DashboardService } from './service.ts';
import { parseConfig, parseLayouts, parseWidgets } from './service.ts';
import type { DashboardSources } from './sources.ts';
import type { WidgetRunner } from './widgets.ts';

export interface LinkDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  keys: LinkKeyRing;
  sources: DashboardSources;
  runner: WidgetRunner;
  dashboards: DashboardService;
  directory: Pick<SiteDirectory, 'visibleAssetIds'>;
  users: Pick<UserDirectory, 'actors' | 'byIds'>;
  /** Live HLS of cameras whose access this module checked (the video module's). */
  cameras: CheckedLive;
}

const refusalMessage = (reason: LinkRefusal) =>
  reason === 'expired'
    ? DASHBOARD_MESSAGES.linkExpired
    : reason === 'revoked'
      ? DASHBOARD_MESSAGES.linkRevoked
      : DASHBOARD_MESSAGES.linkRefused;
/** A refused link: 403 with the reason as code; nothing else about the link or its dashboard. */
export const refusal = (reason: LinkRefusal) => new HttpError(403, refusalMessage(reason), `link_${reason}`);

/** Conditions as comparable text (jsonb does not keep key order). */
const canonical = (v: unknown) =>
  JSON.stringify((Array.isArray(v) ? v : []).map((c: RlsCondition) => [c.dataset, c.column, c.operator, c.values]));

export const linkPath = (dashboardId: number, token: string) => `/analytics-dashboard/${dashboardId}/${token}`;

/** Ids a condition set names by value (checked against the creator's scope). */
function named(conditions: readonly RlsCondition[]) {
  const pick = (dataset: string, column: string) =>
    conditions
      .filter((c) => c.dataset === dataset && c.column === column && c.operator !== 'not_in')
      .flatMap((c) => c.values.filter((v): v is number => typeof v === 'number'));
  return { siteIds: pick('sites', 'id'), deviceIds: pick('devices', 'id'), customerIds: pick('sites', 'customerId') };
}

export function createLinkService(deps: LinkDeps) {
  const { db, sources } = deps;

  /** The viewer's own scope: their sites, no conditions. */
  async function viewerScope(actor: Actor): Promise<DataScope> {
    return {
      tenantId: actor.tenantId,
      sites: await deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles),
      sitesConditioned: false,
      actor,
      filters: new Map(),
      viaLink: false,
      permissions: actor.permissions,
    };
  }

  /**
   * The scope of a link: its creator's current sites and permissions, narrowed by the conditions. Null when the
   * conditions name rows outside what the creator sees now (or the creator is gone).
   */
  async function conditionedScope(actor: Actor, conditions: readonly RlsCondition[]): Promise<DataScope | null> {
    const base = await deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
    if (await sources.outside(actor.tenantId, base, named(conditions))) return null;
    const grouped = groupConditions(conditions);
    const siteFilters: Parameters<DashboardSources['resolveSites']>[2] = {};
    const filters = new Map(grouped);
    let hasSite = false;
    for (const column of ['id', 'customerId', 'name'] as const) {
      const f = grouped.get(`sites.${column}`);
      if (!f) continue;
      hasSite = true;
      siteFilters[column] = { only: f.only ? [...f.only] : null, not: [...f.not] };
      filters.delete(`sites.${column}`);
    }
    return {
      tenantId: actor.tenantId,
      sites: hasSite ? await sources.resolveSites(actor.tenantId, base, siteFilters) : base,
      sitesConditioned: hasSite,
      actor,
      filters,
      viaLink: true,
      permissions: actor.permissions,
    };
  }

  async function present(tenantId: number, row: repo.LinkRow, who: Map<number, string>, withPath: boolean): Promise<AnalyticsLink> {
    const now = deps.clock.now();
    const state = row.revoked_at ? 'revoked' : new Date(row.expires_at) <= now ? 'expired' : 'active';
    const conditions = (Array.isArray(row.rls_conditions) ? row.rls_conditions : []).flatMap((c) => {
      const parsed = rlsConditionSchema.safeParse(c);
      return parsed.success ? [parsed.data] : [];
    });
    let path: string | null = null;
    if (withPath && state === 'active') {
      const { token } = await deps.keys.sign({
        dashboardId: row.dashboard_id,
        tenantId,
        linkId: row.id,
        conditions,
        exp: Math.floor(new Date(row.expires_at).getTime() / 1000),
      });
      path = linkPath(row.dashboard_id, token);
    }
    return {
      id: row.id,
      dashboardId: row.dashboard_id,
      dashboardName: row.dashboard_name,
      label: row.label,
      rls_conditions: conditions,
      expiresAt: new Date(row.expires_at).toISOString(),
      revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
      viewCount: row.view_count,
      lastViewedAt: row.last_viewed_at ? new Date(row.last_viewed_at).toISOString() : null,
      kid: row.kid,
      createdAt: new Date(row.created_at).toISOString(),
      createdBy: { id: row.created_by, name: who.get(row.created_by) ?? `User ${row.created_by}` },
      state,
      path,
    };
  }

  async function presentAll(tenantId: number, rows: repo.LinkRow[], withPath: boolean) {
    const who = await deps.dashboards.names(
      tenantId,
      rows.map((r) => r.created_by),
    );
    return Promise.all(rows.map((r) => present(tenantId, r, who, withPath)));
  }

  /** Verifies a token for this tenant and dashboard, and loads the link and its creator's scope; throws a refusal. */
  async function admit(tenantId: number, dashboardId: number, token: string) {
    const now = deps.clock.now();
    let claims: Awaited<ReturnType<LinkKeyRing['verify']>>;
    try {
      claims = await deps.keys.verify(token, now.getTime());
    } catch (error) {
      if (error instanceof LinkRefused) throw refusal(error.reason);
      throw error;
    }
    if (claims.tenantId !== tenantId) throw refusal('wrong_tenant');
    if (claims.dashboardId !== dashboardId) throw refusal('tampered');
    const row = await repo.findLink(db, tenantId, claims.linkId);
    if (!row || row.dashboard_id !== dashboardId) throw refusal('revoked');
    if (row.revoked_at) throw refusal('revoked');
    if (new Date(row.expires_at) <= now) throw refusal('expired');
    if (canonical(row.rls_conditions) !== canonical(claims.conditions)) throw refusal('tampered');
    const [creator] = await deps.users.actors(tenantId, [row.created_by]);
    if (!creator?.permissions.has(DASHBOARD_PERMISSIONS.view)) throw refusal('scope');
    const scope = await conditionedScope(creator, claims.conditions);
    if (!scope) throw refusal('scope');
    const dashboard = await repo.findDashboard(db, tenantId, dashboardId);
    if (!dashboard || parseConfig(dashboard.config).type !== 'ANALYTICS') throw refusal('revoked');
    return { row, scope, dashboard, creator };
  }

  /** The camera of a camera tile of a shared dashboard, through the widget query (its permission and scope). */
  async function linkedCamera(tenantId: number, dashboardId: number, token: string, widgetId: string): Promise<number> {
    const { scope, dashboard } = await admit(tenantId, dashboardId, token);
    const widget = parseWidgets(dashboard.widgets).find((w: Widget) => w.id === widgetId);
    if (!widget) throw notFound(DASHBOARD_MESSAGES.widgetUnknown);
    const { data } = await deps.runner.run(scope, widget, null);
    if (data.kind !== 'camera') throw notFound(DASHBOARD_MESSAGES.cameraUnknown);
    return data.cameraId;
  }

  return {
    viewerScope,
    conditionedScope,

    async create(actor: Actor, body: AnalyticsLinkInput, origin: AuditOrigin) {
      if (!actor.permissions.has(DASHBOARD_PERMISSIONS.share)) throw forbidden();
      const input = analyticsLinkInputSchema.parse(body);
      const dashboard = await deps.dashboards.visibleDashboard(actor, input.dashboardId);
      if (parseConfig(dashboard.config).type !== 'ANALYTICS') throw badRequest(DASHBOARD_MESSAGES.notAnalytics);
      const now = deps.clock.now().getTime();
      const expires = Date.parse(input.expiresAt);
      if (expires <= now) throw badRequest(DASHBOARD_MESSAGES.expiryPast);
      if (expires - now > DASHBOARD_LIMITS.linkDays * 86_400_000) throw badRequest(DASHBOARD_MESSAGES.expiryTooFar);
      if (!(await conditionedScope(actor, input.rls_conditions))) throw badRequest(DASHBOARD_MESSAGES.rlsWidens);
      const id = randomUUID();
      const exp = Math.floor(expires / 1000);
      const { token, kid } = await deps.keys.sign({
        dashboardId: input.dashboardId,
        tenantId: actor.tenantId,
        linkId: id,
        conditions: input.rls_conditions,
        exp,
      });
      await db.transaction().execute(async (trx) => {
        await repo.insertLink(trx, {
          id,
          tenantId: actor.tenantId,
          dashboardId: input.dashboardId,
          label: input.label,
          conditions: input.rls_conditions,
          expiresAt: new Date(exp * 1000),
          kid,
          userId: actor.userId,
        });
        await writeActivity(trx, origin, {
          action: 'analytics_link.create',
          object: { type: 'analytics_link', id },
          after: { dashboardId: input.dashboardId, label: input.label, expiresAt: new Date(exp * 1000).toISOString() },
        });
      });
      const row = await repo.findLink(db, actor.tenantId, id);
      if (!row) throw notFound(DASHBOARD_MESSAGES.linkNotFound);
      const [link] = await presentAll(actor.tenantId, [row], false);
      deps.events.emit({
        type: 'dashboard.changed',
        tenantId: actor.tenantId,
        payload: { kind: 'link', id, dashboardId: input.dashboardId },
      });
      return { ...(link as AnalyticsLink), path: linkPath(input.dashboardId, token) };
    },

    async list(actor: Actor, q: { dashboardId?: number; state?: 'active' | 'expired' | 'revoked'; page: number; limit: number }) {
      if (!actor.permissions.has(DASHBOARD_PERMISSIONS.share)) throw forbidden();
      const now = deps.clock.now();
      const all = await repo.listLinks(db, actor.tenantId, q, now, null);
      const page = all.slice((q.page - 1) * q.limit, q.page * q.limit);
      return { contents: await presentAll(actor.tenantId, page, true), totalCount: all.length };
    },

    async revoke(actor: Actor, id: string, origin: AuditOrigin) {
      if (!actor.permissions.has(DASHBOARD_PERMISSIONS.share)) throw forbidden();
      const row = await repo.findLink(db, actor.tenantId, id);
      if (!row) throw notFound(DASHBOARD_MESSAGES.linkNotFound);
      await db.transaction().execute(async (trx) => {
        await repo.revokeLink(trx, actor.tenantId, id, actor.userId, deps.clock.now());
        await writeActivity(trx, origin, {
          action: 'analytics_link.revoke',
          object: { type: 'analytics_link', id },
          before: { label: row.label },
        });
      });
      deps.events.emit({
        type: 'dashboard.changed',
        tenantId: actor.tenantId,
        payload: { kind: 'link', id, dashboardId: row.dashboard_id },
      });
      const after = await repo.findLink(db, actor.tenantId, id);
      const [link] = await presentAll(actor.tenantId, [after as repo.LinkRow], false);
      return link as AnalyticsLink;
    },

    /** `/analytics-report`: the active analytics dashboard entries with their label. */
    async report(actor: Actor) {
      if (!actor.permissions.has(DASHBOARD_PERMISSIONS.view)) throw forbidden();
      const rows = (await repo.listLinks(db, actor.tenantId, { state: 'active' }, deps.clock.now(), { offset: 0, limit: 500 })).slice(
        0,
        500,
      );
      const links = await presentAll(actor.tenantId, rows, actor.permissions.has(DASHBOARD_PERMISSIONS.share));
      return {
        contents: links.map((l) => ({
          dashboardId: l.dashboardId,
          dashboardName: l.dashboardName,
          label: l.label,
          rls_conditions: l.rls_conditions,
          linkId: l.id,
          expiresAt: l.expiresAt,
          viewCount: l.viewCount,
          path: l.path,
        })),
        totalCount: links.length,
      };
    },

    /** Public: a shared dashboard's definition; counts a view. */
    async open(tenantId: number, dashboardId: number, token: string): Promise<LinkView> {
      const { row, dashboard } = await admit(tenantId, dashboardId, token);
      await repo.countView(db, tenantId, row.id, deps.clock.now());
      const widgets = parseWidgets(dashboard.widgets);
      return {
        dashboard: {
          id: dashboard.id,
          name: dashboard.name,
          config: parseConfig(dashboard.config),
          layouts: parseLayouts(dashboard.layouts),
          widgets,
          components: await deps.dashboards.componentsOf(tenantId, widgets),
        },
        label: row.label,
        expiresAt: new Date(row.expires_at).toISOString(),
        rls_conditions: row.rls_conditions as RlsCondition[],
      };
    },

    /** Public: one widget of a shared dashboard, within the link's conditions and its creator's scope. */
    async widgetData(
      tenantId: number,
      dashboardId: number,
      token: string,
      widgetId: string,
      range: RangeOverride | null,
    ): Promise<WidgetDataResponse> {
      const { scope, dashboard } = await admit(tenantId, dashboardId, token);
      const widget = parseWidgets(dashboard.widgets).find((w: Widget) => w.id === widgetId);
      if (!widget) throw notFound(DASHBOARD_MESSAGES.widgetUnknown);
      return deps.runner.run(scope, widget, range);
    },

    /**
     * Public: the live playlist of a camera tile of a shared dashboard. The link is verified as for widget data, and
     * the camera must be that widget's and lie within the link's conditions and its creator's current scope; the
     * playlist names media files under the same link path.
     */
    async cameraPlaylist(tenantId: number, dashboardId: number, token: string, widgetId: string) {
      const cameraId = await linkedCamera(tenantId, dashboardId, token, widgetId);
      return deps.cameras.playlist(tenantId, cameraId, (run, file) => `media/${run}/${file}`);
    },

    /** Public: a media file of a camera tile's live video, checked as its playlist is. */
    async cameraMedia(tenantId: number, dashboardId: number, token: string, widgetId: string, run: string, file: string) {
      const cameraId = await linkedCamera(tenantId, dashboardId, token, widgetId);
      return deps.cameras.mediaFile(tenantId, cameraId, run, file);
    },

    /** A freshly signed path of an active link (the start-up banner), or null. */
    async pathOf(tenantId: number, linkId: string): Promise<string | null> {
      const row = await repo.findLink(db, tenantId, linkId);
      if (!row) return null;
      const [link] = await presentAll(tenantId, [row], true);
      return link?.path ?? null;
    },

    keys: deps.keys,
  };
}
export type LinkService = ReturnType<typeof createLinkService>;
