import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseRateLimit } from '@sitewatch/contracts';
import { z } from 'zod';
import { invalidNetworkEntries, PUBLIC_NETWORKS, splitNetworkList } from './platform/outbound-networks.ts';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

function isAddressOrCidr(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

const rateLimitEnv = z.string().refine((text) => parseRateLimit(text) !== null, 'capacity:seconds pairs separated by commas, or empty');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Hosts that reach the default tenant besides localhost and the loopback addresses. */
  DEFAULT_HOSTS: z.string().default(''),
  DEFAULT_TENANT: z.string().default('demo'),
  DEMO: bool.default(true),
  DEMO_SEED: z.coerce.number().int().default(42),
  /** `background` (default): serve once the demo tenants and accounts exist and seed the rest meanwhile. */
  DEMO_SEEDING: z.enum(['background', 'before-listen']).default('background'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  ACCESS_TOKEN_MINUTES: z.coerce.number().int().min(1).max(60).default(15),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOCKOUT_MINUTES: z.coerce.number().int().min(1).default(15),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** A fixed captcha answer for automated tests; refused in production. */
  CAPTCHA_FIXED_ANSWER: z.string().optional(),
  FRAME_ANCESTORS: z.string().default("'self'"),
  /** Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: addresses or CIDRs, comma-separated (none by default). */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isAddressOrCidr), 'TRUST_PROXY lists IP addresses or CIDRs, comma-separated'),
  WEB_DIST: z.string().optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1884),
  MQTT_URL: z.string().optional(),
  /** Host name devices use to reach the broker (shown in the device page's command lines). */
  MQTT_PUBLIC_HOST: z.string().optional(),
  /** Shared-subscription group when consuming from an external broker. */
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[\w-]+$/)
    .default('sitewatch'),
  MQTT_CLIENT_ID: z.string().optional(),
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  TELEMETRY_BUFFER_CAPACITY: z.coerce.number().int().min(10).default(100_000),
  TELEMETRY_BATCH_SIZE: z.coerce.number().int().min(1).default(5000),
  TELEMETRY_FLUSH_MS: z.coerce.number().int().min(1).default(50),
  /** Batches written in parallel on PostgreSQL (PGlite has one connection: always 1). */
  TELEMETRY_FLUSH_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** Latest values are coalesced and written this often, off the ack path (0: with every batch). */
  TELEMETRY_LATEST_FLUSH_MS: z.coerce.number().int().min(0).default(3000),
  /** Rate limits of device input (ThingsBoard `capacity:seconds` pairs; empty: none), for tenants that set none. */
  TELEMETRY_RATE_LIMIT_DEVICE_MESSAGES: rateLimitEnv.default('100:1,3000:60'),
  TELEMETRY_RATE_LIMIT_DEVICE_BYTES: rateLimitEnv.default('262144:1,4194304:60'),
  TELEMETRY_RATE_LIMIT_TENANT_MESSAGES: rateLimitEnv.default('20000:1,600000:60'),
  TELEMETRY_RATE_LIMIT_TENANT_BYTES: rateLimitEnv.default('20971520:1,629145600:60'),
  TELEMETRY_TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).default(10),
  /** How often connected MQTT clients' tokens are re-checked (revoked tokens are disconnected). */
  TELEMETRY_TOKEN_RECHECK_SECONDS: z.coerce.number().int().min(1).default(15),
  /** A device with no activity for this long turns Offline. */
  DEVICE_INACTIVITY_TIMEOUT_SECONDS: z.coerce.number().int().min(5).default(300),
  STATUS_SWEEP_SECONDS: z.coerce.number().int().min(1).default(10),
  DEMO_SIMULATOR: bool.default(true),
  SIMULATOR_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(30),
  ROLE: z.enum(['all', 'api', 'worker', 'recorder', 'ingest']).default('all'),
  /** The built-in SNMP trap receiver and forwarder (ROLE=all and ROLE=worker processes). */
  SNMP_TRAP_RECEIVER: bool.default(true),
  /** UDP port of the trap receiver: unprivileged by default (162 needs root or CAP_NET_BIND_SERVICE). */
  SNMP_TRAP_PORT: z.coerce.number().int().min(0).max(65535).default(10162),
  SNMP_TRAP_HOST: z.string().default('0.0.0.0'),
  /** A repeat of the same trap within this window is dropped (0: off). */
  SNMP_TRAP_DEDUPE_MS: z.coerce.number().int().min(0).max(3_600_000).default(2000),
  /** Traps per second accepted from one source (bursts of twice that); the rest are counted and dropped. */
  SNMP_TRAP_RATE_PER_SOURCE: z.coerce.number().int().min(1).max(1_000_000).default(200),
  SNMP_INFORM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** Which addresses trap destinations may reach: as VIDEO_STREAM_NETWORKS (`private` default, `public`, `any`). */
  TRAP_FORWARD_NETWORKS: z.enum(['public', 'private', 'any']).default('private'),
  /**
   * The networks a tenant's devices may be dialled in when the system administrator has not set the tenant's own
   * list: `public` (every public address: a hosted service) and/or addresses and CIDRs (an on-premises install's site
   * networks), separated by commas or spaces.
   */
  OUTBOUND_NETWORKS: z
    .string()
    .default(PUBLIC_NETWORKS)
    .transform(splitNetworkList)
    .refine((list) => invalidNetworkEntries(list).length === 0, 'OUTBOUND_NETWORKS: each entry is `public`, an address or a CIDR'),
  /** E-mails go through this SMTP server when set (smtp:// or smtps:// URL); otherwise only to the log and outbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Sitewatch <no-reply@sitewatch.local>'),
  /** false: no /metrics and no measuring (the benchmark compares both). */
  METRICS: bool.default(true),
  /** Bearer token for GET /metrics; without it only callers on this machine may scrape. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** false: the heap is neither trimmed nor held small, nor malloc's free pages given back, when the process goes quiet (platform/idle-memory.ts; the benchmark compares both). */
  MEMORY_TRIM: bool.default(true),
  /** Where backups go (scheduled, before migrations, and `npm run backup` without --out): DATA_DIR/backups by default. */
  BACKUP_DIR: z.string().optional(),
  /** Hours between scheduled backups (0: none). */
  BACKUP_EVERY_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(24),
  /** Scheduled backups kept; older ones are removed. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** Scheduled backups take the camera recordings too (they can be large). */
  BACKUP_WITH_RECORDINGS: bool.default(false),
  /** A backup before migrations are applied to a database that holds data. */
  BACKUP_BEFORE_MIGRATE: bool.default(true),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && e.CAPTCHA_FIXED_ANSWER) {
    throw new Error('CAPTCHA_FIXED_ANSWER must not be set in production');
  }
  const dataDir = resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    backup: {
      dir: resolve(e.BACKUP_DIR ?? resolve(dataDir, 'backups')),
      everyHours: e.BACKUP_EVERY_HOURS,
      keep: e.BACKUP_KEEP,
      withRecordings: e.BACKUP_WITH_RECORDINGS,
      beforeMigrate: e.BACKUP_BEFORE_MIGRATE,
    },
    logLevel: e.LOG_LEVEL,
    tenancy: {
      defaultTenant: e.DEFAULT_TENANT,
      defaultHosts: ['localhost', '127.0.0.1', '::1', ...e.DEFAULT_HOSTS.split(',').map((h) => h.trim().toLowerCase())].filter(Boolean),
    },
    demo: { enabled: e.DEMO, seed: e.DEMO_SEED, seeding: e.DEMO_SEEDING },
    auth: {
      sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
      sessionMaxHours: e.SESSION_MAX_HOURS,
      accessTokenMinutes: e.ACCESS_TOKEN_MINUTES,
      maxFailures: e.LOGIN_MAX_FAILURES,
      lockoutMinutes: e.LOCKOUT_MINUTES,
      loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
      captchaFixedAnswer: e.CAPTCHA_FIXED_ANSWER,
      secureCookies: e.NODE_ENV === 'production',
    },
    frameAncestors: e.FRAME_ANCESTORS,
    trustProxy: e.TRUST_PROXY,
    webDist: resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    mqtt: {
      port: e.MQTT_PORT,
      url: e.MQTT_URL,
      publicHost: e.MQTT_PUBLIC_HOST,
      shareGroup: e.MQTT_SHARE_GROUP,
      clientId: e.MQTT_CLIENT_ID,
    },
    telemetry: {
      retentionDays: e.TELEMETRY_RETENTION_DAYS,
      bufferCapacity: e.TELEMETRY_BUFFER_CAPACITY,
      batchSize: e.TELEMETRY_BATCH_SIZE,
      flushIntervalMs: e.TELEMETRY_FLUSH_MS,
      flushConcurrency: e.DATABASE_URL ? e.TELEMETRY_FLUSH_CONCURRENCY : 1,
      latestFlushMs: e.TELEMETRY_LATEST_FLUSH_MS,
      tokenCacheSeconds: e.TELEMETRY_TOKEN_CACHE_SECONDS,
      rateLimits: {
        deviceMessages: e.TELEMETRY_RATE_LIMIT_DEVICE_MESSAGES,
        deviceBytes: e.TELEMETRY_RATE_LIMIT_DEVICE_BYTES,
        tenantMessages: e.TELEMETRY_RATE_LIMIT_TENANT_MESSAGES,
        tenantBytes: e.TELEMETRY_RATE_LIMIT_TENANT_BYTES,
      },
      tokenRecheckSeconds: e.TELEMETRY_TOKEN_RECHECK_SECONDS,
      inactivityTimeoutSeconds: e.DEVICE_INACTIVITY_TIMEOUT_SECONDS,
      statusSweepSeconds: e.STATUS_SWEEP_SECONDS,
    },
    simulator: { enabled: e.DEMO_SIMULATOR, intervalSeconds: e.SIMULATOR_INTERVAL_SECONDS },
    role: e.ROLE,
    snmp: {
      receiver: e.SNMP_TRAP_RECEIVER,
      port: e.SNMP_TRAP_PORT,
      host: e.SNMP_TRAP_HOST,
      dedupeMs: e.SNMP_TRAP_DEDUPE_MS,
      ratePerSource: e.SNMP_TRAP_RATE_PER_SOURCE,
      informTimeoutMs: e.SNMP_INFORM_TIMEOUT_MS,
      forwardNetworks: e.TRAP_FORWARD_NETWORKS,
    },
    outboundNetworks: e.OUTBOUND_NETWORKS,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    metrics: { enabled: e.METRICS, token: e.METRICS_TOKEN },
    memoryTrim: e.MEMORY_TRIM,
  };
}
