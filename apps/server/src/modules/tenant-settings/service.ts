import { type CustomerSettings, customerSettingsSchema } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import * as repo from './repository.ts';

const SETTINGS_CACHE_MS = 5_000;

export function createCustomerService(db: Db) {
  const cache = new Map<number, { settings: CustomerSettings; at: number }>();

  async function tenantOrThrow(tenantId: number) {
    const tenant = await repo.findTenant(db, tenantId);
    if (!tenant) throw notFound();
    return tenant;
  }

  /** Stored settings over the defaults of the specification; unknown or invalid stored keys fall back. */
  async function settings(tenantId: number): Promise<CustomerSettings> {
    const hit = cache.get(tenantId);
    if (hit && Date.now() - hit.at < SETTINGS_CACHE_MS) return hit.settings;
    const tenant = await tenantOrThrow(tenantId);
    const parsed = customerSettingsSchema.safeParse(tenant.settings);
    const value = parsed.success ? parsed.data : customerSettingsSchema.parse({});
    cache.set(tenantId, { settings: value, at: Date.now() });
    return value;
  }

  return {
    settings,
    async current(tenantId: number) {
      const t = await tenantOrThrow(tenantId);
      return { id: t.id, name: t.name, slug: t.slug, logo: t.logo };
    },
    async logo(tenantId: number) {
      const t = await tenantOrThrow(tenantId);
      return { name: t.name, logo: t.logo };
    },
    async version(tenantId: number) {
      const t = await tenantOrThrow(tenantId);
      return { version: { gen4: process.env.npm_package_version ?? '0.1.0', ...t.version_info } };
    },
    async updateSettings(tenantId: number, patch: Partial<CustomerSettings>) {
      const next = customerSettingsSchema.parse({ ...(await settings(tenantId)), ...patch });
      await repo.saveSettings(db, tenantId, next);
      cache.delete(tenantId);
      return next;
    },
    alerts: (tenantId: number) => repo.listActiveAlerts(db, tenantId),
    addAlert: (tenantId: number, message: string, userId: number) => repo.insertAlert(db, tenantId, message, userId),
    async removeAlert(tenantId: number, id: number) {
      if (!(await repo.deactivateAlert(db, tenantId, id))) throw notFound();
    },
  };
}
export type CustomerService = ReturnType<typeof createCustomerService>;
