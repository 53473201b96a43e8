import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { assetVisible, contains, siteNameOf, type Viewer } from '../sites/scope.ts';

export interface EquipmentFilter {
  search?: string;
  assetId?: number;
  category?: string;
  status?: string;
  warranty?: 'expiring' | 'expired' | 'valid';
  deviceId?: number;
}

export interface EquipmentValues {
  asset_id: number;
  name: string;
  category: string;
  make: string;
  model: string;
  serial: string;
  install_date: string | null;
  warranty_until: string | null;
  device_id: number | null;
  notes: string;
  status: string;
}

const columns = [
  'e.id',
  'e.tenant_id',
  'e.asset_id',
  'e.name',
  'e.category',
  'e.make',
  'e.model',
  'e.serial',
  sql<string | null>`to_char(e.install_date, 'YYYY-MM-DD')`.as('install_date'),
  sql<string | null>`to_char(e.warranty_until, 'YYYY-MM-DD')`.as('warranty_until'),
  'e.device_id',
  'e.notes',
  'e.status',
  'e.created_at',
  'e.updated_at',
  siteNameOf('e.asset_id').as('site_name'),
] as const;

function filtered(db: Db, viewer: Viewer, f: EquipmentFilter, today: string, soon: string) {
  const where: Expression<SqlBool>[] = [assetVisible(viewer, 'e.asset_id')];
  if (f.assetId !== undefined) where.push(sql<boolean>`e.asset_id = ${f.assetId}`);
  if (f.category) where.push(sql<boolean>`e.category = ${f.category}`);
  if (f.status) where.push(sql<boolean>`e.status = ${f.status}`);
  if (f.deviceId !== undefined) where.push(sql<boolean>`e.device_id = ${f.deviceId}`);
  if (f.warranty === 'expired') where.push(sql<boolean>`e.warranty_until < ${today}::date`);
  if (f.warranty === 'expiring') where.push(sql<boolean>`e.warranty_until >= ${today}::date and e.warranty_until <= ${soon}::date`);
  if (f.warranty === 'valid') where.push(sql<boolean>`e.warranty_until >= ${today}::date`);
  if (f.search) {
    const like = contains(f.search);
    where.push(
      sql<boolean>`(e.name ilike ${like} or e.serial ilike ${like} or e.make ilike ${like} or e.model ilike ${like} or ${siteNameOf('e.asset_id')} ilike ${like})`,
    );
  }
  return db
    .selectFrom('equipment as e')
    .where('e.tenant_id', '=', viewer.tenantId)
    .where((eb) => eb.and(where));
}

export const listEquipment = (
  db: Db,
  viewer: Viewer,
  f: EquipmentFilter,
  dates: { today: string; soon: string },
  page: { offset: number; limit: number },
) =>
  filtered(db, viewer, f, dates.today, dates.soon)
    .select(columns)
    .orderBy('e.name')
    .orderBy('e.id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();

export type EquipmentRow = Awaited<ReturnType<typeof listEquipment>>[number];

export const countEquipment = async (db: Db, viewer: Viewer, f: EquipmentFilter, dates: { today: string; soon: string }) =>
  Number(
    (
      await filtered(db, viewer, f, dates.today, dates.soon)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findEquipment = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('equipment as e').select(columns).where('e.tenant_id', '=', tenantId).where('e.id', '=', id).executeTakeFirst();

export const insertEquipment = (db: Db, tenantId: number, values: EquipmentValues, createdBy: number, at: Date) =>
  db
    .insertInto('equipment')
    .values({ tenant_id: tenantId, ...values, created_by: createdBy, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();

export const updateEquipment = (db: Db, tenantId: number, id: number, values: EquipmentValues, at: Date) =>
  db
    .updateTable('equipment')
    .set({ ...values, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();

export const deleteEquipment = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('equipment').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

/** Per site the viewer sees: counts by status, linked devices, warranties expiring soon and expired. */
export const overview = (db: Db, viewer: Viewer, dates: { today: string; soon: string }) =>
  db
    .selectFrom('equipment as e')
    .where('e.tenant_id', '=', viewer.tenantId)
    .where(assetVisible(viewer, 'e.asset_id'))
    .select([
      'e.asset_id',
      sql<string | null>`max(${siteNameOf('e.asset_id')})`.as('site_name'),
      sql<number>`count(*)`.as('total'),
      sql<number>`count(*) filter (where e.status = 'ACTIVE')`.as('active'),
      sql<number>`count(*) filter (where e.status = 'UNDER_MAINTENANCE')`.as('under_maintenance'),
      sql<number>`count(*) filter (where e.status = 'RETIRED')`.as('retired'),
      sql<number>`count(e.device_id)`.as('linked'),
      sql<number>`count(*) filter (where e.warranty_until >= ${dates.today}::date and e.warranty_until <= ${dates.soon}::date)`.as(
        'expiring',
      ),
      sql<number>`count(*) filter (where e.warranty_until < ${dates.today}::date)`.as('expired'),
    ])
    .groupBy('e.asset_id')
    .orderBy(sql`2`)
    .limit(2000)
    .execute();
