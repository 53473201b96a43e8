import { cidrList, parseCidr } from './cidr.ts';
import type { Db } from './db.ts';
import { addressAllowed } from './outbound-guard.ts';

/** The entry that stands for every public address (what the install-wide guard allows in `public` mode). */
export const PUBLIC_NETWORKS = 'public';
/** A tenant's list is kept this long; a change made through this process is seen at once. */
const CACHE_MS = 30_000;

/** Whether an address is in the networks a tenant's devices may live in. */
export interface NetworkMatcher {
  allows(address: string): boolean;
}

/** The entries that do not parse (neither `public` nor an address or CIDR). */
export function invalidNetworkEntries(entries: readonly string[]): string[] {
  return entries.filter((e) => e !== PUBLIC_NETWORKS && parseCidr(e) === null);
}

/** `public,10.1.0.0/16 192.168.5.0/24`: entries separated by commas or spaces (the OUTBOUND_NETWORKS form). */
export function splitNetworkList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);
}

export function networkMatcher(entries: readonly string[]): NetworkMatcher {
  const publicAllowed = entries.includes(PUBLIC_NETWORKS);
  const listed = cidrList(entries.filter((e) => e !== PUBLIC_NETWORKS));
  return { allows: (address) => listed.has(address) || (publicAllowed && addressAllowed(address, 'public')) };
}

/**
 * The networks each tenant's devices may be dialled in (device diagnostics, camera streams, SNMP polls and trap
 * destinations), set per tenant by the system administrator; a tenant without its own list has the install's
 * default (OUTBOUND_NETWORKS). This narrows the install-wide guard, it never widens it.
 */
export function createOutboundNetworks(db: Db, installDefault: readonly string[]) {
  const cache = new Map<number, { at: number; own: string[] | null }>();
  const listeners = new Set<(tenantId: number) => void>();

  async function own(tenantId: number): Promise<string[] | null> {
    const hit = cache.get(tenantId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.own;
    const row = await db.selectFrom('tenants').select('outbound_networks').where('id', '=', tenantId).executeTakeFirst();
    const list = row?.outbound_networks ?? null;
    if (cache.size > 10_000) cache.clear();
    cache.set(tenantId, { at: Date.now(), own: list });
    return list;
  }

  return {
    installDefault,
    /** The tenant's own list (null: the install's default). */
    own,
    async of(tenantId: number): Promise<NetworkMatcher> {
      return networkMatcher((await own(tenantId)) ?? installDefault);
    },
    /** After the tenant's list changed (stored by the tenant settings): reread it, reopen what was open. */
    changed(tenantId: number) {
      cache.delete(tenantId);
      for (const listener of listeners) listener(tenantId);
    },
    onChange(listener: (tenantId: number) => void) {
      listeners.add(listener);
    },
  };
}
export type OutboundNetworks = ReturnType<typeof createOutboundNetworks>;
