import {
  ACCESS_TOKEN_PLACEHOLDER,
  type ChartQuery,
  type ChartResponse,
  DEVICE_TOPICS,
  type DeviceConnection,
  type DeviceRateLimitsUpdate,
  type LatestResponse,
  RATE_LIMIT_KEYS,
  ROLES_SEEING_ALL_SITES,
} from '@sitewatch/contracts';
import type { Config } from '../../config.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { DeviceActivityRepository } from '../devices/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { Reading } from './parse.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { TelemetryRepository } from './repository.ts';

const NICE_INTERVALS = [1, 5, 10, 30, 60, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400, 604800];
/** Bucket width giving at most ~500 buckets over the range. */
export function autoInterval(rangeMs: number): number {
  const wanted = Math.ceil(rangeMs / 1000 / 500);
  return NICE_INTERVALS.find((n) => n >= wanted) ?? Math.ceil(wanted / 86400) * 86400;
}

const seesAll = (auth: AuthContext) => auth.roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r));
/** Who may see a device's credential: the roles that administer devices. */
export const mayManageDevices = (auth: AuthContext) => seesAll(auth);

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Quotes a word for the shell with the token placeholder left for the shell to expand (and nothing else). */
const quoteWithToken = (s: string) =>
  s
    .split(ACCESS_TOKEN_PLACEHOLDER)
    .map((part) => (part ? shellQuote(part) : ''))
    .join(`"${ACCESS_TOKEN_PLACEHOLDER}"`);

export function createTelemetryService(deps: {
  repo: TelemetryRepository;
  link: DeviceActivityRepository;
  directory: SiteDirectory;
  config: Pick<Config, 'mqtt'>;
  limiter: RateLimiter;
  /** Latest values this process stored but has not yet written to the latest-values table (ingest's coalescing). */
  pendingLatest: (tenantId: number, deviceId: number) => Reading[];
}) {
  const { repo, link, directory, config } = deps;

  /** The stored latest values with those still waiting for the coalesced write laid over them (newest per key). */
  function withPending<R extends { key: string; ts: Date | string; value: unknown }>(
    tenantId: number,
    deviceId: number,
    rows: R[],
    make: (r: Reading) => R,
    keys?: string[],
  ): R[] {
    const pending = deps.pendingLatest(tenantId, deviceId);
    if (pending.length === 0) return rows;
    const byKey = new Map(rows.map((r) => [r.key, r]));
    for (const p of pending) {
      if (keys?.length && !keys.includes(p.key)) continue;
      const stored = byKey.get(p.key);
      if (!stored || new Date(stored.ts).getTime() <= p.ts) byKey.set(p.key, make(p));
    }
    return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The device, if the caller's tenant owns it and the caller may see its site. */
  async function visibleDevice(auth: AuthContext, deviceId: number) {
    const device = await link.get(auth.tenantId, deviceId);
    if (!device) throw notFound('Device not found.');
    if (!seesAll(auth)) {
      const visible = await directory.visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
      if (visible !== 'all' && (device.asset_id === null || !visible.includes(device.asset_id))) throw notFound('Device not found.');
    }
    return device;
  }

  return {
    visibleDevice,

    async latest(auth: AuthContext, deviceId: number): Promise<LatestResponse> {
      const device = await visibleDevice(auth, deviceId);
      const stored = await repo.latest(auth.tenantId, deviceId);
      const telemetry = withPending(auth.tenantId, deviceId, stored.telemetry, (r) => ({ key: r.key, ts: new Date(r.ts), value: r.value }));
      const { attributes } = stored;
      const shape = (r: { key: string; ts: Date; value: unknown }) => ({
        key: r.key,
        ts: new Date(r.ts).getTime(),
        value: r.value as number | string | boolean | null,
      });
      return {
        deviceId,
        status: device.status,
        lastActivityAt: device.last_activity_at ? new Date(device.last_activity_at).toISOString() : null,
        telemetry: telemetry.map(shape),
        attributes: attributes.map(shape),
      };
    },

    async latestOf(auth: AuthContext, ids: number[], keys: string[] | undefined) {
      let allowed = ids;
      if (!seesAll(auth)) {
        const visible = await directory.visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
        if (visible !== 'all') {
          const checks = await Promise.all(ids.map((id) => link.get(auth.tenantId, id)));
          allowed = checks.filter((d) => d && d.asset_id !== null && visible.includes(d.asset_id)).map((d) => d?.id as number);
        }
      }
      const stored = allowed.length ? await repo.latestOf(auth.tenantId, allowed, keys) : [];
      const storedBy = new Map<number, typeof stored>();
      for (const r of stored) {
        const list = storedBy.get(r.device_id);
        if (list) list.push(r);
        else storedBy.set(r.device_id, [r]);
      }
      const rows = allowed.flatMap((id) =>
        withPending(
          auth.tenantId,
          id,
          storedBy.get(id) ?? [],
          (r) => ({ device_id: id, key: r.key, ts: new Date(r.ts), value: r.value }),
          keys,
        ),
      );
      const byDevice = new Map<number, { deviceId: number; values: Record<string, number | string | boolean | null>; ts: number | null }>();
      for (const r of rows) {
        let entry = byDevice.get(r.device_id);
        if (!entry) {
          entry = { deviceId: r.device_id, values: {}, ts: null };
          byDevice.set(r.device_id, entry);
        }
        entry.values[r.key] = r.value as number | string | boolean | null;
        const ts = new Date(r.ts).getTime();
        entry.ts = Math.max(entry.ts ?? 0, ts);
      }
      return { contents: [...byDevice.values()] };
    },

    async chart(auth: AuthContext, deviceId: number, q: ChartQuery): Promise<ChartResponse> {
      await visibleDevice(auth, deviceId);
      const start = new Date(q.startTs);
      const end = new Date(q.endTs);
      if (q.agg === 'none') {
        const rows = await repo.raw(auth.tenantId, deviceId, q.key, start, end, q.limit + 1);
        const truncated = rows.length > q.limit;
        return {
          key: q.key,
          agg: 'none',
          interval: null,
          truncated,
          points: rows.slice(0, q.limit).map((r) => ({ ts: new Date(r.ts).getTime(), value: r.num ?? r.txt })),
        };
      }
      const interval = q.interval ?? autoInterval(q.endTs - q.startTs);
      const rows = await repo.aggregated(auth.tenantId, deviceId, q.key, start, end, q.agg, interval, q.limit + 1);
      return {
        key: q.key,
        agg: q.agg,
        interval,
        truncated: rows.length > q.limit,
        points: rows.slice(0, q.limit).map((r) => ({ ts: Math.round(r.bucket * 1000), value: r.value })),
      };
    },

    /** The device rate limits that apply to the caller's tenant. */
    rateLimits: (tenantId: number) => deps.limiter.tenantLimits(tenantId),
    /** Sets the tenant's own limits (a key set to null takes the default again); they apply at once here. */
    async setRateLimits(tenantId: number, patch: DeviceRateLimitsUpdate) {
      const own: Record<string, string> = { ...((await repo.tenantRateLimits(tenantId)) ?? {}) } as Record<string, string>;
      for (const key of RATE_LIMIT_KEYS) {
        const value = patch[key];
        if (value === null) delete own[key];
        else if (value !== undefined) own[key] = value.trim();
      }
      await repo.saveTenantRateLimits(tenantId, own);
      return deps.limiter.tenantLimits(tenantId);
    },

    async connection(auth: AuthContext, deviceId: number, origin: { protocol: string; host: string }): Promise<DeviceConnection> {
      if (!mayManageDevices(auth)) throw forbidden();
      await visibleDevice(auth, deviceId);
      // the token is write-only here too: the device page copies it with its own, recorded, action
      const token = ACCESS_TOKEN_PLACEHOLDER;
      const external = Boolean(config.mqtt.url);
      const hostName = config.mqtt.publicHost ?? origin.host.replace(/:\d+$/, '');
      const port = external ? Number(new URL(config.mqtt.url as string).port || 1883) : config.mqtt.port;
      const topic = external ? DEVICE_TOPICS.tokenTelemetry(token) : DEVICE_TOPICS.telemetry;
      const attributesTopic = external ? DEVICE_TOPICS.tokenAttributes(token) : DEVICE_TOPICS.attributes;
      const httpUrl = `${origin.protocol}://${origin.host}/api/v1/${token}/telemetry`;
      const sample = '{"temperature":25.5}';
      const user = external ? '' : ` -u ${quoteWithToken(token)}`;
      return {
        deviceId,
        mqtt: { host: hostName, port, topic, attributesTopic, external },
        http: { url: httpUrl },
        mosquittoPub: `mosquitto_pub -d -q 1 -h ${shellQuote(hostName)} -p ${port} -t ${quoteWithToken(topic)}${user} -m ${shellQuote(sample)}`,
        curl: `curl -v -X POST ${quoteWithToken(httpUrl)} -H 'Content-Type: application/json' --data ${shellQuote(sample)}`,
        rateLimited: deps.limiter.deviceReport(deviceId),
      };
    },
  };
}
export type TelemetryService = ReturnType<typeof createTelemetryService>;
