import { DEVICE_EVENT_TYPES } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import { devicesByIds, devicesOfSite, inMaintenance } from './maintenance-repository.ts';
import { insertAlarmAction, setToggle } from './repository.ts';

/**
 * Maintenance mode switched by the system (calendar maintenance windows): the same toggle and alarm-action log as
 * `POST /iotapp/devices/{id}/alarm-actions/` with telemetryKey maintenance, without a user and without a ticket.
 * The alarm engine reads the flag on every evaluation, so alarms of these devices open no ticket and notify nobody.
 */
export interface DeviceMaintenance {
  devicesOfSite(tenantId: number, assetId: number): Promise<{ id: number; type: string }[]>;
  /** The tenant's devices among these ids, with their type and site. */
  devices(tenantId: number, deviceIds: number[]): Promise<{ id: number; label: string; type: string; assetId: number | null }[]>;
  /** Of these devices, those in maintenance mode now. */
  inMaintenance(tenantId: number, deviceIds: number[]): Promise<number[]>;
  /** Switches maintenance on or off; returns the devices of the tenant it changed. */
  set(tenantId: number, deviceIds: number[], value: boolean, description: string): Promise<number[]>;
}

export function createDeviceMaintenance(db: Db, events: EventBus): DeviceMaintenance {
  return {
    devicesOfSite: (tenantId, assetId) => devicesOfSite(db, tenantId, assetId),
    async devices(tenantId, ids) {
      return (await devicesByIds(db, tenantId, ids)).map((d) => ({ id: d.id, label: d.label, type: d.type, assetId: d.asset_id }));
    },
    inMaintenance: (tenantId, ids) => inMaintenance(db, tenantId, ids),
    async set(tenantId, deviceIds, value, description) {
      const devices = await devicesByIds(db, tenantId, deviceIds);
      if (devices.length === 0) return [];
      const ids = devices.map((d) => d.id);
      await db.transaction().execute(async (trx) => {
        await setToggle(trx, tenantId, ids, 'maintenance', value);
        for (const d of devices)
          await insertAlarmAction(trx, {
            tenantId,
            deviceId: d.id,
            key: 'maintenance',
            value,
            updateChild: false,
            updated: 1,
            createTicket: false,
            description: description.slice(0, 500),
            userId: null,
          });
      });
      events.emit({ type: DEVICE_EVENT_TYPES.changed, tenantId, payload: { deviceIds: ids } });
      return ids;
    },
  };
}
