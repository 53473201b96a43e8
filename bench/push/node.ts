/**
 * One server process of the push benchmark: the real app on the benchmark database, listening on a free port.
 * The parent sends { type: 'emit', event } (the event is stamped here, at emission) and { type: 'memory' }.
 */
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import type { DomainEvent } from '../../apps/server/src/platform/events.ts';

const url = process.env.BENCH_DB_URL as string;
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  DEMO: 'false',
  DATA_DIR: process.env.BENCH_DATA_DIR ?? '/tmp/sw-bench-push',
  WEB_DIST: '/nonexistent',
});
const database = openPostgres(url, 10);
const { app, handles } = await buildApp({ config, database, logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const push = handles.push;
const address = app.server.address();
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: { type: string; event?: DomainEvent }) => {
  if (message.type === 'emit' && message.event) {
    const event = message.event;
    // the payload carries its send time for the latency figure, beyond the event's own fields
    const payload = { ...(event.payload as object), sentAt: Date.now() };
    handles.events.emit({ ...event, payload } as unknown as DomainEvent);
  } else if (message.type === 'memory') {
    gc?.();
    gc?.();
    const m = process.memoryUsage();
    process.send?.({ type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external, sockets: push.hub.size });
  } else if (message.type === 'stop') {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  }
});
process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
