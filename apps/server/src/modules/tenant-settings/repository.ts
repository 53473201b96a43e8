import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

export const findTenant = (db: Db, tenantId: number) =>
  db.selectFrom('tenants').select(['id', 'slug', 'name', 'logo', 'settings', 'version_info']).where('id', '=', tenantId).executeTakeFirst();

export const saveSettings = (db: Db, tenantId: number, settings: Record<string, unknown>) =>
  db
    .updateTable('tenants')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', tenantId)
    .execute();

export const listActiveAlerts = (db: Db, tenantId: number) =>
  db
    .selectFrom('system_alerts')
    .select(['id', 'message'])
    .where('tenant_id', '=', tenantId)
    .where('active', '=', true)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();

export const insertAlert = (db: Db, tenantId: number, message: string, createdBy: number | null) =>
  db
    .insertInto('system_alerts')
    .values({ tenant_id: tenantId, message, created_by: createdBy })
    .returning(['id', 'message'])
    .executeTakeFirstOrThrow();

export const deactivateAlert = (db: Db, tenantId: number, id: number) =>
  db
    .updateTable('system_alerts')
    .set({ active: sql`false` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('active', '=', true)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) > 0);

export const outboundNetworksOf = async (db: Db, tenantId: number) =>
  (await db.selectFrom('tenants').select('outbound_networks').where('id', '=', tenantId).executeTakeFirst())?.outbound_networks ?? null;

export const saveOutboundNetworks = (db: Db, tenantId: number, networks: string[] | null) =>
  db.updateTable('tenants').set({ outbound_networks: networks }).where('id', '=', tenantId).execute();
