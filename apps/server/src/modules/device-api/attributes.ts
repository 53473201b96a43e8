import { type AttributeRequest, type AttributeResponse, DEVICE_API_LIMITS, type SharedAttributeList } from '@sitewatch/contracts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest } from '../../platform/errors.ts';
import type { TelemetryPort } from '../telemetry/index.ts';
import * as repo from './repository.ts';

/** What a device is told when its shared attributes change: the new values, and the keys removed. */
export type SharedUpdate = Record<string, unknown>;

type Listener = (update: SharedUpdate) => void;

const toMap = (rows: Array<{ key: string; value: unknown }>) => Object.fromEntries(rows.map((r) => [r.key, r.value]));

/**
 * Client and shared attributes as the device API serves them: a device reads both (all, or the keys it names);
 * users set and remove shared attributes, and every change is pushed to the device's listeners (MQTT subscribers of
 * `v1/devices/me/attributes`, HTTP long polls) in this process.
 */
export function createAttributeService(deps: { db: Db; telemetry: Pick<TelemetryPort, 'visibleDevice' | 'clientAttributes'> }) {
  const { db, telemetry } = deps;
  const listeners = new Map<number, Set<Listener>>();

  function notify(deviceId: number, update: SharedUpdate) {
    for (const listener of [...(listeners.get(deviceId) ?? [])]) listener(update);
  }

  async function list(tenantId: number, deviceId: number): Promise<SharedAttributeList> {
    const rows = await repo.sharedAttributes(db, tenantId, deviceId);
    return {
      deviceId,
      attributes: rows.map((r) => ({ key: r.key, value: r.value, updatedAt: new Date(r.updated_at).toISOString() })),
    };
  }

  return {
    /**
     * ThingsBoard's attribute request: the keys named per scope, or every attribute of both scopes when none are
     * named. A scope with no value is left out of the answer, as ThingsBoard does.
     */
    async request(device: { id: number; tenantId: number }, request: AttributeRequest): Promise<AttributeResponse> {
      const all = request.clientKeys === undefined && request.sharedKeys === undefined;
      const [client, shared] = await Promise.all([
        all || request.clientKeys ? telemetry.clientAttributes(device.tenantId, device.id, request.clientKeys) : [],
        all || request.sharedKeys ? repo.sharedAttributes(db, device.tenantId, device.id, request.sharedKeys) : [],
      ]);
      return {
        ...(client.length > 0 ? { client: toMap(client) } : {}),
        ...(shared.length > 0 ? { shared: toMap(shared) } : {}),
      };
    },

    /** Listens for changes of a device's shared attributes; returns the function that stops listening. */
    listen(deviceId: number, listener: Listener) {
      const set = listeners.get(deviceId) ?? new Set<Listener>();
      listeners.set(deviceId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(deviceId) === set) listeners.delete(deviceId);
      };
    },

    /** The next change of a device's shared attributes, or null when none came within `timeoutMs`. */
    nextUpdate(deviceId: number, timeoutMs: number, signal: AbortSignal): Promise<SharedUpdate | null> {
      return new Promise((resolve) => {
        const finish = (update: SharedUpdate | null) => {
          clearTimeout(timer);
          stop();
          resolve(update);
        };
        const stop = this.listen(deviceId, (update) => finish(update));
        const timer = setTimeout(() => finish(null), timeoutMs);
        signal.addEventListener('abort', () => finish(null), { once: true });
      });
    },

    async list(auth: AuthContext, deviceId: number) {
      await telemetry.visibleDevice(auth, deviceId);
      return list(auth.tenantId, deviceId);
    },

    /** Sets shared attributes (others are kept); the device hears of the values that changed. */
    async set(auth: AuthContext, deviceId: number, values: Record<string, unknown>) {
      await telemetry.visibleDevice(auth, deviceId);
      const keys = Object.keys(values);
      if ((await repo.sharedCountWith(db, auth.tenantId, deviceId, keys)) > DEVICE_API_LIMITS.maxSharedAttributes) {
        throw badRequest(`A device holds at most ${DEVICE_API_LIMITS.maxSharedAttributes} shared attributes.`, 'too_many_attributes');
      }
      const changed = await repo.upsertShared(db, auth.tenantId, deviceId, values);
      if (changed.length > 0) notify(deviceId, toMap(changed));
      return list(auth.tenantId, deviceId);
    },

    /** Removes shared attributes; the device hears `{ "deleted": [keys] }`. */
    async remove(auth: AuthContext, deviceId: number, keys: string[]) {
      await telemetry.visibleDevice(auth, deviceId);
      const removed = await repo.deleteShared(db, auth.tenantId, deviceId, keys);
      if (removed.length > 0) notify(deviceId, { deleted: removed });
      return list(auth.tenantId, deviceId);
    },

    /** Devices with a listener here (tests). */
    listening: () => listeners.size,
  };
}
export type AttributeService = ReturnType<typeof createAttributeService>;
