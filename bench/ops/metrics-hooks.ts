/**
 * The per-request work metrics add, measured in-process (independent of the machine's load, unlike the
 * throughput comparison of metrics-cost.ts): one HTTP observation (counter + histogram by route pattern) and one
 * query observation, in nanoseconds per call.
 * Run: node --import tsx bench/ops/metrics-hooks.ts
 */
import { createMetrics } from '../../apps/server/src/platform/metrics/registry.ts';

const metrics = createMetrics({ defaultMetrics: false });
const routes = ['/current-login/', '/app-version/', '/iotapp/devices/:id/', '/helpdesk/tickets/'];
const N = 1_000_000;

function time(label: string, fn: (i: number) => void) {
  for (let i = 0; i < 10_000; i++) fn(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn(i);
  const ns = Number(process.hrtime.bigint() - started) / N;
  console.log(`${label.padEnd(24)} ${ns.toFixed(0)} ns per call`);
  return ns;
}

const http = time('HTTP observation', (i) => metrics.http('GET', routes[i & 3] as string, 200, 0.002));
const query = time('query observation', () => metrics.query(0.0004, true));
const started = performance.now();
const text = await metrics.scrape();
console.log(`scrape: ${(performance.now() - started).toFixed(1)} ms, ${text.length} bytes`);
// A request that reads two rows costs this much metrics work; at 1 000 req/s per core that is this share of it.
const perRequest = http + 2 * query;
console.log(`per request (1 HTTP + 2 queries): ${perRequest.toFixed(0)} ns = ${((perRequest / 1e6) * 100).toFixed(2)} % of 1 ms`);
