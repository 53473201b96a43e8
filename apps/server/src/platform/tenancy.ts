import { SERVER_MESSAGES } from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from './db.ts';
import { HttpError } from './errors.ts';

export interface Tenant {
  id: number;
  slug: string;
  name: string;
}

export interface TenancyOptions {
  defaultTenant: string;
  defaultHosts: string[];
}

const CACHE_MS = 30_000;
const SUBDOMAIN = /^([a-z0-9][a-z0-9-]{0,62})\.localhost$/;

export function hostnameOf(request: FastifyRequest): string {
  const raw = (request.headers.host ?? '').toLowerCase();
  if (raw.startsWith('[')) return raw.slice(1, raw.indexOf(']'));
  return raw.replace(/:\d+$/, '');
}

/** Resolves the tenant of a request from its host name; an unknown host is HTTP 421 (misdirected request). */
export function createTenantResolver(db: Db, options: TenancyOptions) {
  const cache = new Map<string, { tenant: Tenant | null; at: number }>();

  async function lookup(host: string): Promise<Tenant | null> {
    const query = db.selectFrom('tenants').select(['id', 'slug', 'name']);
    if (options.defaultHosts.includes(host)) {
      return (await query.where('slug', '=', options.defaultTenant).executeTakeFirst()) ?? null;
    }
    const sub = SUBDOMAIN.exec(host)?.[1];
    if (sub) return (await query.where('slug', '=', sub).executeTakeFirst()) ?? null;
    return (await query.where(sql<boolean>`${host} = any(domains)`).executeTakeFirst()) ?? null;
  }

  return {
    /** A tenant by its slug (the installation's own tenant, for install-wide notices). */
    bySlug: async (slug: string): Promise<Tenant | null> =>
      (await db.selectFrom('tenants').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst()) ?? null,
    /** Every tenant's id (background upkeep that runs per tenant). */
    ids: () =>
      db
        .selectFrom('tenants')
        .select('id')
        .execute()
        .then((rows) => rows.map((r) => r.id)),
    async resolve(host: string): Promise<Tenant> {
      const hit = cache.get(host);
      let tenant: Tenant | null;
      if (hit && Date.now() - hit.at < CACHE_MS) {
        tenant = hit.tenant;
      } else {
        tenant = await lookup(host);
        if (cache.size > 10_000) cache.clear();
        cache.set(host, { tenant, at: Date.now() });
      }
      if (!tenant) throw new HttpError(421, SERVER_MESSAGES.tenantNotFound, 'tenant_not_found');
      return tenant;
    },
    forget() {
      cache.clear();
    },
  };
}
