import { realtime } from '../../lib/realtime.ts';

/**
 * Live status everywhere devices are shown: a pushed `device.status` or `alarm.*` event makes the device, site,
 * tree, site-summary and map queries stale, so the screens on view refetch at once instead of waiting for their
 * polling interval (SPEC 2.13 keeps polling as the fallback).
 */
for (const prefix of ['device.status', 'alarm'] as const) {
  realtime.invalidateOn(prefix, ['devices']);
  realtime.invalidateOn(prefix, ['sites']);
  realtime.invalidateOn(prefix, ['asset-tree']);
  realtime.invalidateOn(prefix, ['site-summary']);
  realtime.invalidateOn(prefix, ['map']);
}
