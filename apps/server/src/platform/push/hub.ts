import type { DomainEventMap, PushEnvelope } from '@sitewatch/contracts';
import type { WebSocket } from 'ws';
import type { WireEvent } from '../events.ts';

/** One open /ws socket and who is behind it. */
export interface PushConnection {
  socket: WebSocket;
  tenantId: number;
  userId: number;
  sessionId: string;
  roles: string[];
  permissions: ReadonlySet<string>;
  /** Sites the user may see, 'all', or null while not yet read (then no event about a site is delivered). */
  assets: ReadonlySet<number> | 'all' | null;
  alive: boolean;
  /** Devices whose live values this socket shows (`device.values` of other devices are not sent to it). */
  watching: ReadonlySet<number>;
}

/**
 * Server-side only: the devices some socket watches, announced on the event bus (and through the fan-out to the
 * other processes) so that ingest publishes live values of those devices alone. Never reaches a browser.
 */
export const PUSH_WATCH_EVENT = 'push.watch';
/** ttlMs: the watch lapses after this long unless announced again; relayed: received from another process. */
export type PushWatchPayload = DomainEventMap['push.watch'];
const DEVICE_VALUES = 'device.values';

/**
 * Which permission a user needs to receive an event of a kind. Events of a kind not listed here are delivered
 * only to the users the event names (notifications, job progress): nothing is broadcast by default.
 */
const BROADCAST_PERMISSION: Record<string, string> = {
  ticket: 'view_ticket',
  alarm: 'view_device',
  device: 'view_device',
  command: 'view_device',
  calendar: 'view_event',
  attendance: 'view_attendance',
  equipment: 'view_equipment',
  dashboard: 'view_dashboard',
  inventory: 'view_inventory',
  'purchase-request': 'view_purchaserequest',
  vendor: 'view_vendor',
  cluster: 'view_cluster',
  'video-evidence': 'view_camera',
};
const kindOf = (type: string) => type.split('.', 1)[0] ?? type;

/** A socket that lets this much pile up unread is too slow to keep. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

function assetOf(payload: unknown): number | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as { assetId?: unknown; locationId?: unknown };
  const id = p.assetId ?? p.locationId;
  return typeof id === 'number' ? id : null;
}

/** May this connection see this event? Tenant first, then the user, then permission and site. */
export function mayReceive(conn: PushConnection, event: WireEvent): boolean {
  if (conn.tenantId !== event.tenantId) return false;
  const named = event.userIds && event.userIds.length > 0;
  if (named && !event.userIds?.includes(conn.userId)) return false;
  const permission = BROADCAST_PERMISSION[kindOf(event.type)];
  if (!permission) return Boolean(named);
  if (!conn.permissions.has(permission)) return false;
  if (event.type === DEVICE_VALUES && !conn.watching.has((event.payload as { deviceId?: number } | null)?.deviceId ?? -1)) return false;
  if (named) return true;
  const assetId = assetOf(event.payload);
  if (assetId === null || conn.assets === 'all') return true;
  return conn.assets?.has(assetId) ?? false;
}

/** The sockets of this process, indexed by tenant and user so that delivery touches only who may receive. */
export function createPushHub() {
  const byTenant = new Map<number, Map<number, Set<PushConnection>>>();
  let size = 0;

  /** Sends a text frame; the bytes are encoded once per event, not once per socket. */
  function send(conn: PushConnection, data: Buffer) {
    if (conn.socket.readyState !== conn.socket.OPEN) return false;
    if (conn.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      conn.socket.terminate();
      return false;
    }
    conn.socket.send(data, { binary: false });
    return true;
  }

  return {
    add(conn: PushConnection) {
      let users = byTenant.get(conn.tenantId);
      if (!users) {
        users = new Map();
        byTenant.set(conn.tenantId, users);
      }
      let set = users.get(conn.userId);
      if (!set) {
        set = new Set();
        users.set(conn.userId, set);
      }
      if (!set.has(conn)) size++;
      set.add(conn);
    },
    remove(conn: PushConnection) {
      const users = byTenant.get(conn.tenantId);
      const set = users?.get(conn.userId);
      if (!set?.delete(conn)) return;
      size--;
      if (set.size === 0) users?.delete(conn.userId);
      if (users?.size === 0) byTenant.delete(conn.tenantId);
    },
    /** Sends the event to every local socket allowed to see it; returns how many sockets got it. */
    deliver(event: WireEvent, at = new Date().toISOString()): number {
      const users = byTenant.get(event.tenantId);
      if (!users) return 0;
      const named = event.userIds && event.userIds.length > 0;
      if (!named && !BROADCAST_PERMISSION[kindOf(event.type)]) return 0;
      const envelope: PushEnvelope = { type: event.type, data: event.payload, at };
      const data = Buffer.from(JSON.stringify(envelope));
      let sent = 0;
      const targets = named ? (event.userIds ?? []).map((id) => users.get(id)) : [...users.values()];
      for (const set of targets) {
        if (!set) continue;
        for (const conn of set) if (mayReceive(conn, event) && send(conn, data)) sent++;
      }
      return sent;
    },
    /** Sends a message to one socket (hello, pong). */
    sendTo(conn: PushConnection, envelope: PushEnvelope) {
      send(conn, Buffer.from(JSON.stringify(envelope)));
    },
    *connections(): Generator<PushConnection> {
      for (const users of byTenant.values()) for (const set of users.values()) yield* set;
    },
    get size() {
      return size;
    },
  };
}
export type PushHub = ReturnType<typeof createPushHub>;
