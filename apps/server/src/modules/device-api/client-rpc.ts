import { attributeKeyListSchema, CLIENT_RPC_METHODS, clientRpcRequestSchema } from '@sitewatch/contracts';
import type { Clock } from '../../platform/module.ts';
import type { AttributeService } from './attributes.ts';

/** Reads a JSON body; undefined when it is not JSON. */
export function readJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Device-side RPC (the device asks, the product answers): `getCurrentTime` → `{ "time": epoch ms }`,
 * `getSharedAttributes` (params `{ "keys": "a,b" }`, optional) → the device's shared attributes. Anything else is
 * answered with `{ "error": … }`, never by closing the connection.
 */
export function createClientRpc(deps: { clock: Clock; attributes: AttributeService }) {
  return async function answer(device: { id: number; tenantId: number }, body: unknown): Promise<Record<string, unknown>> {
    const request = clientRpcRequestSchema.safeParse(body);
    if (!request.success) return { error: 'Expected {"method": …, "params": …}' };
    const { method, params } = request.data;
    switch (method as (typeof CLIENT_RPC_METHODS)[number]) {
      case 'getCurrentTime':
        return { time: deps.clock.now().getTime() };
      case 'getSharedAttributes': {
        const raw = params && typeof params === 'object' ? (params as { keys?: unknown }).keys : undefined;
        const keys = raw === undefined ? undefined : attributeKeyListSchema.safeParse(raw);
        if (keys && !keys.success) return { error: 'params.keys must be a comma-separated list of keys' };
        const answer = await deps.attributes.request(device, keys ? { sharedKeys: keys.data } : {});
        return answer.shared ?? {};
      }
      default:
        return { error: `Unknown method: ${method}. Methods: ${CLIENT_RPC_METHODS.join(', ')}` };
    }
  };
}
export type ClientRpc = ReturnType<typeof createClientRpc>;
