import websocket from '@fastify/websocket';
import { PUSH_CLOSE, pushClientMessageSchema } from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app.ts';
import { requireAuth } from '../auth/context.ts';
import type { DbHandle } from '../db.ts';
import { forbidden } from '../errors.ts';
import { createFanout, type Fanout, transportFor } from './fanout.ts';
import { createPushHub, type PushConnection, type PushHub } from './hub.ts';
import { liveSessions } from './sessions.ts';

const HEARTBEAT_MS = 30_000;
const SESSION_CHECK_MS = 60_000;
/** Sites a socket may see are re-read every this many session checks. */
const ASSET_REFRESH_EVERY = 5;
const MAX_SOCKETS_PER_USER = 32;
const MAX_MESSAGES_PER_MINUTE = 120;

export interface PushInternals {
  context: AppContext;
  hub: PushHub;
  fanout: Fanout;
  /** Runs the periodic session check now. */
  checkSessions(): Promise<void>;
}
/** Tests and benchmarks reach the running push hub of an app through its HTTP server. */
const byServer = new WeakMap<object, PushInternals>();
export const pushOf = (server: object) => byServer.get(server);

/** A page of another origin must not open a socket with the user's cookie (cross-site WebSocket hijacking). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // not a browser: it sent its credentials itself
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * The push hub: one authenticated WebSocket per browser tab at /ws, fed by the domain event bus and, across
 * server processes, by PostgreSQL LISTEN/NOTIFY. Each socket receives only what its user may see.
 */
export async function pushModule(app: FastifyInstance, context: AppContext) {
  await app.register(websocket, { options: { maxPayload: 4096 } });
  const hub = createPushHub();
  const database: DbHandle = context.database ?? {
    db: context.db,
    kind: 'pglite',
    close: async () => undefined,
    onQuery: () => () => undefined,
    poolStats: () => ({ total: 0, idle: 0, waiting: 0 }),
  };
  const fanout = createFanout({
    db: context.db,
    transport: transportFor(database, app.log),
    deliver: (event, at) => hub.deliver(event, at),
    log: app.log,
  });
  if (database.kind === 'pg' || database.pglite) await fanout.start();
  const unsubscribe = context.events.subscribe((event) => void fanout.publish(event));

  async function visibleAssets(conn: Pick<PushConnection, 'tenantId' | 'userId' | 'roles'>): Promise<PushConnection['assets']> {
    if (!context.directory) return null;
    const ids = await context.directory.visibleAssetIds(conn.tenantId, conn.userId, conn.roles);
    return ids === 'all' ? 'all' : new Set(ids);
  }

  app.get(
    '/ws',
    {
      websocket: true,
      onRequest: async (request) => {
        if (!sameOrigin(request)) throw forbidden();
      },
      // An upgrade refused by the access hooks (401, 421) runs before the websocket plugin marks the request as
      // one, so the plugin would leave its socket open after the answer: end it here.
      onResponse: async (request) => {
        if (request.headers.upgrade) request.raw.socket.destroy();
      },
    },
    async (socket, request) => {
      const auth = requireAuth(request);
      const conn: PushConnection = {
        socket,
        tenantId: auth.tenantId,
        userId: auth.userId,
        sessionId: auth.sessionId,
        roles: auth.roles,
        permissions: auth.permissions,
        assets: null,
        alive: true,
      };
      let mine = 0;
      for (const other of hub.connections()) if (other.tenantId === conn.tenantId && other.userId === conn.userId) mine++;
      if (mine >= MAX_SOCKETS_PER_USER) {
        socket.close(1013, 'too many connections');
        return;
      }
      let received = 0;
      let windowStart = Date.now();
      socket.on('pong', () => {
        conn.alive = true;
      });
      socket.on('message', (raw) => {
        if (Date.now() - windowStart > 60_000) {
          windowStart = Date.now();
          received = 0;
        }
        if (++received > MAX_MESSAGES_PER_MINUTE) return socket.close(1008, 'too many messages');
        let parsed: unknown;
        try {
          parsed = JSON.parse(String(raw));
        } catch {
          parsed = null;
        }
        if (pushClientMessageSchema.safeParse(parsed).success) hub.sendTo(conn, { type: 'pong', data: null, at: new Date().toISOString() });
      });
      socket.on('close', () => {
        hub.remove(conn);
      });
      hub.add(conn);
      try {
        conn.assets = await visibleAssets(conn);
      } catch (err) {
        request.log.warn({ err }, 'site visibility unavailable for push');
      }
      hub.sendTo(conn, { type: 'hello', data: { userId: conn.userId }, at: new Date().toISOString() });
    },
  );

  const heartbeat = setInterval(() => {
    for (const conn of hub.connections()) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
    }
  }, HEARTBEAT_MS);

  let checks = 0;
  async function checkSessions() {
    const conns = [...hub.connections()];
    if (conns.length === 0) return;
    const live = await liveSessions(context.db, [...new Set(conns.map((c) => c.sessionId))], context.config.auth.sessionIdleMinutes);
    const refreshAssets = ++checks % ASSET_REFRESH_EVERY === 0;
    const assetsByUser = new Map<string, Promise<PushConnection['assets']>>();
    for (const conn of conns) {
      const session = live.get(conn.sessionId);
      if (!session) {
        conn.socket.close(PUSH_CLOSE.sessionEnded, 'session ended');
        continue;
      }
      conn.roles = session.roles;
      conn.permissions = session.permissions;
      if (!refreshAssets) continue;
      const key = `${conn.tenantId}:${conn.userId}`;
      if (!assetsByUser.has(key)) assetsByUser.set(key, visibleAssets(conn));
      conn.assets = await (assetsByUser.get(key) as Promise<PushConnection['assets']>);
    }
  }
  const sessionCheck = setInterval(
    () => void checkSessions().catch((err) => app.log.error({ err }, 'push session check failed')),
    SESSION_CHECK_MS,
  );
  byServer.set(app.server, { context, hub, fanout, checkSessions });

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    clearInterval(sessionCheck);
    unsubscribe();
    for (const conn of hub.connections()) conn.socket.close(PUSH_CLOSE.goingAway, 'server shutting down');
    await fanout.stop();
  });
}
