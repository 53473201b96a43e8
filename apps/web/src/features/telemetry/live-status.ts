import { realtime } from '../../lib/realtime.ts';
import { deviceKeys } from '../devices/keys.ts';
import { siteKeys } from '../sites/keys.ts';

/**
 * Live status everywhere devices are shown: a pushed `device.status` or `alarm.*` event makes the device and
 * site queries stale (the site keys cover the tree search, site summaries and map markers), so the screens on view
 * refetch at once instead of waiting for their polling interval (SPEC 2.13 keeps polling as the fallback). The
 * asset tree keeps its own nodes and refreshes them itself (asset-tree/useAlarmRefresh.ts).
 */
for (const prefix of ['device.status', 'device.health', 'alarm'] as const) {
  realtime.invalidateOn(prefix, deviceKeys.all);
  realtime.invalidateOn(prefix, siteKeys.all);
}
