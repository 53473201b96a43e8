import { INGEST_REJECT_REASONS } from '@sitewatch/contracts';
import { EXPORT_QUEUE } from './modules/downloads/runner.ts';
import type { TelemetryPort } from './modules/telemetry/index.ts';
import type { VideoPort } from './modules/video/index.ts';
import type { DbHandle } from './platform/db.ts';
import { queueDepths } from './platform/jobs/queue.ts';
import type { JobWorker } from './platform/jobs/worker.ts';
import type { Metrics } from './platform/metrics/index.ts';
import { mirrorCounter } from './platform/metrics/registry.ts';
import type { PushPort } from './platform/push/index.ts';

/**
 * Connects the registry to what the server already runs: per-event hooks where a duration must be observed
 * (queries, jobs, push fan-out), and samplers that read counts and state at scrape time (ingest, MQTT, sockets,
 * recorder, pool). Called once, after the domain modules registered.
 */
export function connectMetricSources(
  metrics: Metrics,
  deps: { database: DbHandle; jobs: JobWorker; push: PushPort; telemetry: TelemetryPort; recorder: VideoPort['recorder'] },
) {
  const { database, jobs } = deps;

  // Database: query latency (main pool) and pool use.
  database.onQuery((seconds, ok) => metrics.query(seconds, ok));
  const pool = metrics.gaugeSet('db_pool_connections', 'Connections of the main database pool by state (total, idle, waiting callers)', [
    'state',
  ]);
  metrics.sample(() => {
    const stats = database.poolStats();
    pool.set({ state: 'total' }, stats.total);
    pool.set({ state: 'idle' }, stats.idle);
    pool.set({ state: 'waiting' }, stats.waiting);
  });

  // Jobs: attempts by outcome come from the worker; depth per queue is read from the jobs table.
  jobs.observe((queue, outcome, seconds, result) => {
    metrics.job(queue, outcome, seconds);
    if (queue === EXPORT_QUEUE && outcome === 'completed' && typeof result?.size === 'number') metrics.exported(result.size);
  });
  const depth = metrics.gaugeSet('job_queue_depth', 'Background jobs per queue that wait (queued) or run (running), all processes', [
    'queue',
    'state',
  ]);
  metrics.sample(async () => {
    const rows = await queueDepths(database.db);
    depth.reset();
    for (const row of rows) depth.set({ queue: row.queue, state: row.status }, row.count);
  });

  // Push: sockets held by this process and fan-out latency.
  const push = deps.push;
  push.fanout.observe((seconds) => metrics.fannedOut(seconds));
  const sockets = metrics.gauge('push_sockets', 'Open push WebSockets in this process');
  metrics.sample(() => sockets.set(push.hub.size));

  // Ingest and MQTT (the pipeline keeps running totals; these mirror them).
  const accepted = mirrorCounter(metrics, 'ingest_accepted_total', 'Device messages accepted into the ingest buffer');
  const stored = mirrorCounter(metrics, 'ingest_stored_total', 'Device messages written to the database');
  const refused = mirrorCounter(metrics, 'ingest_refused_total', 'Device messages refused, by reason', ['reason']);
  const flushes = mirrorCounter(metrics, 'ingest_flushes_total', 'Ingest batches written');
  const flushSeconds = mirrorCounter(
    metrics,
    'ingest_flush_seconds_total',
    'Time spent writing ingest batches (divide by flushes for the mean)',
  );
  const flushDuration = metrics.histogram('ingest_flush_duration_seconds', 'Write time of each committed ingest batch');
  deps.telemetry.ingest.buffer.observeFlush((seconds) => flushDuration.observe(seconds));
  const bufferDepth = metrics.gauge('ingest_buffer_depth', 'Device messages held in the ingest buffer');
  const bufferCapacity = metrics.gauge('ingest_buffer_capacity', 'Capacity of the ingest buffer');
  const lastFlush = metrics.gauge('ingest_last_flush_seconds', 'Duration of the latest ingest batch write');
  const mqttConnections = metrics.gauge('mqtt_connections', 'Devices connected to the embedded MQTT broker');
  const rateLimited = mirrorCounter(
    metrics,
    'device_rate_limited_total',
    'Device messages dropped by the rate limits, by transport (mqtt, http) and the limit broken (device, tenant)',
    ['transport', 'scope'],
  );
  const floodDisconnects = mirrorCounter(
    metrics,
    'device_rate_limit_disconnects_total',
    'MQTT connections closed because their device kept on flooding past its rate limits',
  );
  const mqttExternal = metrics.gauge(
    'mqtt_external_connected',
    'Connected to the external broker of MQTT_URL (1), not connected (0), not used (-1)',
  );
  metrics.sample(() => {
    const telemetry = deps.telemetry;
    const stats = telemetry.ingest.stats();
    const buffer = telemetry.ingest.buffer.stats();
    accepted({}, stats.accepted);
    stored({}, stats.stored);
    for (const reason of INGEST_REJECT_REASONS) refused({ reason }, stats.rejected[reason] ?? 0);
    flushes({}, buffer.flushes);
    flushSeconds({}, buffer.flushMsTotal / 1000);
    bufferDepth.set(buffer.buffered);
    bufferCapacity.set(buffer.capacity);
    lastFlush.set((buffer.lastFlushMs ?? 0) / 1000);
    mqttConnections.set(telemetry.runtime.broker?.clients().length ?? 0);
    const limited = telemetry.ingest.limiter.stats();
    for (const transport of ['mqtt', 'http'] as const) {
      rateLimited({ transport, scope: 'device' }, limited[transport].device);
      rateLimited({ transport, scope: 'tenant' }, limited[transport].tenant);
    }
    floodDisconnects({}, limited.disconnects);
    const external = telemetry.runtime.externalConnected;
    mqttExternal.set(external === null ? -1 : external ? 1 : 0);
  });

  // Recorder: ffmpeg processes of this process and how far the segment index is behind now. Cameras are counted per
  // lag band and the worst lag is one series: a label per camera (or tenant) would grow with every camera added.
  const processes = metrics.gauge('recorder_processes', 'Camera recorder (ffmpeg) processes running');
  const cameras = metrics.gauge('recorder_cameras', 'Cameras the recorder supervises (running or restarting)');
  const worstLag = metrics.gauge('recorder_segment_lag_max_seconds', 'Seconds since the end of the newest indexed segment, worst camera');
  const byLag = metrics.gaugeSet('recorder_cameras_by_lag', 'Cameras by seconds since their newest indexed segment (lag band)', ['lag']);
  metrics.sample(() => {
    const list = deps.recorder.cameras();
    const now = Date.now();
    processes.set(list.filter((c) => c.running).length);
    cameras.set(list.length);
    const bands = new Map(LAG_BANDS.map((b) => [b.label, 0]));
    let worst = 0;
    for (const c of list) {
      const lag = (now - (c.lastSegmentEnd ?? c.startedAt)) / 1000;
      worst = Math.max(worst, lag);
      const band = LAG_BANDS.find((b) => lag < b.below) ?? LAG_BANDS[LAG_BANDS.length - 1];
      if (band) bands.set(band.label, (bands.get(band.label) ?? 0) + 1);
    }
    worstLag.set(worst);
    for (const [lag, count] of bands) byLag.set({ lag }, count);
  });
}

/** The lag bands of `recorder_cameras_by_lag`: a fixed set of label values. */
export const LAG_BANDS = [
  { label: 'under_10s', below: 10 },
  { label: '10s_to_60s', below: 60 },
  { label: '60s_to_5m', below: 300 },
  { label: 'over_5m', below: Number.POSITIVE_INFINITY },
] as const;
