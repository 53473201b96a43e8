import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { contains } from './scope.ts';

/** SQL of the customers (organisations owning sites) and their device-provisioning credentials. */

export interface CustomerValues {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  country: string | null;
}

const ORDER = { name: sql`lower(c.name)`, createdAt: sql`c.created_at`, siteCount: sql`site_count` } as const;

const columns = (db: Db) =>
  db
    .selectFrom('customers as c')
    .select([
      'c.id',
      'c.name',
      'c.email',
      'c.phone',
      'c.address',
      'c.city',
      'c.country',
      'c.created_at',
      'c.updated_at',
      sql<number>`(select count(*) from assets a where a.tenant_id = c.tenant_id and a.customer_id = c.id)::int`.as('site_count'),
    ]);

export async function listCustomers(
  db: Db,
  tenantId: number,
  q: { page: number; limit: number; searchText?: string; orderBy: string; ids?: number[] },
) {
  let base = db.selectFrom('customers as c').where('c.tenant_id', '=', tenantId);
  if (q.searchText) {
    const pattern = contains(q.searchText);
    base = base.where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('c.city', 'ilike', pattern), eb('c.email', 'ilike', pattern)]));
  }
  if (q.ids?.length) base = base.where('c.id', 'in', q.ids);
  const key = q.orderBy.replace('-', '') as keyof typeof ORDER;
  const [rows, total] = await Promise.all([
    columns(db)
      .where('c.tenant_id', '=', tenantId)
      .$if(Boolean(q.searchText), (qb) => {
        const pattern = contains(q.searchText as string);
        return qb.where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('c.city', 'ilike', pattern), eb('c.email', 'ilike', pattern)]));
      })
      .$if(Boolean(q.ids?.length), (qb) => qb.where('c.id', 'in', q.ids as number[]))
      .orderBy(ORDER[key], q.orderBy.startsWith('-') ? 'desc' : 'asc')
      .orderBy('c.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export const findCustomer = (db: Db, tenantId: number, id: number) =>
  columns(db).where('c.tenant_id', '=', tenantId).where('c.id', '=', id).executeTakeFirst();

export const customerNameTaken = (db: Db, tenantId: number, name: string, exceptId?: number) =>
  db
    .selectFrom('customers')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId as number))
    .executeTakeFirst()
    .then(Boolean);

export const insertCustomer = (db: Db, tenantId: number, values: CustomerValues, credentials: { key: string; secret: string }) =>
  db
    .insertInto('customers')
    .values({ tenant_id: tenantId, ...values, provision_key: credentials.key, provision_secret: credentials.secret })
    .returning('id')
    .executeTakeFirstOrThrow();

export const updateCustomer = (db: Db, tenantId: number, id: number, values: CustomerValues) =>
  db
    .updateTable('customers')
    .set({ ...values, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) > 0);

export const deleteCustomer = (db: Db, tenantId: number, id: number) =>
  db
    .deleteFrom('customers')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numDeletedRows) > 0);

export const customerCredentials = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('customers')
    .select(['id', 'provision_key', 'provision_secret', 'secret_rotated_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();

export const rotateSecret = (db: Db, tenantId: number, id: number, secret: string) =>
  db
    .updateTable('customers')
    .set({ provision_secret: secret, secret_rotated_at: sql`now()`, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) > 0);

export const setProvisionCredentials = (db: Db, tenantId: number, id: number, set: { key?: string; secret?: string }) =>
  db
    .updateTable('customers')
    .set({
      ...(set.key !== undefined ? { provision_key: set.key } : {}),
      ...(set.secret !== undefined ? { provision_secret: set.secret, secret_rotated_at: sql`now()` } : {}),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) > 0);

/** Device self-provisioning: the customer whose key the device presents (keys are unique across tenants). */
export const customerByProvisionKey = (db: Db, key: string) =>
  db.selectFrom('customers').select(['id', 'tenant_id', 'provision_secret']).where('provision_key', '=', key).executeTakeFirst();
