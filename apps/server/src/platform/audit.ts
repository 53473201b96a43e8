import { isDeviceSecretKey } from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAuth } from './auth/context.ts';
import type { Db } from './db.ts';

export interface AuditEntry {
  tenantId: number;
  userId?: number | null;
  username?: string | null;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  detail?: Record<string, unknown>;
}

/**
 * Who made a change and from where: what services receive instead of the request, so that they record their changes
 * without knowing Fastify. `log` reports an entry that could not be written.
 */
export interface AuditOrigin {
  tenantId: number;
  userId: number | null;
  username: string | null;
  ip: string | null;
  userAgent: string | null;
  /** When the change was done at the site (X-Action-Time), when it was sent later than it was done. */
  performedAt?: Date | null;
  log?: { error(obj: object, msg: string): void };
}

/** One change to record: the action, its outcome (success unless told) and the object with its before/after values. */
export interface ActivityEntry {
  action: string;
  outcome?: AuditEntry['outcome'];
  object?: { type: string; id: number | string };
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** Anything else worth keeping (the audit row's detail). */
  detail?: Record<string, unknown>;
}

const userAgentOf = (request: FastifyRequest) => request.headers['user-agent']?.slice(0, 300) ?? null;

/** The signed-in caller of a request as an origin (the actor's name is looked up when the log is read). */
export function originOf(request: FastifyRequest): AuditOrigin {
  const auth = requireAuth(request);
  return {
    tenantId: auth.tenantId,
    userId: auth.userId,
    username: null,
    ip: request.ip,
    userAgent: userAgentOf(request),
    performedAt: request.actionTime,
    log: request.log,
  };
}

/**
 * Writes one audit row and its user activity log entry. Given the transaction of the change they record, the change
 * and its entry are one outcome: an entry that cannot be written fails the transaction, so the change is not made
 * either (the activity log promises an entry for every change).
 */
export async function writeActivity(db: Db, origin: AuditOrigin, entry: ActivityEntry): Promise<void> {
  const outcome = entry.outcome ?? 'success';
  const { object, before, after } = entry;
  const rest = entry.detail ?? {};
  await db
    .insertInto('user_activity_logs')
    .values({
      tenant_id: origin.tenantId,
      actor_id: origin.userId,
      actor_name: origin.username,
      action: entry.action,
      outcome,
      object_type: object?.type ?? null,
      object_id: object ? String(object.id) : null,
      ip: origin.ip,
      user_agent: origin.userAgent,
      performed_at: origin.performedAt ?? null,
      before: before ? JSON.stringify(before) : null,
      after: after ? JSON.stringify(after) : null,
      detail: JSON.stringify(rest),
    })
    .execute();
  await db
    .insertInto('audit_log')
    .values({
      tenant_id: origin.tenantId,
      user_id: origin.userId,
      username: origin.username,
      action: entry.action,
      outcome,
      ip: origin.ip,
      user_agent: origin.userAgent,
      detail: JSON.stringify({ ...rest, ...(object ? { object } : {}), ...(before ? { before } : {}), ...(after ? { after } : {}) }),
    })
    .execute();
}

/** `writeActivity` for many entries of one origin (a bulk action): two statements however many entries. */
export async function writeActivities(db: Db, origin: AuditOrigin, entries: readonly ActivityEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('user_activity_logs')
    .values(
      entries.map((entry) => ({
        tenant_id: origin.tenantId,
        actor_id: origin.userId,
        actor_name: origin.username,
        action: entry.action,
        outcome: entry.outcome ?? 'success',
        object_type: entry.object?.type ?? null,
        object_id: entry.object ? String(entry.object.id) : null,
        ip: origin.ip,
        user_agent: origin.userAgent,
        performed_at: origin.performedAt ?? null,
        before: entry.before ? JSON.stringify(entry.before) : null,
        after: entry.after ? JSON.stringify(entry.after) : null,
        detail: JSON.stringify(entry.detail ?? {}),
      })),
    )
    .execute();
  await db
    .insertInto('audit_log')
    .values(
      entries.map((entry) => ({
        tenant_id: origin.tenantId,
        user_id: origin.userId,
        username: origin.username,
        action: entry.action,
        outcome: entry.outcome ?? 'success',
        ip: origin.ip,
        user_agent: origin.userAgent,
        detail: JSON.stringify({
          ...(entry.detail ?? {}),
          ...(entry.object ? { object: entry.object } : {}),
          ...(entry.before ? { before: entry.before } : {}),
          ...(entry.after ? { after: entry.after } : {}),
        }),
      })),
    )
    .execute();
}

/** `writeActivity` for a request's entry, naming its tenant and user itself (sign-ins, the user administration). */
export async function writeAudit(db: Db, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  const { object, before, after, ...rest } = (entry.detail ?? {}) as {
    object?: { type: string; id: number | string };
    before?: Record<string, unknown>;
    after?: Record<string, unknown>;
  };
  await writeActivity(
    db,
    {
      tenantId: entry.tenantId,
      userId: entry.userId ?? null,
      username: entry.username ?? null,
      ip: request.ip,
      userAgent: userAgentOf(request),
      log: request.log,
    },
    { action: entry.action, outcome: entry.outcome, object, before, after, detail: rest },
  );
}

/** The fields of `after` that differ from `before`, each side with only those fields (an update's entry). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    b[key] = before[key] ?? null;
    a[key] = after[key] ?? null;
  }
  return { before: b, after: a };
}

const SECRET_KEY = /pass(word)?|secret|token|credential|api[-_]?key|private/i;
const isSecretKey = (key: string) => SECRET_KEY.test(key) || isDeviceSecretKey(key);

const maskedValue = (value: unknown): unknown => {
  if (typeof value === 'string')
    return value
      .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@')
      .replace(/\b(password|passwd|pass|pwd|token|auth)=([^&\s"']*)/gi, '$1=***');
  if (Array.isArray(value)) return value.map(maskedValue);
  if (value && typeof value === 'object') return masked(value as Record<string, unknown>);
  return value;
};

/**
 * A copy of `values` safe to keep in the log: secret-named fields masked, the user and password of URLs
 * (`rtsp://user:pass@host`) and `password=`/`token=`-style parameters replaced; nested objects and arrays too.
 */
export function masked<T extends Record<string, unknown>>(values: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (isSecretKey(key) && value !== null && value !== undefined && value !== '') out[key] = '***';
    else out[key] = maskedValue(value);
  }
  return out as T;
}
