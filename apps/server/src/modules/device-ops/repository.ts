import { DEVICE_TYPES } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { deviceOpsColumns, devicesOfTypes } from '../devices/scope.ts';
import { assetVisible, type Viewer } from '../sites/scope.ts';

type JsonValue = string | number | boolean | null;

export interface OpsDeviceRow {
  id: number;
  label: string;
  type: string;
  status: string;
  alarm_status: string | null;
  asset_id: number | null;
  metadata: Record<string, JsonValue>;
  state: Record<string, JsonValue>;
  last_activity_at: Date | null;
  site_name: string | null;
}

export interface DeviceFilter {
  assetId?: number;
  deviceId?: number;
  search?: string;
}

/** A page of the devices of these types the viewer sees, and how many there are. */
export async function devicePage(
  db: Db,
  viewer: Viewer,
  types: readonly string[],
  filter: DeviceFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: OpsDeviceRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    devicesOfTypes(db, viewer, types, filter)
      .select(deviceOpsColumns)
      .orderBy(sql`site_name`)
      .orderBy('d.label')
      .orderBy('d.id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    devicesOfTypes(db, viewer, types, filter).select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
  ]);
  return { rows: rows as OpsDeviceRow[], total: count?.n ?? 0 };
}

export async function deviceOf(db: Db, viewer: Viewer, deviceId: number, types: readonly string[]): Promise<OpsDeviceRow | null> {
  const row = await devicesOfTypes(db, viewer, types, { deviceId }).select(deviceOpsColumns).executeTakeFirst();
  return (row as OpsDeviceRow | undefined) ?? null;
}

/* ------------------------------------------------------------------ access events */

export interface AccessEventInsert {
  tenant_id: number;
  device_id: number;
  asset_id: number | null;
  door: number;
  kind: string;
  credential: string;
  at: Date;
}

export async function insertAccessEvents(db: Db, rows: AccessEventInsert[]) {
  if (rows.length === 0) return;
  await db.insertInto('access_events').values(rows).execute();
}

export interface AccessEventRow {
  id: string;
  device_id: number;
  asset_id: number | null;
  door: number;
  kind: string;
  credential: string;
  at: Date;
  label: string;
  metadata: Record<string, JsonValue>;
  site_name: string | null;
}

export async function accessEvents(
  db: Db,
  viewer: Viewer,
  filter: { assetId?: number; deviceId?: number; kind?: string },
  page: { offset: number; limit: number },
): Promise<{ rows: AccessEventRow[]; total: number }> {
  const base = () => {
    let q = db
      .selectFrom('access_events as e')
      .innerJoin(
        devicesOfTypes(db, viewer, ['ACCESSCONTROL'], { assetId: filter.assetId, deviceId: filter.deviceId })
          .select(deviceOpsColumns)
          .as('x'),
        'x.id',
        'e.device_id',
      )
      .where('e.tenant_id', '=', viewer.tenantId)
      .where(assetVisible(viewer, 'e.asset_id'));
    if (filter.assetId !== undefined) q = q.where('e.asset_id', '=', filter.assetId);
    if (filter.deviceId !== undefined) q = q.where('e.device_id', '=', filter.deviceId);
    if (filter.kind) q = q.where('e.kind', '=', filter.kind);
    return q;
  };
  const [rows, count] = await Promise.all([
    base()
      .select(['e.id', 'e.device_id', 'e.asset_id', 'e.door', 'e.kind', 'e.credential', 'e.at', 'x.label', 'x.metadata', 'x.site_name'])
      .orderBy('e.at', 'desc')
      .orderBy('e.id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base().select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
  ]);
  return { rows: rows as AccessEventRow[], total: count?.n ?? 0 };
}

/* ------------------------------------------------------------------ diagnostic runs */

export interface RunRow {
  id: number;
  tenant_id: number;
  device_id: number;
  asset_id: number | null;
  tool: string;
  target: string;
  status: string;
  output: string;
  started_by: number | null;
  started_at: Date;
  finished_at: Date | null;
  ticket_id: number | null;
}

export async function insertRun(
  db: Db,
  row: {
    tenant_id: number;
    device_id: number;
    asset_id: number | null;
    tool: string;
    target: string;
    started_by: number;
    started_at: Date;
  },
): Promise<RunRow> {
  return (await db.insertInto('diagnostic_runs').values(row).returningAll().executeTakeFirstOrThrow()) as RunRow;
}

export async function finishRun(db: Db, tenantId: number, id: number, values: { status: string; output: string; finished_at: Date }) {
  await db.updateTable('diagnostic_runs').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function setRunTicket(db: Db, tenantId: number, id: number, ticketId: number) {
  await db.updateTable('diagnostic_runs').set({ ticket_id: ticketId }).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** Runs of devices the viewer sees, newest first (label of the device joined). */
export async function runs(
  db: Db,
  viewer: Viewer,
  filter: { id?: number; deviceId?: number },
  page: { offset: number; limit: number },
): Promise<{ rows: (RunRow & { label: string })[]; total: number }> {
  const base = () => {
    let q = db
      .selectFrom('diagnostic_runs as r')
      .innerJoin(
        devicesOfTypes(db, viewer, ALL_TYPES, { deviceId: filter.deviceId }).select(deviceOpsColumns).as('x'),
        'x.id',
        'r.device_id',
      )
      .where('r.tenant_id', '=', viewer.tenantId);
    if (filter.id !== undefined) q = q.where('r.id', '=', filter.id);
    if (filter.deviceId !== undefined) q = q.where('r.device_id', '=', filter.deviceId);
    return q;
  };
  const [rows, count] = await Promise.all([
    base().selectAll('r').select('x.label').orderBy('r.id', 'desc').offset(page.offset).limit(page.limit).execute(),
    base().select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
  ]);
  return { rows: rows as (RunRow & { label: string })[], total: count?.n ?? 0 };
}

export const ALL_TYPES = DEVICE_TYPES;
