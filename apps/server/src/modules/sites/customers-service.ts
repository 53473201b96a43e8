import { ASSET_MESSAGES, type SiteCustomer } from '@sitewatch/contracts';
import type { Config } from '../../config.ts';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import * as repo from './customers-repository.ts';
import { isoOf } from './scope.ts';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findCustomer>>>;

const toCustomer = (row: Row): SiteCustomer => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  address: row.address,
  city: row.city,
  country: row.country,
  siteCount: row.site_count,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** A customer's fields as its activity log entries show them (never its provisioning secret). */
const recordOf = (v: repo.CustomerValues) => ({
  name: v.name,
  email: v.email,
  phone: v.phone,
  address: v.address,
  city: v.city,
  country: v.country,
});

/** Customers are the organisations that own sites; each has the credentials its devices provision themselves with. */
export function createSiteCustomerService(db: Db, config: Pick<Config, 'publicUrl' | 'port' | 'mqtt'>) {
  async function get(tenantId: number, id: number) {
    const row = await repo.findCustomer(db, tenantId, id);
    if (!row) throw notFound();
    return row;
  }
  return {
    async list(tenantId: number, q: Parameters<typeof repo.listCustomers>[2]) {
      const { rows, total } = await repo.listCustomers(db, tenantId, q);
      return { contents: rows.map(toCustomer), totalCount: total };
    },
    detail: async (tenantId: number, id: number) => toCustomer(await get(tenantId, id)),
    async create(tenantId: number, input: Partial<repo.CustomerValues> & { name: string }, origin: AuditOrigin | null) {
      const values: repo.CustomerValues = {
        name: input.name,
        email: input.email ?? null,
        phone: input.phone ?? null,
        address: input.address ?? null,
        city: input.city ?? null,
        country: input.country ?? null,
      };
      if (await repo.customerNameTaken(db, tenantId, values.name)) throw conflict(ASSET_MESSAGES.customerExists, 'customer_exists');
      const { id } = await db.transaction().execute(async (trx) => {
        const created = await repo.insertCustomer(trx, tenantId, values, { key: randomToken(15), secret: randomToken(24) });
        if (origin)
          await writeActivity(trx, origin, {
            action: 'customer.create',
            object: { type: 'customer', id: created.id },
            after: recordOf(values),
          });
        return created;
      });
      return toCustomer(await get(tenantId, id));
    },
    async update(tenantId: number, id: number, patch: Partial<repo.CustomerValues>, origin: AuditOrigin | null) {
      const current = await get(tenantId, id);
      const next: repo.CustomerValues = {
        name: patch.name ?? current.name,
        email: patch.email !== undefined ? patch.email : current.email,
        phone: patch.phone !== undefined ? patch.phone : current.phone,
        address: patch.address !== undefined ? patch.address : current.address,
        city: patch.city !== undefined ? patch.city : current.city,
        country: patch.country !== undefined ? patch.country : current.country,
      };
      if (await repo.customerNameTaken(db, tenantId, next.name, id)) throw conflict(ASSET_MESSAGES.customerExists, 'customer_exists');
      await db.transaction().execute(async (trx) => {
        await repo.updateCustomer(trx, tenantId, id, next);
        if (origin)
          await writeActivity(trx, origin, {
            action: 'customer.update',
            object: { type: 'customer', id },
            ...changedFields(recordOf(current), recordOf(next)),
          });
      });
      return toCustomer(await get(tenantId, id));
    },
    async remove(tenantId: number, id: number, origin: AuditOrigin | null) {
      const current = await get(tenantId, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deleteCustomer(trx, tenantId, id))) throw notFound();
        if (origin)
          await writeActivity(trx, origin, { action: 'customer.delete', object: { type: 'customer', id }, before: recordOf(current) });
      });
    },
    /** Where the customer's devices connect (host as the caller reached us) and the provisioning pair. */
    async credentials(tenantId: number, id: number, requestHost: string, secure: boolean, shownOnce?: string) {
      const row = await repo.customerCredentials(db, tenantId, id);
      if (!row) throw notFound();
      const base = config.publicUrl ?? `${secure ? 'https' : 'http'}://${requestHost}`;
      const hostname = new URL(base).hostname;
      return {
        customerId: row.id,
        mqttUrl: config.mqtt.url ?? `mqtt://${hostname}:${config.mqtt.port}`,
        httpUrl: `${base}/api/v1/{accessToken}/telemetry`,
        provisionDeviceKey: row.provision_key,
        provisionDeviceSecretSet: row.provision_secret.length > 0,
        ...(shownOnce !== undefined ? { provisionDeviceSecret: shownOnce } : {}),
        secretRotatedAt: isoOf(row.secret_rotated_at),
      };
    },
    /** A new random secret; the caller answers it this once. */
    async rotate(tenantId: number, id: number, origin: AuditOrigin): Promise<string> {
      const secret = randomToken(24);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.rotateSecret(trx, tenantId, id, secret))) throw notFound();
        await writeActivity(trx, origin, { action: 'customer.iot-fw-cred.rotate', object: { type: 'customer', id } });
      });
      return secret;
    },
    /** A tenant administrator's own provisioning key or secret; the secret is recorded only as changed. */
    async setCredentials(
      tenantId: number,
      id: number,
      input: { provisionDeviceKey?: string; provisionDeviceSecret?: string },
      origin: AuditOrigin,
    ) {
      const before = await repo.customerCredentials(db, tenantId, id);
      if (!before) throw notFound();
      const key = input.provisionDeviceKey;
      if (key !== undefined && key !== before.provision_key && (await repo.customerByProvisionKey(db, key)))
        throw conflict('This provision device key is taken: choose another', 'provision_key_taken');
      try {
        await db.transaction().execute(async (trx) => {
          await repo.setProvisionCredentials(trx, tenantId, id, { key, secret: input.provisionDeviceSecret });
          await writeActivity(trx, origin, {
            action: 'customer.iot-fw-cred.update',
            object: { type: 'customer', id },
            before: { provisionDeviceKey: before.provision_key },
            after: {
              provisionDeviceKey: key ?? before.provision_key,
              provisionDeviceSecret: input.provisionDeviceSecret !== undefined ? 'changed' : 'unchanged',
            },
          });
        });
      } catch (error) {
        if ((error as { code?: string })?.code === '23505')
          throw conflict('This provision device key is taken: choose another', 'provision_key_taken');
        throw error;
      }
    },
    byProvisionKey: (key: string) => repo.customerByProvisionKey(db, key),
  };
}
export type SiteCustomerService = ReturnType<typeof createSiteCustomerService>;
