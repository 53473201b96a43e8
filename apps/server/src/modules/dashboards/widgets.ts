import {
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  type RangeOverride,
  type Widget,
  type WidgetData,
  type WidgetDataResponse,
} from '@sitewatch/contracts';
import { forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { DataScope } from './scope.ts';
import type { DashboardSources, Range } from './sources.ts';

/** The permission a widget's data needs (of the viewer, or of a link's creator). */
const PERMISSION: Record<Exclude<Widget['kind'], 'component'>, string> = {
  timeseries: 'view_device',
  latest: 'view_device',
  siteSummary: 'view_device',
  siteMap: 'view_device',
  alarmList: 'view_device',
  ticketCounters: 'view_ticket',
  ticketList: 'view_ticket',
  camera: 'view_camera',
  formResponses: 'view_form_response',
};

export const FORM_WIDGET_SCOPED = 'Form responses are not available in a view limited to some sites';

export interface WidgetRunnerDeps {
  sources: DashboardSources;
  now(): number;
  /** The tenant's component (a placed reusable widget), or null. */
  component(tenantId: number, id: number): Promise<Widget | null>;
}

const unavailable = (reason: string): WidgetData => ({ kind: 'unavailable', reason });

/** Runs one widget's query within a scope: every answer bounded (points per series, rows per table). */
export function createWidgetRunner(deps: WidgetRunnerDeps) {
  const { sources } = deps;

  const toRange = (r: RangeOverride): Range => ({ start: new Date(r.startTs), end: new Date(r.endTs) });

  async function run(scope: DataScope, widget: Widget, override: RangeOverride | null): Promise<WidgetData> {
    if (widget.kind === 'component') throw new HttpError(400, DASHBOARD_MESSAGES.componentNested);
    if (!scope.permissions.has(PERMISSION[widget.kind])) {
      // a shared dashboard opened by someone whose role lacks this data: a plain note, not an error to retry
      if (!scope.viaLink) return unavailable(DASHBOARD_MESSAGES.notForYou);
      throw forbidden();
    }
    // what a scoped viewer cannot find is at a site outside theirs (or gone, which they may not tell apart)
    const outside = (message: string) => {
      if (scope.sites === 'all' || scope.viaLink)
        throw notFound(
          message === DASHBOARD_MESSAGES.outsideYourSites ? DASHBOARD_MESSAGES.deviceUnknown : DASHBOARD_MESSAGES.cameraUnknown,
        );
      return unavailable(message);
    };
    switch (widget.kind) {
      case 'timeseries': {
        const now = deps.now();
        const range = override
          ? toRange(override)
          : widget.range.kind === 'relative'
            ? { start: new Date(now - widget.range.lastMs), end: new Date(now) }
            : { start: new Date(widget.range.startTs), end: new Date(widget.range.endTs) };
        const spanSec = Math.max(1, Math.ceil((range.end.getTime() - range.start.getTime()) / 1000));
        const interval =
          widget.agg === 'none' ? null : Math.max(widget.interval ?? 1, Math.ceil(spanSec / DASHBOARD_LIMITS.pointsPerSeries));
        const series = [];
        for (const deviceId of widget.deviceIds) {
          // a device outside the scope is left out (a shared link over one customer's sites shows their series only)
          const device = await sources.device(scope, deviceId);
          if (!device) continue;
          for (const key of widget.keys) {
            const s = await sources.series(scope, deviceId, key, range, widget.agg, interval ?? 1);
            series.push({ deviceId, deviceLabel: device.label, siteName: device.site_name, key, ...s });
          }
        }
        if (series.length === 0) return outside(DASHBOARD_MESSAGES.outsideYourSites);
        return { kind: 'timeseries', startTs: range.start.getTime(), endTs: range.end.getTime(), agg: widget.agg, interval, series };
      }
      case 'latest': {
        const device = await sources.device(scope, widget.deviceId);
        if (!device) return outside(DASHBOARD_MESSAGES.outsideYourSites);
        const value = widget.key ? await sources.latest(scope, widget.deviceId, widget.key) : null;
        return {
          kind: 'latest',
          deviceId: device.id,
          deviceLabel: device.label,
          siteName: device.site_name,
          status: device.status,
          key: widget.key,
          value: value?.value ?? null,
          ts: value?.ts ?? null,
        };
      }
      case 'siteSummary':
        return { kind: 'siteSummary', ...(await sources.siteSummary(scope, widget.siteIds, widget.deviceTypes)) };
      case 'alarmList':
        return { kind: 'alarmList', ...(await sources.alarms(scope, widget, override ? toRange(override) : null)) };
      case 'ticketCounters':
        return { kind: 'ticketCounters', ...(await sources.ticketCounters(scope, widget, override ? toRange(override) : null)) };
      case 'ticketList':
        return { kind: 'ticketList', ...(await sources.ticketList(scope, widget, override ? toRange(override) : null)) };
      case 'siteMap':
        return { kind: 'siteMap', ...(await sources.siteMap(scope, widget.siteIds)) };
      case 'camera': {
        const camera = await sources.camera(scope, widget.cameraId);
        if (!camera) return outside(DASHBOARD_MESSAGES.cameraOutsideYourSites);
        return {
          kind: 'camera',
          cameraId: camera.device_id,
          name: camera.name,
          siteId: camera.asset_id,
          siteName: camera.site_name,
          playbackAt: override ? override.startTs : null,
        };
      }
      case 'formResponses': {
        // responses carry no site: only a scope that sees every site, without conditions, may count them
        if (scope.sites !== 'all' || scope.filters.size > 0) {
          if (!scope.viaLink) return unavailable(FORM_WIDGET_SCOPED);
          throw new HttpError(403, FORM_WIDGET_SCOPED);
        }
        const now = deps.now();
        const range = override ? toRange(override) : { start: new Date(now - widget.days * 86_400_000), end: new Date(now) };
        const data = await sources.formResponses(scope.tenantId, widget.formId, range);
        if (!data) throw notFound(DASHBOARD_MESSAGES.formUnknown);
        return { kind: 'formResponses', ...data };
      }
    }
  }

  return {
    async run(scope: DataScope, widget: Widget, override: RangeOverride | null): Promise<WidgetDataResponse> {
      if (widget.kind === 'component') {
        const inner = await deps.component(scope.tenantId, widget.componentId);
        if (!inner || inner.kind === 'component') throw notFound(DASHBOARD_MESSAGES.componentNotFound);
        return { widgetId: widget.id, componentId: widget.componentId, data: await run(scope, inner, override) };
      }
      return { widgetId: widget.id, componentId: null, data: await run(scope, widget, override) };
    },
  };
}
export type WidgetRunner = ReturnType<typeof createWidgetRunner>;
