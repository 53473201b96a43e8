import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { siteNames } from '../sites/scope.ts';

/**
 * The devices table as device traffic sees it: look a device up by its access token, record activity and the latest
 * state in batches, flip status (Online / Offline), and read the toggles the alarm engine obeys.
 * Telemetry ingest and the alarm engine call it; the devices module owns the SQL.
 */

export interface IngestDevice {
  id: number;
  tenantId: number;
  label: string;
  type: string;
  templateId: number | null;
  assetId: number | null;
  status: string;
  token: string;
  /** Value type per key from the device's template. */
  keyTypes: Map<string, 'number' | 'boolean' | 'string'> | undefined;
}

export interface DeviceFlags {
  id: number;
  tenantId: number;
  label: string;
  type: string;
  templateId: number | null;
  assetId: number | null;
  assetLabel: string | null;
  status: string;
  alarmStatus: string | null;
  lastActivityAt: Date | null;
  muteDevice: boolean;
  maintenance: boolean;
  enableDevice: boolean;
}

export interface ActivityUpdate {
  deviceId: number;
  lastTs: number;
  /** Latest value per key in this batch (merged into the device's stored state). */
  state: Record<string, unknown>;
  /** The device may not be Online yet: it becomes Online. */
  online: boolean;
}

export interface ActivityRow {
  id: number;
  tenant_id: number;
  label: string;
  asset_id: number | null;
  turned_online: boolean;
}

export interface StatusChange {
  id: number;
  tenantId: number;
  label: string;
  assetId: number | null;
  status: string;
}

/** The columns toFlags reads. */
const SELECT_FLAGS = sql`
  select d.id, d.tenant_id, d.label, d.type, d.template_id, d.asset_id, a.name as asset_label, d.status, d.alarm_status,
         d.last_activity_at, d.metadata
  from devices d left join ${siteNames} a on a.id = d.asset_id`;

const toFlags = (r: Record<string, unknown>): DeviceFlags => {
  const metadata = (r.metadata ?? {}) as Record<string, unknown>;
  return {
    id: r.id as number,
    tenantId: r.tenant_id as number,
    label: r.label as string,
    type: r.type as string,
    templateId: (r.template_id as number | null) ?? null,
    assetId: (r.asset_id as number | null) ?? null,
    assetLabel: (r.asset_label as string | null) ?? null,
    status: r.status as string,
    alarmStatus: (r.alarm_status as string | null) ?? null,
    lastActivityAt: r.last_activity_at ? new Date(r.last_activity_at as string) : null,
    muteDevice: metadata.muteDevice === true,
    maintenance: metadata.maintenance === true,
    enableDevice: metadata.enableDevice !== false,
  };
};

export function createDeviceActivityRepository(db: Db) {
  return {
    async byToken(token: string): Promise<IngestDevice | null> {
      const row = await db
        .selectFrom('devices as d')
        .leftJoin('device_templates as t', 't.id', 'd.template_id')
        .select(['d.id', 'd.tenant_id', 'd.label', 'd.type', 'd.template_id', 'd.asset_id', 'd.status', 'd.access_token', 't.telemetry'])
        .where('d.access_token', '=', token)
        .executeTakeFirst();
      if (!row) return null;
      const keyTypes =
        Array.isArray(row.telemetry) && row.telemetry.length ? new Map(row.telemetry.map((k) => [k.key, k.valueType] as const)) : undefined;
      return {
        id: row.id,
        tenantId: row.tenant_id,
        label: row.label,
        type: row.type,
        templateId: row.template_id,
        assetId: row.asset_id,
        status: row.status,
        token: row.access_token,
        keyTypes,
      };
    },

    /** Which of these tokens still belong to a device (revocation check of connected clients). */
    async liveTokens(tokens: string[]): Promise<Set<string>> {
      if (tokens.length === 0) return new Set();
      const rows = await db.selectFrom('devices').select('access_token').where('access_token', 'in', tokens).execute();
      return new Set(rows.map((r) => r.access_token));
    },

    /**
     * The devices part of one ingest batch, as a statement for ingest to run inside its single statement per batch:
     * last activity and merged state of the devices that are due, and those flagged `online` become Online.
     * Its rows tell which devices turned Online (for device.status events).
     */
    activityStatement(updates: ActivityUpdate[]) {
      const ids = updates.map((u) => u.deviceId);
      const times = updates.map((u) => u.lastTs);
      const states = updates.map((u) => JSON.stringify(u.state));
      const online = updates.map((u) => u.online);
      return sql<ActivityRow>`
        update devices d set
          last_activity_at = greatest(d.last_activity_at, v.ts),
          -- writes of one device may commit out of order: the older one does not overwrite the newer values
          state = case when v.ts >= coalesce(d.state_updated_at, '-infinity') then d.state || v.state else v.state || d.state end,
          state_updated_at = greatest(d.state_updated_at, v.ts),
          status = case when v.online then 'Online' else d.status end,
          updated_at = case when v.online and prev.status <> 'Online' then now() else d.updated_at end
        from (select u.id, to_timestamp(u.ms / 1000) as ts, u.state, u.online
              from unnest(${ids}::int[], ${times}::float8[], ${states}::jsonb[], ${online}::bool[]) as u(id, ms, state, online)) v
          join devices prev on prev.id = v.id
        where d.id = v.id
        returning d.id, d.tenant_id, d.label, d.asset_id, (v.online and prev.status <> 'Online') as turned_online`;
    },

    /** Marks Offline every Online device silent for longer than the timeout; returns them. */
    async markInactiveOffline(timeoutSeconds: number): Promise<StatusChange[]> {
      const { rows } = await sql<{ id: number; tenant_id: number; label: string; asset_id: number | null }>`
        update devices set status = 'Offline', updated_at = now()
        where status = 'Online' and (last_activity_at is null or last_activity_at < now() - make_interval(secs => ${timeoutSeconds}))
        returning id, tenant_id, label, asset_id`.execute(db);
      return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, label: r.label, assetId: r.asset_id, status: 'Offline' }));
    },

    /** Devices of any tenant that declare one of these addresses (`metadata.ipAddress`): SNMP traps find their device by it. */
    /** The tenant's devices declaring this address (`metadata.ipAddress`), oldest first. */
    async byAddress(tenantId: number, address: string): Promise<DeviceFlags[]> {
      const { rows } = await sql<Record<string, unknown>>`
        ${SELECT_FLAGS}
        where d.metadata->>'ipAddress' = ${address} and d.tenant_id = ${tenantId}
        order by d.id`.execute(db);
      return rows.map(toFlags);
    },

    async flags(tenantId: number, deviceIds: number[]): Promise<DeviceFlags[]> {
      if (deviceIds.length === 0) return [];
      const { rows } = await sql<Record<string, unknown>>`
        ${SELECT_FLAGS}
        where d.tenant_id = ${tenantId} and d.id = any(${deviceIds}::int[])`.execute(db);
      return rows.map(toFlags);
    },

    /** Devices that inactivity rules watch: of the given types/templates, silent since before `silentSince`. */
    async silentDevices(tenantId: number, types: string[], templateIds: number[], silentSince: Date): Promise<DeviceFlags[]> {
      const { rows } = await sql<Record<string, unknown>>`
        ${SELECT_FLAGS}
        where d.tenant_id = ${tenantId}
          and (d.type = any(${types}::text[]) or d.template_id = any(${templateIds}::int[]))
          and d.last_activity_at is not null and d.last_activity_at < ${silentSince.toISOString()}::timestamptz`.execute(db);
      return rows.map(toFlags);
    },

    async get(tenantId: number, deviceId: number) {
      return db
        .selectFrom('devices')
        .select(['id', 'tenant_id', 'label', 'type', 'status', 'last_activity_at', 'access_token', 'asset_id'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', deviceId)
        .executeTakeFirst();
    },
  };
}
export type DeviceActivityRepository = ReturnType<typeof createDeviceActivityRepository>;
