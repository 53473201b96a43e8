import { isIP } from 'node:net';
import type { Db } from './db.ts';

const CACHE_MS = 30_000;

/**
 * Whether a tenant's devices live on a simulated network (the demo tenants): then no network action on them
 * leaves the machine (the simulator answers, or it goes to loopback). Cached per tenant for 30 s.
 */
export function createSimulatedNetworks(db: Db) {
  const cache = new Map<number, { at: number; simulated: boolean }>();
  return async (tenantId: number): Promise<boolean> => {
    const hit = cache.get(tenantId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.simulated;
    const row = await db.selectFrom('tenants').select('simulated_network').where('id', '=', tenantId).executeTakeFirst();
    const simulated = row?.simulated_network ?? false;
    cache.set(tenantId, { at: Date.now(), simulated });
    return simulated;
  };
}
export type SimulatedNetworks = ReturnType<typeof createSimulatedNetworks>;

/** A literal loopback address or `localhost` (no lookup). */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '::ffff:127.0.0.1';
}
