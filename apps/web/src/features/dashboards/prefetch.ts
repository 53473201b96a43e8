import type { DashboardDetail, WidgetDataBatch, WidgetDataResponse } from '@sitewatch/contracts/dashboards';
import { http } from '../../lib/http.ts';

/**
 * The dashboard's definition, asked for on navigation beside the loading of the page's code (the route's prefetch,
 * which runs from the main bundle: this file imports only types and the http client). The page takes it once.
 */
const pending = new Map<number, { promise: Promise<DashboardDetail>; at: number }>();
const KEEP_MS = 10_000;

export const dashboardPath = (id: number) => `/iotapp/dashboards/${id}/`;

/**
 * The first screen's widgets in a few requests of a few widgets each: a browser opens 6 connections to a host and a
 * screen shows 12 or more widgets (one request each would queue half of them), while one request for all would
 * wait for the slowest widget before any is drawn.
 */
export const WIDGET_BATCH_PATH = '/iotapp/dashboards/widget-data/batch/';
const BATCH_SIZE = 4;
const BATCH_MAX = 24;
/** Rows of the wide grid a first screen shows (40 px rows): their widgets' data is asked for with the definition. */
const FIRST_SCREEN_ROWS = 18;
const widgetPending = new Map<string, { promise: Promise<WidgetDataResponse | null>; at: number }>();

export function prefetchDashboard(url: URL): void {
  const id = Number(/^\/dashboards\/(\d+)\/view\/?$/.exec(url.pathname)?.[1]);
  if (!Number.isInteger(id) || id <= 0 || pending.has(id)) return;
  const promise = http.get<DashboardDetail>(dashboardPath(id), { toast: false });
  pending.set(id, { promise, at: Date.now() });
  promise.then(
    (d) => {
      if (d.layouts.src || typeof window === 'undefined' || window.innerWidth < 600) return;
      const top = new Set(d.layouts.lg.filter((item) => item.y < FIRST_SCREEN_ROWS).map((item) => item.i));
      const ids = d.widgets
        .filter((w) => top.has(w.id) && w.kind !== 'camera')
        .map((w) => w.id)
        .slice(0, BATCH_MAX);
      const at = Date.now();
      for (let i = 0; i < ids.length; i += BATCH_SIZE) {
        const part = ids.slice(i, i + BATCH_SIZE);
        const batch = http.post<WidgetDataBatch>(WIDGET_BATCH_PATH, { dashboardId: id, widgetIds: part }, { toast: false });
        for (const widgetId of part) {
          // no answer (or a failed batch): the widget asks on its own, and shows that answer's message
          const answer = batch.then(
            (b) => b.contents.find((c) => c.widgetId === widgetId)?.answer ?? null,
            () => null,
          );
          widgetPending.set(`${id}:${widgetId}`, { promise: answer, at });
        }
      }
    },
    () => pending.delete(id),
  );
}

/** A saved widget's answer asked for on navigation (once, within a few seconds; it may be null), or null. */
export function takeWidgetData(dashboardId: number, widgetId: string): Promise<WidgetDataResponse | null> | null {
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
