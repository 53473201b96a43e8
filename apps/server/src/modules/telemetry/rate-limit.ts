import { type DeviceRateLimits, parseRateLimit, RATE_LIMIT_KEYS } from '@sitewatch/contracts';

/**
 * Fixed windows per limit (`capacity:seconds` pairs): a count and the time the window ends. Checking one costs a
 * few comparisons and additions, no allocation: it runs for every device message before anything else.
 */
export class Windows {
  readonly capacity: Float64Array;
  readonly spanMs: Float64Array;
  readonly used: Float64Array;
  readonly endsAt: Float64Array;

  constructor(text: string) {
    const windows = parseRateLimit(text) ?? [];
    this.capacity = Float64Array.from(windows.map((w) => w.capacity));
    this.spanMs = Float64Array.from(windows.map((w) => w.seconds * 1000));
    this.used = new Float64Array(windows.length);
    this.endsAt = new Float64Array(windows.length);
  }

  /** Whether `amount` more fits in every window now; counts it when it does. */
  take(amount: number, now: number): boolean {
    const n = this.capacity.length;
    for (let i = 0; i < n; i++) {
      if (now >= (this.endsAt[i] as number)) {
        this.used[i] = 0;
        this.endsAt[i] = now + (this.spanMs[i] as number);
      }
      if ((this.used[i] as number) + amount > (this.capacity[i] as number)) return false;
    }
    for (let i = 0; i < n; i++) this.used[i] = (this.used[i] as number) + amount;
    return true;
  }
}

/** A device that has its input dropped in this many seconds in a row (each with a drop) is disconnected (MQTT). */
export const FLOOD_DISCONNECT_SECONDS = 10;

interface DeviceState {
  messages: Windows;
  bytes: Windows;
  /** The tenant limits these windows were made from (new windows when they change). */
  limits: TenantState;
  dropped: number;
  lastDropAt: number;
  lastDropSecond: number;
  /** Seconds in a row with a drop. */
  strikes: number;
  disconnects: number;
}
interface TenantState {
  limits: DeviceRateLimits;
  messages: Windows;
  bytes: Windows;
  loadedAt: number;
}

export type Admission = 'ok' | 'device' | 'tenant';
export type RateLimitTransport = 'mqtt' | 'http';

/** How long a tenant's limits are used before they are read again (a change through this process applies at once). */
const TENANT_LIMITS_TTL_MS = 30_000;
/** Devices whose state is kept; beyond, the state of all is dropped (their windows start again). */
const MAX_DEVICES = 200_000;

/**
 * Per device and per tenant limits on device input, messages and bytes. A device's own limits are checked first,
 * so that a device over its limits does not use up its tenant's. The tenant's limits are its own where set, else
 * the server's defaults; they are read in the background and the check never waits for them.
 */
export function createRateLimiter(deps: {
  defaults: DeviceRateLimits;
  /** The tenant's own limits (keys it set), read from the database. */
  load(tenantId: number): Promise<Partial<DeviceRateLimits> | null>;
  onError(error: unknown): void;
}) {
  const tenants = new Map<number, TenantState>();
  const devices = new Map<number, DeviceState>();
  const counts = { mqtt: { device: 0, tenant: 0 }, http: { device: 0, tenant: 0 }, disconnects: 0 };

  const effective = (own: Partial<DeviceRateLimits> | null): DeviceRateLimits =>
    Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, own?.[k] ?? deps.defaults[k]])) as DeviceRateLimits;

  function apply(tenantId: number, limits: DeviceRateLimits, now: number) {
    const previous = tenants.get(tenantId);
    const same = previous && RATE_LIMIT_KEYS.every((k) => previous.limits[k] === limits[k]);
    if (previous && same) {
      previous.loadedAt = now;
      return previous;
    }
    const state: TenantState = {
      limits,
      messages: new Windows(limits.tenantMessages),
      bytes: new Windows(limits.tenantBytes),
      loadedAt: now,
    };
    tenants.set(tenantId, state);
    return state;
  }

  function refresh(tenantId: number) {
    deps.load(tenantId).then((own) => apply(tenantId, effective(own), Date.now()), deps.onError);
  }

  function tenantState(tenantId: number, now: number) {
    let state = tenants.get(tenantId);
    if (!state) {
      // the defaults until the tenant's own limits are read
      state = apply(tenantId, effective(null), now - TENANT_LIMITS_TTL_MS + 1000);
      refresh(tenantId);
    } else if (now - state.loadedAt > TENANT_LIMITS_TTL_MS) {
      state.loadedAt = now;
      refresh(tenantId);
    }
    return state;
  }

  function deviceState(deviceId: number, tenant: TenantState) {
    let state = devices.get(deviceId);
    if (!state || state.limits.limits !== tenant.limits) {
      if (!state && devices.size >= MAX_DEVICES) devices.clear();
      const kept = state;
      state = {
        messages: new Windows(tenant.limits.deviceMessages),
        bytes: new Windows(tenant.limits.deviceBytes),
        limits: tenant,
        dropped: kept?.dropped ?? 0,
        lastDropAt: kept?.lastDropAt ?? 0,
        lastDropSecond: kept?.lastDropSecond ?? 0,
        strikes: kept?.strikes ?? 0,
        disconnects: kept?.disconnects ?? 0,
      };
      devices.set(deviceId, state);
    }
    return state;
  }

  return {
    /**
     * Counts one message of `bytes` from the device; 'ok' when it is within the limits, else which limit it broke
     * (the message is then dropped, and counted against nothing).
     */
    admit(device: { id: number; tenantId: number }, bytes: number, transport: RateLimitTransport): Admission {
      const now = Date.now();
      const tenant = tenantState(device.tenantId, now);
      const state = deviceState(device.id, tenant);
      let outcome: Admission = 'ok';
      if (!state.messages.take(1, now) || !state.bytes.take(bytes, now)) outcome = 'device';
      else if (!tenant.messages.take(1, now) || !tenant.bytes.take(bytes, now)) outcome = 'tenant';
      if (outcome === 'ok') return outcome;
      counts[transport][outcome]++;
      state.dropped++;
      state.lastDropAt = now;
      const second = Math.floor(now / 1000);
      if (second !== state.lastDropSecond) {
        state.strikes = second === state.lastDropSecond + 1 ? state.strikes + 1 : 1;
        state.lastDropSecond = second;
      }
      return outcome;
    },
    /** Whether the device has had input dropped in each of the last seconds long enough to be disconnected. */
    keepsFlooding(deviceId: number): boolean {
      const state = devices.get(deviceId);
      if (!state || state.strikes < FLOOD_DISCONNECT_SECONDS) return false;
      state.strikes = 0;
      state.disconnects++;
      counts.disconnects++;
      return true;
    },
    /** What the device page shows. */
    deviceReport(deviceId: number) {
      const state = devices.get(deviceId);
      return {
        dropped: state?.dropped ?? 0,
        lastAt: state?.lastDropAt ? new Date(state.lastDropAt).toISOString() : null,
        disconnects: state?.disconnects ?? 0,
      };
    },
    /** The limits that apply to the tenant, and its own ones (read now). */
    async tenantLimits(tenantId: number) {
      const own = await deps.load(tenantId);
      const limits = effective(own);
      apply(tenantId, limits, Date.now());
      return { limits, defaults: { ...deps.defaults }, custom: RATE_LIMIT_KEYS.filter((k) => own?.[k] != null) };
    },
    defaults: deps.defaults,
    stats: () => ({
      mqtt: { ...counts.mqtt },
      http: { ...counts.http },
      disconnects: counts.disconnects,
    }),
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
