import type { FastifyInstance } from 'fastify';

const SUMMARY_EVERY_MS = 60_000;

/**
 * Request logging that costs little at high rates: every request at debug level, failures (5xx) at error level,
 * and once a minute an info line that sums up the traffic (count per status class and the slowest request).
 */
export type RequestObserver = (method: string, route: string, status: number, seconds: number) => void;

/**
 * `observe` (the metrics) is told every answered request by its route pattern, never the raw URL (ids would
 * explode the series): requests no route matched are 'unmatched' (404) or 'web' (the web app's pages and files).
 * One hook serves both, so a request reads its route options once.
 */
/** A device's access token is the credential in its API's path (`/api/v1/{token}/…`): no log line carries it. */
export const loggableUrl = (url: string) => url.replace(/^\/api\/v1\/(?!provision\b)[^/?]+/, '/api/v1/***');

export function registerAccessLog(app: FastifyInstance, observe?: RequestObserver) {
  let counts: Record<string, number> = {};
  let slowest = { ms: 0, route: '' };
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    const route = request.routeOptions.url ?? (status === 404 ? 'unmatched' : 'web');
    observe?.(request.method, route, status, ms / 1000);
    const klass = `${Math.floor(status / 100)}xx`;
    counts[klass] = (counts[klass] ?? 0) + 1;
    if (ms > slowest.ms) slowest = { ms: Math.round(ms), route: `${request.method} ${route}` };
    if (status >= 500) request.log.error({ method: request.method, route, status, ms: Math.round(ms) }, 'request failed');
    else request.log.debug({ method: request.method, url: loggableUrl(request.url), status, ms: Math.round(ms) }, 'request');
    done();
  });
  const timer = setInterval(() => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    if (total > 0) app.log.info({ requests: total, ...counts, slowest }, 'requests in the last minute');
    counts = {};
    slowest = { ms: 0, route: '' };
  }, SUMMARY_EVERY_MS);
  timer.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}
