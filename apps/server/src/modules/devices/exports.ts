import { DEVICE_TYPE_LABELS, deviceListQuerySchema } from '@sitewatch/contracts';
import type { z } from 'zod';
import type { ExportScope, ExportSource } from '../downloads/registry.ts';
import { byPage, PAGE, viewerOf } from '../sites/exports.ts';
import type { DeviceService } from './service.ts';

const deviceParams = deviceListQuerySchema.omit({ page: true, limit: true, groupBy: true });

/** The device list, read through the devices service with the user's site visibility. */
export function deviceExports(devices: DeviceService): ExportSource<never>[] {
  const canSeeDevices = (scope: ExportScope) => scope.permissions.includes('view_device');
  const deviceList: ExportSource<z.infer<typeof deviceParams>> = {
    kind: 'devices',
    label: 'Devices',
    params: deviceParams,
    columns: [
      { key: 'label', header: 'Label', type: 'text' },
      { key: 'name', header: 'Name', type: 'text' },
      { key: 'type', header: 'Type', type: 'text' },
      { key: 'status', header: 'Status', type: 'text' },
      { key: 'alarmStatus', header: 'Alarm Status', type: 'text' },
      { key: 'site', header: 'Site', type: 'text' },
      { key: 'parent', header: 'Parent', type: 'text' },
      { key: 'lastActivityAt', header: 'Last Activity', type: 'datetime' },
    ],
    allowed: canSeeDevices,
    pageSize: PAGE,
    count: async (scope, p) => (await devices.list(viewerOf(scope), { ...p, page: 1, limit: 1 })).totalCount,
    fetchPage: (scope, p, cursor, limit) =>
      byPage(
        (page) => devices.list(viewerOf(scope), { ...p, page, limit: PAGE }),
        (d) => ({
          label: d.label,
          name: d.name,
          type: DEVICE_TYPE_LABELS[d.type] ?? d.type,
          status: d.status,
          alarmStatus: d.alarmStatus,
          site: d.asset?.name ?? '',
          parent: d.parent?.label ?? '',
          lastActivityAt: d.lastActivityAt,
        }),
      )(cursor, limit),
  };

  return [deviceList] as unknown as ExportSource<never>[];
}
