import { type TableCamera, VIDEO_MESSAGES } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { cameraOfTable, tableWatchedElsewhere } from './camera-tables-repository.ts';

/** The sites a caller may see, as the site directory answers it. */
type Visible = number[] | 'all';

/**
 * Packing table → camera: an incident typed or scanned at a table finds its camera. A camera outside the caller's
 * sites is never named: looking its table up answers as if no camera watched it.
 */
export function createCameraTables(deps: { db: Db; directory: () => SiteDirectory }) {
  const { db } = deps;
  const visibleCamera = async (tenantId: number, visible: Visible, deviceId: number) => {
    const device = await deps.directory().device(tenantId, deviceId);
    if (device?.type !== 'CAMERA') return null;
    if (visible !== 'all' && (device.assetId === null || !visible.includes(device.assetId))) return null;
    return device;
  };

  async function cameraFor(tenantId: number, visible: Visible, table: string): Promise<TableCamera> {
    const deviceId = await cameraOfTable(db, tenantId, table);
    const device = deviceId === null ? null : await visibleCamera(tenantId, visible, deviceId);
    if (!device) throw notFound(VIDEO_MESSAGES.noTableCamera(table));
    const site = device.assetId === null ? null : await deps.directory().asset(tenantId, device.assetId);
    return { id: device.id, name: device.label, site: site ? { id: site.id, name: site.name } : null };
  }

  /** Refuses a table another camera watches already. */
  async function requireFree(tenantId: number, visible: Visible, deviceId: number, tables: string[]) {
    const taken = await tableWatchedElsewhere(db, tenantId, tables, deviceId);
    if (!taken) return;
    const owner = await visibleCamera(tenantId, visible, taken.device_id);
    throw badRequest(VIDEO_MESSAGES.tableTaken(taken.table_number, owner?.label ?? null), 'table_taken');
  }

  return { cameraFor, requireFree };
}
