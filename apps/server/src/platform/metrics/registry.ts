import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The one Prometheus registry of a server process. Hot paths get small typed hooks (an HTTP request finished, a
 * query ran, a job settled, a push event was fanned out); everything that is state already held somewhere
 * (buffer depth, sockets, recorder processes) is read by a sampler at scrape time, so that a module keeps no
 * prom-client object and pays nothing between scrapes.
 */

const PREFIX = 'sitewatch_';
/** Request and query latencies: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type Sampler = () => void | Promise<void>;

export interface GaugeSet {
  set(labels: Record<string, string>, value: number): void;
  reset(): void;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: PREFIX, eventLoopMonitoringPrecision: 20 });
  const samplers: Sampler[] = [];

  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name: PREFIX + name, help, labelNames, registers: [registry] });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name: PREFIX + name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets = LATENCY_BUCKETS) =>
    new Histogram<L>({ name: PREFIX + name, help, labelNames, buckets, registers: [registry] });

  const httpRequests = counter('http_requests_total', 'HTTP requests by method, route pattern and status', ['method', 'route', 'status']);
  const httpDuration = histogram('http_request_duration_seconds', 'HTTP request latency by method and route pattern', ['method', 'route']);
  const dbQueries = histogram('db_query_duration_seconds', 'Database query latency (the main pool)', ['outcome']);
  const queryOk = dbQueries.labels({ outcome: 'ok' });
  const queryError = dbQueries.labels({ outcome: 'error' });
  const httpChildren = new Map<string, { count: { inc(): void }; duration: { observe(value: number): void } }>();
  const jobRuns = counter('job_runs_total', 'Background job attempts by queue and outcome (completed, retry, failed, cancelled)', [
    'queue',
    'outcome',
  ]);
  const jobDuration = histogram(
    'job_duration_seconds',
    'Background job attempt duration by queue',
    ['queue'],
    [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
  );
  const exportBytes = counter('export_bytes_total', 'Bytes written by finished exports');
  const pushFanout = histogram(
    'push_fanout_duration_seconds',
    'Time to deliver one domain event to the local sockets and queue it for other processes',
  );

  return {
    registry,
    counter,
    gauge,
    histogram,
    /** A gauge family whose values are replaced at each scrape by a sampler. */
    gaugeSet<L extends string>(name: string, help: string, labelNames: readonly L[]): GaugeSet {
      const g = gauge(name, help, labelNames);
      return { set: (labels, value) => g.set(labels as Partial<Record<L, string>>, value), reset: () => g.reset() };
    },
    /** Runs before each scrape; a failing sampler is skipped, the scrape goes on. */
    sample(fn: Sampler) {
      samplers.push(fn);
    },
    http(method: string, route: string, status: number, seconds: number) {
      // Label-bound children are kept: hashing the label set on every request costs more than the observation.
      const key = `${method} ${route} ${status}`;
      let child = httpChildren.get(key);
      if (!child) {
        child = { count: httpRequests.labels({ method, route, status: String(status) }), duration: httpDuration.labels({ method, route }) };
        httpChildren.set(key, child);
      }
      child.count.inc();
      child.duration.observe(seconds);
    },
    query(seconds: number, ok: boolean) {
      (ok ? queryOk : queryError).observe(seconds);
    },
    job(queue: string, outcome: 'completed' | 'retry' | 'failed' | 'cancelled', seconds: number) {
      jobRuns.inc({ queue, outcome });
      jobDuration.observe({ queue }, seconds);
    },
    exported(bytes: number) {
      exportBytes.inc(bytes);
    },
    fannedOut(seconds: number) {
      pushFanout.observe(seconds);
    },
    /** The exposition text (samplers run first). */
    async scrape(): Promise<string> {
      await Promise.all(samplers.map(async (fn) => fn()).map((p) => p.catch(() => undefined)));
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * A counter that mirrors a running total kept elsewhere (e.g. the ingest pipeline's own counts): each scrape adds
 * what grew since the last one, so the series stays a proper monotonic counter.
 */
export function mirrorCounter<L extends string>(metrics: Metrics, name: string, help: string, labelNames: readonly L[] = []) {
  const c = metrics.counter(name, help, labelNames);
  const seen = new Map<string, number>();
  return (labels: Record<L, string>, total: number) => {
    const key = JSON.stringify(labels);
    const before = seen.get(key) ?? 0;
    if (total > before) c.inc(labels as Partial<Record<L, string>>, total - before);
    else if (before === 0) c.inc(labels as Partial<Record<L, string>>, 0);
    seen.set(key, Math.max(before, total));
  };
}
