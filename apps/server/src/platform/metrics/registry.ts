import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The one Prometheus registry of a server process. Hot paths get small typed hooks (an HTTP request finished, a
 * query ran, a job settled, a push event was fanned out); everything that is state already held somewhere
 * (buffer depth, sockets, recorder processes) is read by a sampler at scrape time, so that a module keeps no
 * prom-client object and pays nothing between scrapes.
 */

/** Product metrics carry this prefix; prom-client's default process and Node.js metrics keep their standard names. */
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
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const samplers: Sampler[] = [];

  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name: PREFIX + name, help, labelNames, registers: [registry] });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name: PREFIX + name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets = LATENCY_BUCKETS) =>
    new Histogram<L>({ name: PREFIX + name, help, labelNames, buckets, registers: [registry] });

  const http = createHttpStats();
  new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of http.series()) this.inc({ method: s.method, route: s.route, status: s.status }, s.count);
    },
  });
  // the registry only calls get()/getForPromString()/reset() of a family; this one is read from the plain stats
  registry.registerMetric(
    httpLatencyFamily(
      `${PREFIX}http_request_duration_seconds`,
      'HTTP request latency by method and route pattern',
      http,
    ) as unknown as Histogram,
  );
  const dbQueries = histogram('db_query_duration_seconds', 'Database query latency (the main pool)', ['outcome']);
  const queryOk = dbQueries.labels({ outcome: 'ok' });
  const queryError = dbQueries.labels({ outcome: 'error' });
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
    /** One answered HTTP request: a map lookup and a few additions, read by the two HTTP families at scrape. */
    http: http.observe,
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

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

interface HttpSeries {
  method: string;
  route: string;
  status: string;
  count: number;
  sum: number;
  /** Observations per bucket of LATENCY_BUCKETS (not cumulative); the last slot is above the largest bound. */
  buckets: Float64Array;
}

/**
 * Request counts and latencies kept as plain numbers per method, route and status. prom-client's label-bound
 * children still hash and validate their labels on every call, which at tens of thousands of requests a second
 * was most of what metrics cost; here a request costs one map lookup, a bucket search and three additions.
 */
function createHttpStats() {
  // route pattern -> (status, method) -> series: the route strings are the router's own, so no key is built per request
  const byRoute = new Map<string, Map<number, HttpSeries>>();
  const all: HttpSeries[] = [];
  return {
    observe(method: string, route: string, status: number, seconds: number) {
      let byStatus = byRoute.get(route);
      if (!byStatus) {
        byStatus = new Map();
        byRoute.set(route, byStatus);
      }
      const methodIndex = METHODS.indexOf(method);
      const key = status * 16 + (methodIndex < 0 ? 15 : methodIndex);
      let series = byStatus.get(key);
      if (!series) {
        series = {
          method: methodIndex < 0 ? 'OTHER' : method,
          route,
          status: String(status),
          count: 0,
          sum: 0,
          buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
        };
        byStatus.set(key, series);
        all.push(series);
      }
      let i = 0;
      while (i < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[i] as number)) i++;
      series.buckets[i] = (series.buckets[i] as number) + 1;
      series.count++;
      series.sum += seconds;
    },
    series: (): readonly HttpSeries[] => all,
  };
}

/** The latency histogram family by method and route, summed over statuses from the plain HTTP stats at scrape. */
function httpLatencyFamily(name: string, help: string, stats: ReturnType<typeof createHttpStats>) {
  const read = async () => {
    const merged = new Map<string, { method: string; route: string; count: number; sum: number; buckets: Float64Array }>();
    for (const s of stats.series()) {
      const key = `${s.method} ${s.route}`;
      let m = merged.get(key);
      if (!m) {
        m = { method: s.method, route: s.route, count: 0, sum: 0, buckets: new Float64Array(LATENCY_BUCKETS.length + 1) };
        merged.set(key, m);
      }
      m.count += s.count;
      m.sum += s.sum;
      for (let i = 0; i < s.buckets.length; i++) m.buckets[i] = (m.buckets[i] as number) + (s.buckets[i] as number);
    }
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
    for (const m of merged.values()) {
      const labels = { method: m.method, route: m.route };
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((bound, i) => {
        cumulative += m.buckets[i] as number;
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: m.count });
      values.push({ metricName: `${name}_sum`, labels, value: m.sum });
      values.push({ metricName: `${name}_count`, labels, value: m.count });
    }
    return { name, help, type: 'histogram', values, aggregator: 'sum' };
  };
  return { name, help, type: 'histogram', aggregator: 'sum', get: read, getForPromString: read, reset: () => undefined };
}
