import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { assetVisible, contains, countVisibleSites, SITE_FIELDS, siteNameOf, type Viewer } from '../sites/scope.ts';

/** The only SQL on the vendors' tables. Every function takes the tenant (or a viewer, which carries it). */

const vendorColumns = [
  'v.id',
  'v.tenant_id',
  'v.company',
  'v.contact_person',
  'v.email',
  'v.phone',
  'v.address',
  'v.notes',
  'v.active',
  'v.created_at',
  'v.updated_at',
] as const;

export type VendorRow = Awaited<ReturnType<typeof findVendor>> & {};

export const findVendor = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('vendors as v').select(vendorColumns).where('v.tenant_id', '=', tenantId).where('v.id', '=', id).executeTakeFirst();

/** The vendor serves at least one site the viewer sees (every vendor, for viewers who see every site). */
const servesVisibleSite = (viewer: Viewer): Expression<SqlBool> =>
  viewer.allSites
    ? sql<boolean>`true`
    : sql<boolean>`exists (select 1 from vendor_sites vs where vs.vendor_id = v.id and ${assetVisible(viewer, 'vs.asset_id')})`;

export async function visibleVendor(db: Db, viewer: Viewer, id: number) {
  return db
    .selectFrom('vendors as v')
    .select(vendorColumns)
    .where('v.tenant_id', '=', viewer.tenantId)
    .where('v.id', '=', id)
    .where(servesVisibleSite(viewer))
    .executeTakeFirst();
}

export interface VendorFilter {
  search?: string;
  site?: number;
  issueType?: number;
  active?: boolean;
}

export async function listVendors(db: Db, viewer: Viewer, f: VendorFilter, page: { offset: number; limit: number }) {
  let q = db.selectFrom('vendors as v').where('v.tenant_id', '=', viewer.tenantId).where(servesVisibleSite(viewer));
  if (f.search) {
    const pattern = contains(f.search);
    q = q.where((eb) =>
      eb.or([
        eb('v.company', 'ilike', pattern),
        eb('v.contact_person', 'ilike', pattern),
        eb('v.email', 'ilike', pattern),
        eb('v.phone', 'ilike', pattern),
      ]),
    );
  }
  if (f.site !== undefined) {
    q = q.where(
      sql<boolean>`exists (select 1 from vendor_sites fs where fs.vendor_id = v.id and fs.asset_id = ${f.site} and ${assetVisible(viewer, 'fs.asset_id')})`,
    );
  }
  if (f.issueType !== undefined) {
    q = q.where(sql<boolean>`exists (select 1 from vendor_issue_types ft where ft.vendor_id = v.id and ft.issue_type_id = ${f.issueType})`);
  }
  if (f.active !== undefined) q = q.where('v.active', '=', f.active);
  const [rows, total] = await Promise.all([
    q.select(vendorColumns).orderBy(sql`lower(v.company)`).orderBy('v.id').offset(page.offset).limit(page.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** The sites of these vendors the viewer sees, with their names. */
export async function visibleSitesOf(db: Db, viewer: Viewer, vendorIds: number[]) {
  if (vendorIds.length === 0) return [];
  return db
    .selectFrom('vendor_sites as vs')
    .select(['vs.vendor_id', 'vs.asset_id', siteNameOf('vs.asset_id').as('name')])
    .where('vs.tenant_id', '=', viewer.tenantId)
    .where('vs.vendor_id', 'in', vendorIds)
    .where(assetVisible(viewer, 'vs.asset_id'))
    .orderBy('vs.vendor_id')
    .orderBy('vs.asset_id')
    .execute();
}

export const siteIdsOf = (db: Db, tenantId: number, vendorId: number) =>
  db
    .selectFrom('vendor_sites')
    .select('asset_id')
    .where('tenant_id', '=', tenantId)
    .where('vendor_id', '=', vendorId)
    .execute()
    .then((rows) => rows.map((r) => r.asset_id));

export const servesSite = (db: Db, tenantId: number, vendorId: number, assetId: number) =>
  db
    .selectFrom('vendor_sites')
    .select('asset_id')
    .where('tenant_id', '=', tenantId)
    .where('vendor_id', '=', vendorId)
    .where('asset_id', '=', assetId)
    .executeTakeFirst()
    .then(Boolean);

export async function issueTypeIdsOf(db: Db, tenantId: number, vendorIds: number[]) {
  if (vendorIds.length === 0) return [];
  return db
    .selectFrom('vendor_issue_types')
    .select(['vendor_id', 'issue_type_id'])
    .where('tenant_id', '=', tenantId)
    .where('vendor_id', 'in', vendorIds)
    .execute();
}

export async function userIdsOf(db: Db, tenantId: number, vendorIds: number[]) {
  if (vendorIds.length === 0) return [];
  return db
    .selectFrom('vendor_users')
    .select(['vendor_id', 'user_id'])
    .where('tenant_id', '=', tenantId)
    .where('vendor_id', 'in', vendorIds)
    .orderBy('user_id')
    .execute();
}

export async function namesOf(db: Db, tenantId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('vendors').select(['id', 'company']).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
}

export const companyTaken = (db: Db, tenantId: number, company: string, exceptId: number | null) =>
  db
    .selectFrom('vendors')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(company)`, '=', company.toLowerCase())
    .$if(exceptId !== null, (q) => q.where('id', '<>', exceptId as number))
    .executeTakeFirst()
    .then(Boolean);

/** Users among these who already work for another vendor. */
export const usersOfOtherVendors = (db: Db, tenantId: number, userIds: number[], exceptId: number | null) =>
  userIds.length === 0
    ? Promise.resolve([] as number[])
    : db
        .selectFrom('vendor_users')
        .select('user_id')
        .where('tenant_id', '=', tenantId)
        .where('user_id', 'in', userIds)
        .$if(exceptId !== null, (q) => q.where('vendor_id', '<>', exceptId as number))
        .execute()
        .then((rows) => rows.map((r) => r.user_id));

/** How many of these ids are the tenant's sites the viewer sees. */
export async function countVisible(db: Db, viewer: Viewer, assetIds: number[]) {
  if (assetIds.length === 0) return 0;
  const { rows } = await countVisibleSites(viewer, [sql`${SITE_FIELDS.id} in (${sql.join(assetIds)})`]).execute(db);
  return Number(rows[0]?.n ?? 0);
}

export interface VendorValues {
  company: string;
  contact_person: string;
  email: string;
  phone: string;
  address: string;
  notes: string;
  active: boolean;
}

export const insertVendor = (db: Db, tenantId: number, values: VendorValues, now: Date) =>
  db
    .insertInto('vendors')
    .values({ tenant_id: tenantId, ...values, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

export const updateVendor = (db: Db, tenantId: number, id: number, values: VendorValues, now: Date) =>
  db
    .updateTable('vendors')
    .set({ ...values, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();

export const deleteVendor = (db: Db, tenantId: number, id: number) =>
  db
    .deleteFrom('vendors')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numDeletedRows) === 1);

/** Locks the vendor row for the rest of the transaction. */
export const lockVendor = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('vendors').select('id').where('tenant_id', '=', tenantId).where('id', '=', id).forUpdate().executeTakeFirst();

export async function replaceLinks(
  db: Db,
  tenantId: number,
  vendorId: number,
  links: { assetIds: number[]; issueTypeIds: number[]; userIds: number[] },
) {
  await db.deleteFrom('vendor_sites').where('tenant_id', '=', tenantId).where('vendor_id', '=', vendorId).execute();
  await db.deleteFrom('vendor_issue_types').where('tenant_id', '=', tenantId).where('vendor_id', '=', vendorId).execute();
  await db.deleteFrom('vendor_users').where('tenant_id', '=', tenantId).where('vendor_id', '=', vendorId).execute();
  if (links.assetIds.length)
    await db
      .insertInto('vendor_sites')
      .values(links.assetIds.map((asset_id) => ({ tenant_id: tenantId, vendor_id: vendorId, asset_id })))
      .execute();
  if (links.issueTypeIds.length)
    await db
      .insertInto('vendor_issue_types')
      .values(links.issueTypeIds.map((issue_type_id) => ({ tenant_id: tenantId, vendor_id: vendorId, issue_type_id })))
      .execute();
  if (links.userIds.length)
    await db
      .insertInto('vendor_users')
      .values(links.userIds.map((user_id) => ({ tenant_id: tenantId, vendor_id: vendorId, user_id })))
      .execute();
}

export const vendorOfUser = (db: Db, tenantId: number, userId: number) =>
  db
    .selectFrom('vendor_users')
    .select('vendor_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
    .then((r) => r?.vendor_id ?? null);
