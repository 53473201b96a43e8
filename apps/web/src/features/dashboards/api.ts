import {
  type AnalyticsLink,
  type AnalyticsLinkInput,
  type AnalyticsLinkList,
  type AnalyticsReport,
  type ComponentInput,
  type ComponentList,
  DASHBOARD_PERMISSIONS,
  type DashboardAudience,
  type DashboardComponent,
  type DashboardDetail,
  type DashboardFolder,
  type DashboardInput,
  type DashboardList,
  type FolderDetail,
  type FolderInput,
  type FolderList,
  type LinkView,
  type MoveInput,
  type RangeOverride,
  type ReorderInput,
  shouldFetchUserDashboards,
  type UserDashboards,
  type VersionList,
  type Widget,
  type WidgetDataResponse,
  type WidgetKind,
} from '@sitewatch/contracts/dashboards';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { dashboardKeys } from './keys.ts';
import { takeDashboard, takeWidgetData } from './prefetch.ts';

/** The server's dashboards endpoints (apps/server/src/modules/dashboards/routes.ts). */
export const DASHBOARD_API = {
  dashboards: '/iotapp/dashboards/',
  dashboard: (id: number) => `/iotapp/dashboards/${id}/`,
  move: (id: number) => `/iotapp/dashboards/${id}/move/`,
  reorder: '/iotapp/dashboards/reorder/',
  mine: '/iotapp/user-dashboards/',
  folders: '/iotapp/dashboards/folders/',
  audience: '/iotapp/dashboards/audience/',
  folder: (id: number) => `/iotapp/dashboards/folders/${id}/`,
  moveFolder: (id: number) => `/iotapp/dashboards/folders/${id}/move/`,
  components: '/iotapp/dashboards/components/',
  component: (id: number) => `/iotapp/dashboards/components/${id}/`,
  versions: (id: number) => `/iotapp/dashboards/${id}/versions/`,
  restore: (id: number, version: number) => `/iotapp/dashboards/${id}/versions/${version}/restore/`,
  widgetData: '/iotapp/dashboards/widget-data/',
  links: '/iotapp/analytics-links/',
  revoke: (id: string) => `/iotapp/analytics-links/${encodeURIComponent(id)}/revoke/`,
  report: '/iotapp/analytics-dashboards/',
  sharedOpen: '/iotapp/analytics-dashboard/open/',
  sharedWidget: '/iotapp/analytics-dashboard/widget-data/',
} as const;

// a dashboard, folder or component changed somewhere: lists and the open dashboard refetch
realtime.patchOn('dashboards.changed', (_envelope, client) => {
  void client.invalidateQueries({
    queryKey: dashboardKeys.all,
    predicate: (q) => q.queryKey[1] !== 'widget' && q.queryKey[1] !== 'shared',
  });
});
// live widgets: an event of the data a widget kind shows makes that kind's answers stale (device values are patched
// in, see WidgetBody). Busy topics (every device's status) refetch a kind at most every few seconds, and a refetch
// never cancels one in flight, so a stream of events cannot keep a widget loading.
const LIVE_TOPICS: ReadonlyArray<readonly [string, readonly WidgetKind[], number]> = [
  ['alarm', ['alarmList'], 2000],
  ['ticket', ['ticketCounters', 'ticketList'], 2000],
  ['notices.tickets', ['ticketCounters', 'ticketList'], 2000],
  ['device.status', ['siteSummary', 'siteMap', 'latest'], 5000],
  ['form.submitted', ['formResponses'], 2000],
];
const pending = new Map<WidgetKind, ReturnType<typeof setTimeout>>();
for (const [topic, kinds, ms] of LIVE_TOPICS) {
  realtime.patchOn(topic, (_envelope, client) => {
    for (const kind of kinds) {
      if (pending.has(kind)) continue;
      pending.set(
        kind,
        setTimeout(() => {
          pending.delete(kind);
          void client.invalidateQueries({ queryKey: dashboardKeys.widgetsOf(kind) }, { cancelRefetch: false });
        }, ms),
      );
    }
  });
}

const quiet = { toast: false } as const;

export const useDashboardList = (query: Query, enabled = true) =>
  useQuery({
    queryKey: dashboardKeys.list(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => http.get<DashboardList>(DASHBOARD_API.dashboards, { query, ...quiet }),
  });

/**
 * SPEC 6: the user's own dashboard list, fetched only when the first role is not sysadmin, localadmin or customeradmin,
 * and only for users who may view dashboards at all.
 */
export function useUserDashboards() {
  const user = useUser();
  const enabled = Boolean(user) && shouldFetchUserDashboards(user?.userRole ?? []) && permissionsOf(user).has(DASHBOARD_PERMISSIONS.view);
  return useQuery({
    queryKey: dashboardKeys.mine,
    enabled,
    staleTime: 60_000,
    queryFn: () => http.get<UserDashboards>(DASHBOARD_API.mine, quiet),
  });
}

export const useDashboard = (id: number, enabled = true) =>
  useQuery({
    queryKey: dashboardKeys.one(id),
    enabled: enabled && id > 0,
    retry: false,
    queryFn: () => takeDashboard(id),
  });

export const useFolders = () =>
  useQuery({
    queryKey: dashboardKeys.folders,
    queryFn: () => http.get<FolderList>(DASHBOARD_API.folders, { query: { limit: 100 }, ...quiet }),
  });

/** The groups a dashboard's audience is chosen from. */
export const useDashboardAudience = () =>
  useQuery({
    queryKey: dashboardKeys.audience,
    queryFn: () => http.get<DashboardAudience>(DASHBOARD_API.audience, quiet),
  });

export const useFolder = (id: number) =>
  useQuery({
    queryKey: dashboardKeys.folder(id),
    enabled: id > 0,
    retry: false,
    queryFn: () => http.get<FolderDetail>(DASHBOARD_API.folder(id), quiet),
  });

export const useComponents = (query: Query) =>
  useQuery({
    queryKey: dashboardKeys.components(query),
    placeholderData: keepPreviousData,
    queryFn: () => http.get<ComponentList>(DASHBOARD_API.components, { query, ...quiet }),
  });

export const useComponent = (id: number, enabled = true) =>
  useQuery({
    queryKey: dashboardKeys.component(id),
    enabled: enabled && id > 0,
    retry: false,
    queryFn: () => http.get<DashboardComponent>(DASHBOARD_API.component(id), quiet),
  });

export const useVersions = (id: number, page: number, enabled: boolean) =>
  useQuery({
    queryKey: dashboardKeys.versions(id, page),
    enabled: enabled && id > 0,
    queryFn: () => http.get<VersionList>(DASHBOARD_API.versions(id), { query: { page, limit: 20 }, ...quiet }),
  });

function useDashboardMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: dashboardKeys.all, predicate: (q) => q.queryKey[1] !== 'widget' }),
  });
}

export const useSaveDashboard = (id: number | null) =>
  useDashboardMutation((input: DashboardInput) =>
    id === null
      ? http.post<DashboardDetail>(DASHBOARD_API.dashboards, input, quiet)
      : http.put<DashboardDetail>(DASHBOARD_API.dashboard(id), input, quiet),
  );
export const useDeleteDashboard = () => useDashboardMutation((id: number) => http.del<null>(DASHBOARD_API.dashboard(id), quiet));
export const useMoveDashboard = () =>
  useDashboardMutation(({ id, ...input }: MoveInput & { id: number }) => http.post<unknown>(DASHBOARD_API.move(id), input, quiet));
export const useReorder = () => useDashboardMutation((input: ReorderInput) => http.post<unknown>(DASHBOARD_API.reorder, input, quiet));
export const useSaveFolder = (id: number | null) =>
  useDashboardMutation((input: FolderInput) =>
    id === null
      ? http.post<DashboardFolder>(DASHBOARD_API.folders, input, quiet)
      : http.put<DashboardFolder>(DASHBOARD_API.folder(id), input, quiet),
  );
export const useDeleteFolder = () => useDashboardMutation((id: number) => http.del<null>(DASHBOARD_API.folder(id), quiet));
export const useMoveFolder = () =>
  useDashboardMutation(({ id, ...input }: MoveInput & { id: number }) => http.post<unknown>(DASHBOARD_API.moveFolder(id), input, quiet));
export const useSaveComponent = (id: number | null) =>
  useDashboardMutation((input: ComponentInput) =>
    id === null
      ? http.post<DashboardComponent>(DASHBOARD_API.components, input, quiet)
      : http.put<DashboardComponent>(DASHBOARD_API.component(id), input, quiet),
  );
export const useDeleteComponent = () => useDashboardMutation((id: number) => http.del<null>(DASHBOARD_API.component(id), quiet));
export const useRestoreVersion = (id: number) =>
  useDashboardMutation((version: number) => http.post<DashboardDetail>(DASHBOARD_API.restore(id, version), undefined, quiet));

/* shared analytics links */

export const useLinks = (query: Query) =>
  useQuery({
    queryKey: dashboardKeys.links(query),
    placeholderData: keepPreviousData,
    queryFn: () => http.get<AnalyticsLinkList>(DASHBOARD_API.links, { query, ...quiet }),
  });
export const useAnalyticsReport = () =>
  useQuery({ queryKey: dashboardKeys.report, queryFn: () => http.get<AnalyticsReport>(DASHBOARD_API.report, quiet) });
export const useCreateLink = () =>
  useDashboardMutation((input: AnalyticsLinkInput) => http.post<AnalyticsLink>(DASHBOARD_API.links, input, quiet));
export const useRevokeLink = () =>
  useDashboardMutation((id: string) => http.post<AnalyticsLink>(DASHBOARD_API.revoke(id), undefined, quiet));

/** Public: a shared link's dashboard (no session). */
export const useSharedDashboard = (dashboardId: number, token: string) =>
  useQuery({
    queryKey: dashboardKeys.shared(dashboardId, token),
    retry: false,
    queryFn: () => http.post<LinkView>(DASHBOARD_API.sharedOpen, { dashboardId, token }, quiet),
  });

/* widget data */

/** Where a widget's data comes from: a saved widget of a dashboard, an unsaved definition, or a shared link. */
export type WidgetSource =
  | { kind: 'saved'; dashboardId: number; widgetId: string }
  | { kind: 'draft'; widget: Widget }
  | { kind: 'shared'; dashboardId: number; token: string; widgetId: string };

const sourceKey = (source: WidgetSource) =>
  source.kind === 'draft' ? `draft:${JSON.stringify(source.widget)}` : `${source.kind}:${source.dashboardId}:${source.widgetId}`;

export function fetchWidgetData(source: WidgetSource, range: RangeOverride | null, signal?: AbortSignal) {
  if (source.kind === 'shared') {
    const { dashboardId, token, widgetId } = source;
    return http.post<WidgetDataResponse>(DASHBOARD_API.sharedWidget, { dashboardId, token, widgetId, range }, { ...quiet, signal });
  }
  const body =
    source.kind === 'saved' ? { dashboardId: source.dashboardId, widgetId: source.widgetId, range } : { widget: source.widget, range };
  const ask = () => http.post<WidgetDataResponse>(DASHBOARD_API.widgetData, body, { ...quiet, signal });
  const early = source.kind === 'saved' && range === null ? takeWidgetData(source.dashboardId, source.widgetId) : null;
  if (early) return early.then((answer) => answer ?? ask());
  return ask();
}

/** One widget's answer; nothing is fetched until `enabled` (the widget has come into view). */
export const useWidgetData = (
  kind: WidgetKind,
  source: WidgetSource,
  range: RangeOverride | null,
  enabled: boolean,
  refetchInterval: number | false = false,
) =>
  useQuery({
    queryKey: dashboardKeys.widget(kind, sourceKey(source), range),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval,
    queryFn: ({ signal }) => fetchWidgetData(source, range, signal),
  });
