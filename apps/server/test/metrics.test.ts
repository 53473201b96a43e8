import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.ts';
import { devicePost, makeDevice } from './telemetry-fixtures.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A strict reader of the Prometheus text format (0.0.4): throws on any line it does not understand. */
function parsePrometheus(text: string) {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][\w:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][\w:]* .*$/.test(line)) continue;
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|NaN|\+Inf|-Inf))$/.exec(line);
    if (!sample) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const m of (sample[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[m[1] as string] = m[2] as string;
    samples.push({ name: sample[1] as string, labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

let t: TestApp;
let dataDir: string;
const scrape = async (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}`, ...headers } });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sw-metrics-'));
  t = await createTestApp({ METRICS_TOKEN: TOKEN, DATA_DIR: dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /metrics', () => {
  it('refuses callers without the token, whatever their address', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('sitewatch_');
    expect((await scrape({ authorization: 'Bearer wrong-token-of-the-same-size-000000' })).statusCode).toBe(401);
    // a signed-in user of a tenant is still no scraper
    const admin = await t.login('customeradmin');
    expect((await admin.get('/metrics')).statusCode).toBe(401);
  });

  it('serves the Prometheus text format with every family, labelled by route pattern', async () => {
    const admin = await t.login('customeradmin');
    expect((await admin.get('/iotapp/devices/987654/')).statusCode).toBe(404);
    await t.anonymous().get('/health');
    const exported = await admin.post('/api/exports/', { kind: 'users', name: 'All users' });
    expect(exported.statusCode, exported.body).toBe(201);
    await t.app.jobs.drain();
    const device = await makeDevice(t.db, t.tenantA);
    expect((await devicePost(t, `/api/v1/${device.token}/telemetry`, { temperature: 21.5 })).statusCode).toBe(200);

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const { types, samples } = parsePrometheus(res.body);
    const families: Record<string, string> = {
      sitewatch_http_requests_total: 'counter',
      sitewatch_http_request_duration_seconds: 'histogram',
      sitewatch_db_pool_connections: 'gauge',
      sitewatch_db_query_duration_seconds: 'histogram',
      sitewatch_ingest_accepted_total: 'counter',
      sitewatch_ingest_stored_total: 'counter',
      sitewatch_ingest_refused_total: 'counter',
      sitewatch_ingest_buffer_depth: 'gauge',
      sitewatch_ingest_flush_seconds_total: 'counter',
      sitewatch_ingest_flushes_total: 'counter',
      sitewatch_ingest_flush_duration_seconds: 'histogram',
      sitewatch_mqtt_connections: 'gauge',
      sitewatch_push_sockets: 'gauge',
      sitewatch_push_fanout_duration_seconds: 'histogram',
      sitewatch_job_queue_depth: 'gauge',
      sitewatch_job_runs_total: 'counter',
      sitewatch_recorder_processes: 'gauge',
      sitewatch_recorder_segment_lag_max_seconds: 'gauge',
      sitewatch_recorder_cameras_by_lag: 'gauge',
      sitewatch_export_bytes_total: 'counter',
      // prom-client's default metrics under their standard names, as stock Node.js dashboards expect them
      process_resident_memory_bytes: 'gauge',
      process_cpu_seconds_total: 'counter',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_eventloop_lag_p99_seconds: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
    };
    for (const [name, type] of Object.entries(families)) expect(types.get(name), name).toBe(type);

    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    // the pattern, never the raw id
    expect(value('sitewatch_http_requests_total', { method: 'GET', route: '/iotapp/devices/:id/', status: '404' })).toBe(1);
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes('987654')))).toBe(false);
    expect(value('sitewatch_http_requests_total', { route: '/health', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(value('sitewatch_http_request_duration_seconds_count', { route: '/health' })).toBeGreaterThanOrEqual(1);
    // buckets are cumulative and end at the count
    const buckets = samples.filter((s) => s.name === 'sitewatch_http_request_duration_seconds_bucket' && s.labels.route === '/health');
    expect(buckets.length).toBeGreaterThan(2);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]?.value).toBeGreaterThanOrEqual(buckets[i - 1]?.value as number);
    expect(buckets.at(-1)?.labels.le).toBe('+Inf');
    expect(buckets.at(-1)?.value).toBe(value('sitewatch_http_request_duration_seconds_count', { route: '/health' }));
    expect(value('sitewatch_ingest_flush_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value('sitewatch_db_query_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(value('sitewatch_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(value('sitewatch_job_runs_total', { queue: 'downloads.export', outcome: 'completed' })).toBe(1);
    expect(value('sitewatch_export_bytes_total')).toBeGreaterThan(0);
    expect(value('sitewatch_ingest_refused_total', { reason: 'overloaded' })).toBe(0);
    expect(value('sitewatch_push_fanout_duration_seconds_count')).toBeGreaterThan(0);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
    // product metrics are prefixed, and nothing else is left without the prefix but the standard defaults
    for (const name of types.keys()) expect(name, name).toMatch(/^(sitewatch_|process_|nodejs_)/);
    expect([...types.keys()].filter((name) => name.startsWith('sitewatch_process_') || name.startsWith('sitewatch_nodejs_'))).toEqual([]);
    // no label takes unbounded values: no per-camera or per-tenant series, the lag bands are a fixed set
    for (const s of samples)
      expect(
        Object.keys(s.labels).filter((l) => l === 'camera' || l === 'tenant'),
        s.name,
      ).toEqual([]);
    // the shipped Grafana dashboard asks only for families this server exposes
    const dashboard = readFileSync(new URL('../../../docs/grafana-dashboard.json', import.meta.url), 'utf8');
    const asked = new Set(
      [...dashboard.matchAll(/\b((?:sitewatch|process|nodejs)_\w+)/g)].map((m) => (m[1] as string).replace(/_bucket$/, '')),
    );
    expect(asked.size).toBeGreaterThan(10);
    for (const name of asked) expect(types.has(name), `dashboard asks for ${name}`).toBe(true);
    const bands = samples.filter((s) => s.name === 'sitewatch_recorder_cameras_by_lag').map((s) => s.labels.lag);
    expect(bands).toEqual(['under_10s', '10s_to_60s', '60s_to_5m', 'over_5m']);
  });
});

describe('GET /metrics without a token configured', () => {
  let local: TestApp;
  beforeAll(async () => {
    local = await createTestApp({ DATA_DIR: dataDir });
  });
  afterAll(() => local?.close());

  it('answers only a caller on this machine that did not come through a proxy', async () => {
    const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
      local.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    expect((await get('127.0.0.1')).statusCode).toBe(200);
    expect((await get('203.0.113.7')).statusCode).toBe(403);
    expect((await get('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(403);
  });
});

describe('GET /ready', () => {
  it('lists each dependency and names the one that is not ready with 503', async () => {
    const ok = await t.anonymous('any.example.com').get('/ready');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ready', checks: { database: 'ok', broker: 'not started', blobs: 'ok' } });

    // a blob store folder that cannot be created: the data folder is a file
    const file = join(dataDir, 'not-a-folder');
    writeFileSync(file, '');
    const broken = await createTestApp({ DATA_DIR: file });
    try {
      const res = await broken.anonymous().get('/ready');
      expect(res.statusCode).toBe(503);
      expect(res.json().status).toBe('not ready: blobs');
      expect(res.json().checks.database).toBe('ok');
      expect((await broken.anonymous().get('/health')).json()).toEqual({ status: 'ok' });
    } finally {
      await broken.close();
    }
  });
});
