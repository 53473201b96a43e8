import type { DashboardDetail, WidgetDataResponse } from '@sitewatch/contracts/dashboards';
import { http } from '../../lib/http.ts';

/**
 * The dashboard's definition, asked for on navigation beside the loading of the page's code (the route's prefetch,
 * which runs from the main bundle: this file imports only types and the http client). The page takes it once.
 */
const pending = new Map<number, { promise: Promise<DashboardDetail>; at: number }>();
const KEEP_MS = 10_000;

export const dashboardPath = (id: number) => `/iotapp/dashboards/${id}/`;

export const WIDGET_DATA_PATH = '/iotapp/dashboards/widget-data/';
/** Rows of the wide grid a first screen shows (40 px rows): their widgets' data is asked for with the definition. */
const FIRST_SCREEN_ROWS = 18;
const widgetPending = new Map<string, { promise: Promise<WidgetDataResponse>; at: number }>();

export function prefetchDashboard(url: URL): void {
  const id = Number(/^\/dashboards\/(\d+)\/view\/?$/.exec(url.pathname)?.[1]);
  if (!Number.isInteger(id) || id <= 0 || pending.has(id)) return;
  const promise = http.get<DashboardDetail>(dashboardPath(id), { toast: false });
  pending.set(id, { promise, at: Date.now() });
  promise.then(
    (d) => {
      if (d.layouts.src || typeof window === 'undefined' || window.innerWidth < 600) return;
      const top = new Set(d.layouts.lg.filter((item) => item.y < FIRST_SCREEN_ROWS).map((item) => item.i));
      for (const w of d.widgets) {
        if (!top.has(w.id) || w.kind === 'camera') continue;
        const answer = http.post<WidgetDataResponse>(WIDGET_DATA_PATH, { dashboardId: id, widgetId: w.id, range: null }, { toast: false });
        answer.catch(() => undefined);
        widgetPending.set(`${id}:${w.id}`, { promise: answer, at: Date.now() });
      }
    },
    () => pending.delete(id),
  );
}

/** A saved widget's live answer asked for on navigation (once, within a few seconds), or null. */
export function takeWidgetData(dashboardId: number, widgetId: string): Promise<WidgetDataResponse> | null {
  const key = `${dashboardId}:${widgetId}`;
  const running = widgetPending.get(key);
  widgetPending.delete(key);
  return running && Date.now() - running.at < KEEP_MS ? running.promise : null;
}

/** The page's fetch: a prefetched answer of the last few seconds once, else a new request. */
export function takeDashboard(id: number): Promise<DashboardDetail> {
  const running = pending.get(id);
  pending.delete(id);
  if (running && Date.now() - running.at < KEEP_MS) return running.promise;
  return http.get<DashboardDetail>(dashboardPath(id), { toast: false });
}
