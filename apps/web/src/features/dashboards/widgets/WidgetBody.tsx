import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { DashboardComponent, RangeOverride, Widget, WidgetDataResponse } from '@sitewatch/contracts/dashboards';
import type { RealtimeEnvelope } from '@sitewatch/contracts/event-map';
import type { DeviceValuesPayload } from '@sitewatch/contracts/events';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { detailOf, isHttpError } from '../../../lib/http.ts';
import { useRealtimeHandler, useWatchDevices } from '../../../lib/realtime.ts';
import { useComponent, useWidgetData, type WidgetSource } from '../api.ts';
import { dashboardKeys } from '../keys.ts';
import { type TimeRange, useRangeStore, useSelectedRange } from '../range-sync.ts';
import { CameraWidget, SharedCameraTile } from './CameraWidget.tsx';
import {
  AlarmListView,
  Centered,
  FormResponsesView,
  LatestView,
  SiteSummaryView,
  TicketCountersView,
  TicketListView,
} from './DataViews.tsx';
import { MapView } from './MapView.tsx';
import { appendPoints } from './series-data.ts';
import { TimeSeriesChart } from './TimeSeriesChart.tsx';

/** Kinds whose answer follows a range chosen on a chart of the dashboard. */
const RANGED = new Set(['ticketCounters', 'ticketList']);

/** The widget a component widget stands for (its own definition otherwise). */
export function resolveWidget(widget: Widget, components: readonly DashboardComponent[]): Widget | null {
  if (widget.kind !== 'component') return widget;
  return components.find((c) => c.id === widget.componentId)?.widget ?? null;
}

/**
 * One widget's content: fetched through the widget data query once `visible`, kept live by pushed events (values
 * patched in, other kinds made stale by the realtime registrations of api.ts), with its loading, empty and error
 * states. Camera tiles need no data query: they play live or the range chosen on a chart.
 */
export function WidgetBody({
  widget,
  components,
  source,
  visible,
  refetchInterval = false,
}: {
  widget: Widget;
  components: readonly DashboardComponent[];
  source: WidgetSource;
  visible: boolean;
  refetchInterval?: number | false;
}) {
  const target = resolveWidget(widget, components);
  if (!target && widget.kind === 'component' && source.kind !== 'shared') {
    return (
      <ComponentWidget
        componentId={widget.componentId}
        title={widget.title}
        source={source}
        visible={visible}
        refetchInterval={refetchInterval}
      />
    );
  }
  if (!target) return <Alert severity="warning">The component of this widget was removed</Alert>;
  if (target.kind === 'camera' && source.kind !== 'shared') {
    return visible ? <CameraWidget cameraId={target.cameraId} title={widget.title} /> : null;
  }
  return <FetchedWidget widget={target} source={source} visible={visible} refetchInterval={refetchInterval} />;
}

/** A component placed in the editor since the dashboard was loaded: its definition is fetched first. */
function ComponentWidget({
  componentId,
  title,
  source,
  visible,
  refetchInterval,
}: {
  componentId: number;
  title: string;
  source: WidgetSource;
  visible: boolean;
  refetchInterval: number | false;
}) {
  const component = useComponent(componentId, visible);
  if (component.isError) return <Alert severity="warning">The component of this widget was removed</Alert>;
  if (!component.data) return <Skeleton variant="rounded" height="100%" data-testid="widget-loading" />;
  const placed: Widget = { kind: 'component', id: source.kind === 'draft' ? source.widget.id : 'component', title, componentId };
  return <WidgetBody widget={placed} components={[component.data]} source={source} visible={visible} refetchInterval={refetchInterval} />;
}

function FetchedWidget({
  widget,
  source,
  visible,
  refetchInterval,
}: {
  widget: Widget;
  source: WidgetSource;
  visible: boolean;
  refetchInterval: number | false;
}) {
  const selected = useSelectedRange();
  const range: RangeOverride | null = selected && RANGED.has(widget.kind) ? { startTs: selected.from, endTs: selected.to } : null;
  const query = useWidgetData(widget.kind, source, range, visible, refetchInterval);
  const deviceIds = widget.kind === 'timeseries' ? widget.deviceIds : widget.kind === 'latest' ? [widget.deviceId] : [];
  useLivePatch(widget, source, range, visible ? deviceIds : []);

  if (!visible || (query.isPending && !query.data)) return <Skeleton variant="rounded" height="100%" data-testid="widget-loading" />;
  if (query.isError && !query.data) {
    const message = isHttpError(query.error)
      ? (detailOf(query.error.data) ?? 'The data could not be loaded')
      : 'The data could not be loaded';
    return (
      <Centered testId="widget-error">
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              Retry
            </Button>
          }
        >
          {message}
        </Alert>
      </Centered>
    );
  }
  return query.data ? <WidgetDataView widget={widget} answer={query.data} source={source} /> : null;
}

/** Pushed device values go straight into the cached answer of a latest-value or raw time-series widget. */
function useLivePatch(widget: Widget, source: WidgetSource, range: RangeOverride | null, deviceIds: number[]) {
  const client = useQueryClient();
  useWatchDevices(deviceIds);
  const keySource =
    source.kind === 'draft' ? `draft:${JSON.stringify(source.widget)}` : `${source.kind}:${source.dashboardId}:${source.widgetId}`;
  const handler = useCallback(
    (envelope: RealtimeEnvelope<'device.values'>) => {
      const data = envelope.data as DeviceValuesPayload | undefined;
      if (!data || !Array.isArray(data.values)) return;
      const key = dashboardKeys.widget(widget.kind, keySource, range);
      client.setQueryData<WidgetDataResponse>(key, (old) => (old ? patchAnswer(old, data) : old));
    },
    [client, widget.kind, keySource, range],
  );
  useRealtimeHandler('device.values', handler);
}

export function patchAnswer(answer: WidgetDataResponse, pushed: DeviceValuesPayload): WidgetDataResponse {
  const data = answer.data;
  if (data.kind === 'latest') {
    if (data.deviceId !== pushed.deviceId || !data.key) return answer;
    const fresh = pushed.values.filter((v) => v.key === data.key).sort((a, b) => b.ts - a.ts)[0];
    if (!fresh || (data.ts !== null && fresh.ts <= data.ts)) return answer;
    const value = typeof fresh.value === 'boolean' ? Number(fresh.value) : fresh.value;
    return { ...answer, data: { ...data, value, ts: fresh.ts, status: 'Online' } };
  }
  if (data.kind === 'timeseries' && data.agg === 'none') {
    let changed = false;
    const series = data.series.map((s) => {
      if (s.deviceId !== pushed.deviceId || s.truncated) return s;
      const fresh = pushed.values.flatMap((v) =>
        v.key === s.key && (typeof v.value === 'number' || typeof v.value === 'boolean') ? [{ ts: v.ts, value: Number(v.value) }] : [],
      );
      if (fresh.length === 0) return s;
      const points = appendPoints(
        s.points as Array<{ ts: number; value: number | null }>,
        fresh,
        Math.max(s.points.length, 1000) + fresh.length,
      );
      if (points === s.points) return s;
      changed = true;
      return { ...s, points };
    });
    if (!changed) return answer;
    const last = Math.max(data.endTs, ...pushed.values.map((v) => v.ts));
    return { ...answer, data: { ...data, series, endTs: last } };
  }
  return answer;
}

function WidgetDataView({ widget, answer, source }: { widget: Widget; answer: WidgetDataResponse; source: WidgetSource }) {
  const data = answer.data;
  switch (data.kind) {
    case 'timeseries':
      return <SeriesView data={data} multiDevice={widget.kind === 'timeseries' && widget.deviceIds.length > 1} />;
    case 'latest':
      return widget.kind === 'latest' ? (
        <LatestView data={data} display={widget.display} unit={widget.unit} min={widget.min} max={widget.max} />
      ) : (
        <LatestView data={data} display="value" unit="" min={null} max={null} />
      );
    case 'siteSummary':
      return <SiteSummaryView data={data} />;
    case 'alarmList':
      return <AlarmListView data={data} />;
    case 'ticketCounters':
      return <TicketCountersView data={data} />;
    case 'ticketList':
      return <TicketListView data={data} />;
    case 'siteMap':
      return <MapView data={data} />;
    case 'formResponses':
      return <FormResponsesView data={data} />;
    case 'unavailable':
      return (
        <Centered testId="widget-unavailable">
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', px: 1 }}>
            {data.reason}
          </Typography>
        </Centered>
      );
    case 'camera':
      return source.kind === 'shared' ? (
        <SharedCameraTile
          dashboardId={source.dashboardId}
          token={source.token}
          widgetId={source.widgetId}
          cameraId={data.cameraId}
          name={widget.title || data.name}
        />
      ) : (
        <Centered>{data.name}</Centered>
      );
  }
}

function SeriesView({ data, multiDevice }: { data: Extract<WidgetDataResponse['data'], { kind: 'timeseries' }>; multiDevice: boolean }) {
  const store = useRangeStore();
  const series = useMemo(
    () =>
      data.series.map((s) => ({
        label: multiDevice ? `${nameWithSite(s.deviceLabel, s.siteName)}: ${s.key}` : s.key,
        points: s.points.map((p) => ({ ts: p.ts, value: typeof p.value === 'number' ? p.value : null })),
      })),
    [data.series, multiDevice],
  );
  const handleSelect = useCallback((range: TimeRange | null) => store.select(range), [store]);
  if (series.every((s) => s.points.length === 0)) return <Centered testId="chart-empty">No data in this time range</Centered>;
  return (
    <TimeSeriesChart series={series} span={{ start: data.startTs, end: data.endTs }} onSelect={handleSelect} testId="timeseries-chart" />
  );
}
