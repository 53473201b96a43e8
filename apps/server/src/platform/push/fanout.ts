import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db, DbHandle } from '../db.ts';
import type { WireEvent } from '../events.ts';

export const PUSH_CHANNEL = 'sw_push';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_BYTES = 7900;

interface Wire {
  /** The node that published it: that node delivered it already. */
  o: string;
  at: string;
  e: WireEvent;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Carries events between server processes. */
export interface PushTransport {
  start(onMessage: (payload: string) => void): Promise<void>;
  stop(): Promise<void>;
}

/** PostgreSQL mode: a dedicated connection LISTENs (a pooled one would drop it), reconnecting with backoff. */
export function pgTransport(url: string, log: Log): PushTransport {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = 250;

  async function connect(onMessage: (payload: string) => void) {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.channel === PUSH_CHANNEL && n.payload) onMessage(n.payload);
    });
    const reconnect = (err?: Error) => {
      if (client !== c) return;
      client = null;
      c.removeAllListeners('error');
      c.on('error', () => undefined);
      void c.end().catch(() => undefined);
      if (stopped) return;
      log.warn({ err }, 'push listener lost its connection; reconnecting');
      retry = setTimeout(() => void connect(onMessage).catch(() => undefined), delay);
      delay = Math.min(delay * 2, 10_000);
    };
    c.on('error', reconnect);
    c.on('end', () => reconnect());
    client = c;
    try {
      await c.connect();
      await c.query(`listen ${PUSH_CHANNEL}`);
      delay = 250;
    } catch (err) {
      reconnect(err as Error);
      throw err;
    }
  }

  return {
    async start(onMessage) {
      stopped = false;
      await connect(onMessage).catch((err) => log.error({ err }, 'push listener could not connect; retrying'));
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * Embedded mode: PGlite has one session, so LISTEN runs through the pool (never inside another request's
 * transaction) and every NOTIFY of the database reaches the callback.
 */
export function pgliteTransport(handle: DbHandle): PushTransport {
  let off: (() => void) | undefined;
  return {
    async start(onMessage) {
      if (!handle.onNotification) throw new Error('pgliteTransport needs a PGlite handle');
      off = handle.onNotification((channel, payload) => {
        if (channel === PUSH_CHANNEL) onMessage(payload);
      });
      await sql`listen ${sql.raw(PUSH_CHANNEL)}`.execute(handle.db);
    },
    async stop() {
      off?.();
      off = undefined;
    },
  };
}

export function transportFor(handle: DbHandle, log: Log): PushTransport {
  if (handle.kind === 'pg' && handle.url) return pgTransport(handle.url, log);
  return pgliteTransport(handle);
}

/**
 * Publishes domain events to every server process: delivered here at once, and through NOTIFY to the others,
 * which deliver to their own sockets. Events published in the same tick travel together (one NOTIFY carries as
 * many as fit), so a burst costs a few round trips, not one per event. A payload too large for NOTIFY travels
 * without its data, so the browsers still learn that something changed and refetch.
 */
export function createFanout(opts: { db: Db; transport: PushTransport; deliver(event: WireEvent, at: string): void; log: Log }) {
  const origin = randomUUID();
  const { db, transport, deliver, log } = opts;
  let pending: string[] = [];
  let flushing: Promise<void> | null = null;
  let observer: ((seconds: number) => void) | null = null;

  function encode(event: WireEvent, at: string): string {
    const text = JSON.stringify({ o: origin, at, e: event } satisfies Wire);
    if (Buffer.byteLength(text) < MAX_NOTIFY_BYTES - 2) return text;
    const slim: WireEvent = { type: event.type, tenantId: event.tenantId, userIds: event.userIds, payload: { truncated: true } };
    return JSON.stringify({ o: origin, at, e: slim } satisfies Wire);
  }

  /** Packs the queued events into as few NOTIFY payloads as fit under the limit. */
  function batches(wires: string[]): string[] {
    const out: string[] = [];
    let current: string[] = [];
    let size = 2;
    for (const wire of wires) {
      const bytes = Buffer.byteLength(wire) + 1;
      if (current.length > 0 && size + bytes > MAX_NOTIFY_BYTES) {
        out.push(`[${current.join(',')}]`);
        current = [];
        size = 2;
      }
      current.push(wire);
      size += bytes;
    }
    if (current.length > 0) out.push(`[${current.join(',')}]`);
    return out;
  }

  async function flush() {
    while (pending.length > 0) {
      const wires = pending;
      pending = [];
      for (const payload of batches(wires)) {
        try {
          await sql`select pg_notify(${PUSH_CHANNEL}, ${payload})`.execute(db);
        } catch (err) {
          log.error({ err }, 'push fan-out failed');
        }
      }
    }
  }

  return {
    origin,
    async start() {
      await transport.start((payload) => {
        try {
          const parsed = JSON.parse(payload) as Wire | Wire[];
          for (const wire of Array.isArray(parsed) ? parsed : [parsed]) if (wire.o !== origin) deliver(wire.e, wire.at);
        } catch (err) {
          log.warn({ err }, 'unreadable push message');
        }
      });
    },
    async stop() {
      await flushing;
      await transport.stop();
    },
    /** Delivers locally now and queues the event for the other processes; resolves once it was sent to them. */
    publish(event: WireEvent): Promise<void> {
      const started = observer ? performance.now() : 0;
      const at = new Date().toISOString();
      deliver(event, at);
      pending.push(encode(event, at));
      if (!flushing) {
        flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(flush).finally(() => {
          flushing = null;
        });
      }
      if (observer) {
        const seen = observer;
        void flushing.then(() => seen((performance.now() - started) / 1000));
      }
      return flushing;
    },
    /** Reports each event's fan-out time: local delivery until it was sent to the other processes (metrics). */
    observe(fn: (seconds: number) => void) {
      observer = fn;
    },
  };
}
export type Fanout = ReturnType<typeof createFanout>;
