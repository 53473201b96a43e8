import {
  type CustomerSettings,
  customerSettingsSchema,
  OUTBOUND_NETWORKS_MESSAGES,
  type OutboundNetworksAnswer,
} from '@sitewatch/contracts';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { invalidNetworkEntries, type OutboundNetworks } from '../../platform/outbound-networks.ts';
import { sharedResponse } from '../../platform/validation.ts';
import * as repo from './repository.ts';

/**
 * Tenant rows (name, logo, version, settings) are read on almost every request and change rarely: they are kept
 * for this long. A change made through this process is seen at once; one made by another process within this time.
 */
const TENANT_CACHE_MS = 5_000;

type TenantRow = NonNullable<Awaited<ReturnType<typeof repo.findTenant>>>;

export function createCustomerService(db: Db, outbound: OutboundNetworks) {
  const cache = new Map<number, Entry>();
  type Entry = { tenant: TenantRow; settings: CustomerSettings; at: number; answers: Map<string, object> };

  /** An answer built from a cache entry once and shared by the requests that read it while the entry lives. */
  function answer<T extends object>(entry: Entry, name: string, make: () => T): T {
    let made = entry.answers.get(name) as T | undefined;
    if (!made) {
      made = sharedResponse(make());
      entry.answers.set(name, made);
    }
    return made;
  }

  async function cached(tenantId: number) {
    const hit = cache.get(tenantId);
    if (hit && Date.now() - hit.at < TENANT_CACHE_MS) return hit;
    const tenant = await repo.findTenant(db, tenantId);
    if (!tenant) throw notFound();
    // Stored settings over the defaults of the specification; unknown or invalid stored keys fall back.
    const parsed = customerSettingsSchema.safeParse(tenant.settings);
    const entry: Entry = {
      tenant,
      settings: parsed.success ? parsed.data : customerSettingsSchema.parse({}),
      at: Date.now(),
      answers: new Map(),
    };
    if (cache.size > 10_000) cache.clear();
    cache.set(tenantId, entry);
    return entry;
  }

  const settings = async (tenantId: number): Promise<CustomerSettings> => (await cached(tenantId)).settings;

  return {
    settings,
    /** GET /iotapp/customer-settings/'s answer. */
    async settingsAnswer(tenantId: number) {
      const entry = await cached(tenantId);
      return answer(entry, 'settings', () => ({ settings: entry.settings }));
    },
    async current(tenantId: number) {
      const entry = await cached(tenantId);
      const t = entry.tenant;
      return answer(entry, 'current', () => ({ id: t.id, name: t.name, slug: t.slug, logo: t.logo }));
    },
    async logo(tenantId: number) {
      const entry = await cached(tenantId);
      return answer(entry, 'logo', () => ({ name: entry.tenant.name, logo: entry.tenant.logo }));
    },
    async version(tenantId: number) {
      const entry = await cached(tenantId);
      return answer(entry, 'version', () => ({
        version: { gen4: process.env.npm_package_version ?? '0.1.0', ...entry.tenant.version_info },
      }));
    },
    async updateSettings(origin: AuditOrigin, patch: Partial<CustomerSettings>) {
      const before = await settings(origin.tenantId);
      const next = customerSettingsSchema.parse({ ...before, ...patch });
      const change = changedFields(before, next);
      await db.transaction().execute(async (trx) => {
        await repo.saveSettings(trx, origin.tenantId, next);
        if (Object.keys(change.after).length)
          await writeActivity(trx, origin, {
            action: 'customer-settings.update',
            object: { type: 'customer-settings', id: origin.tenantId },
            ...change,
          });
      });
      cache.delete(origin.tenantId);
      return next;
    },
    async outboundNetworks(tenantId: number): Promise<OutboundNetworksAnswer> {
      return { networks: await repo.outboundNetworksOf(db, tenantId), installDefault: [...outbound.installDefault] };
    },
    /** The system administrator sets the networks the tenant's devices may be dialled in (null: the install's default). */
    async setOutboundNetworks(origin: AuditOrigin, networks: string[] | null): Promise<OutboundNetworksAnswer> {
      const list = networks === null ? null : [...new Set(networks)];
      const invalid = list ? invalidNetworkEntries(list) : [];
      if (invalid.length) throw badRequest(OUTBOUND_NETWORKS_MESSAGES.invalid(invalid[0] as string));
      await db.transaction().execute(async (trx) => {
        const before = await repo.outboundNetworksOf(trx, origin.tenantId);
        await repo.saveOutboundNetworks(trx, origin.tenantId, list);
        await writeActivity(trx, origin, {
          action: 'outbound-networks.update',
          object: { type: 'customer-settings', id: origin.tenantId },
          before: { networks: before },
          after: { networks: list },
        });
      });
      outbound.changed(origin.tenantId);
      return this.outboundNetworks(origin.tenantId);
    },
    alerts: (tenantId: number) => repo.listActiveAlerts(db, tenantId),
    addAlert: (origin: AuditOrigin, message: string) =>
      db.transaction().execute(async (trx) => {
        const alert = await repo.insertAlert(trx, origin.tenantId, message, origin.userId);
        await writeActivity(trx, origin, {
          action: 'system-alert.create',
          object: { type: 'system-alert', id: alert.id },
          after: { message },
        });
        return alert;
      }),
    async removeAlert(origin: AuditOrigin, id: number) {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deactivateAlert(trx, origin.tenantId, id))) throw notFound();
        await writeActivity(trx, origin, { action: 'system-alert.delete', object: { type: 'system-alert', id } });
      });
    },
  };
}
export type CustomerService = ReturnType<typeof createCustomerService>;
