import websocket from '@fastify/websocket';
import { type DomainEventMap, PUSH_CLOSE, pushClientMessageSchema } from '@sitewatch/contracts';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { requireAuth } from '../auth/context.ts';
import type { DbHandle } from '../db.ts';
import { forbidden } from '../errors.ts';
import type { EventBus } from '../events.ts';
import type { DomainModule } from '../module.ts';
import { createFanout, type Fanout, transportFor } from './fanout.ts';
import { createPushHub, PUSH_WATCH_EVENT, type PushConnection, type PushHub, type PushWatchPayload } from './hub.ts';
import type { LiveSessionCheck } from './sessions.ts';

/** Server-side only (kind `rpc` reaches no browser): commands wait for devices another process may hold. */
const RPC_DISPATCH_EVENT = 'rpc.dispatch';
const HEARTBEAT_MS = 30_000;
const SESSION_CHECK_MS = 60_000;
/** Sites a socket may see are re-read every this many session checks. */
const ASSET_REFRESH_EVERY = 5;
const MAX_SOCKETS_PER_USER = 32;
const MAX_MESSAGES_PER_MINUTE = 120;
/** Watched devices are announced again this often, and a watch lapses after WATCH_TTL_MS without one. */
const WATCH_ANNOUNCE_MS = 20_000;
const WATCH_TTL_MS = 60_000;

export interface PushPorts {
  database: DbHandle;
  events: EventBus;
  log: FastifyBaseLogger;
  /**
   * Which sites a user sees (the sites module's directory). Required: an event about a site reaches only the
   * sockets of users who see that site.
   */
  sites: { visibleAssetIds(tenantId: number, userId: number, roles: string[]): Promise<number[] | 'all'> };
  /** Which sockets' sessions still hold, with their users' current roles and permissions (the auth module). */
  sessions: LiveSessionCheck;
}

export interface PushPort {
  hub: PushHub;
  fanout: Fanout;
  /** Runs the periodic session check now. */
  checkSessions(): Promise<void>;
}

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
export function createPushModule(ports: PushPorts): DomainModule<PushPort> {
  const { database, log } = ports;
  const db = database.db;
  const hub = createPushHub();
  const fanout = createFanout({
    db,
    transport: transportFor(database, log),
    deliver: (event, at) => {
      // another process's sockets watch devices: ingest here must publish their values too
      if (event.type === PUSH_WATCH_EVENT)
        ports.events.emit({
          type: PUSH_WATCH_EVENT,
          tenantId: event.tenantId,
          payload: { ...(event.payload as PushWatchPayload), relayed: true },
        });
      // commands wait for devices connected to another process: its dispatcher sends them
      else if (event.type === RPC_DISPATCH_EVENT)
        ports.events.emit({
          type: RPC_DISPATCH_EVENT,
          tenantId: event.tenantId,
          payload: { ...(event.payload as DomainEventMap['rpc.dispatch']), relayed: true },
        });
      else hub.deliver(event, at);
    },
    log,
  });

  const announceWatch = (tenantId: number, deviceIds: number[]) => {
    if (deviceIds.length === 0) return;
    const payload: PushWatchPayload = { deviceIds, ttlMs: WATCH_TTL_MS };
    ports.events.emit({ type: PUSH_WATCH_EVENT, tenantId, payload });
  };
  const announceAll = () => {
    const byTenant = new Map<number, Set<number>>();
    for (const conn of hub.connections()) {
      if (conn.watching.size === 0) continue;
      const ids = byTenant.get(conn.tenantId) ?? new Set<number>();
      byTenant.set(conn.tenantId, ids);
      for (const id of conn.watching) ids.add(id);
    }
    for (const [tenantId, ids] of byTenant) announceWatch(tenantId, [...ids]);
  };

  async function visibleAssets(conn: Pick<PushConnection, 'tenantId' | 'userId' | 'roles'>): Promise<PushConnection['assets']> {
    const ids = await ports.sites.visibleAssetIds(conn.tenantId, conn.userId, conn.roles);
    return ids === 'all' ? 'all' : new Set(ids);
  }

  let checks = 0;
  async function checkSessions() {
    const conns = [...hub.connections()];
    if (conns.length === 0) return;
    const live = await ports.sessions([...new Set(conns.map((c) => c.sessionId))]);
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

  return { ports: { hub, fanout, checkSessions }, register };

  async function register(app: import('fastify').FastifyInstance) {
    await app.register(websocket, { options: { maxPayload: 4096 } });
    if (database.kind === 'pg' || database.pglite) await fanout.start();
    const unsubscribe = ports.events.subscribe((event) => {
      if ((event.type === PUSH_WATCH_EVENT || event.type === RPC_DISPATCH_EVENT) && (event.payload as { relayed?: boolean }).relayed)
        return;
      void fanout.publish(event);
    });

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
          watching: new Set(),
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
          const message = pushClientMessageSchema.safeParse(parsed);
          if (!message.success) return;
          if (message.data.type === 'ping') hub.sendTo(conn, { type: 'pong', data: null, at: new Date().toISOString() });
          else {
            conn.watching = new Set(message.data.deviceIds);
            announceWatch(conn.tenantId, message.data.deviceIds);
          }
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

    const watchAnnouncer = setInterval(announceAll, WATCH_ANNOUNCE_MS);
    watchAnnouncer.unref();

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

    const sessionCheck = setInterval(
      () => void checkSessions().catch((err) => app.log.error({ err }, 'push session check failed')),
      SESSION_CHECK_MS,
    );

    app.addHook('onClose', async () => {
      clearInterval(heartbeat);
      clearInterval(watchAnnouncer);
      clearInterval(sessionCheck);
      unsubscribe();
      for (const conn of hub.connections()) conn.socket.close(PUSH_CLOSE.goingAway, 'server shutting down');
      await fanout.stop();
    });
  }
}
