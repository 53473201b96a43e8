import type { FastifyBaseLogger } from 'fastify';
import type { DestinationTarget } from './forwarder.ts';
import type { SnmpRepository, StatsWrite, UnmatchedWrite } from './repository.ts';
import { forDisplay, type Trap } from './trap.ts';

type Field = Exclude<keyof StatsWrite, 'tenantId'>;
const FIELDS: Field[] = ['received', 'matched', 'unmatched', 'deduped', 'rateLimited', 'alarms', 'forwarded', 'refused'];
const MAX_FAILURES_PER_FLUSH = 200;

/**
 * Counters and the unmatched log, kept in memory on the hot path and written every `flushMs` in a few
 * statements whatever the trap rate (receiver counters, unmatched traps aggregated per source and OID,
 * destination counters, filter matches, the last failures).
 */
export function createStatsBook(deps: { repo: SnmpRepository; log: Pick<FastifyBaseLogger, 'error'>; flushMs: number }) {
  let stats = new Map<number, StatsWrite>();
  let unmatched = new Map<string, UnmatchedWrite>();
  let destinations = new Map<number, { id: number; sent: number; failed: number; dropped: number }>();
  let filters = new Map<number, number>();
  let failures: Array<{ tenantId: number; destinationId: number; at: Date; trapOid: string; error: string }> = [];
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  /** Totals since start, per tenant (benchmarks and tests read them without the database). */
  const totals = new Map<number, Record<Field, number>>();

  const row = (tenantId: number) => {
    let r = stats.get(tenantId);
    if (!r) {
      r = { tenantId, received: 0, matched: 0, unmatched: 0, deduped: 0, rateLimited: 0, alarms: 0, forwarded: 0, refused: 0 };
      stats.set(tenantId, r);
    }
    return r;
  };
  const destRow = (id: number) => {
    let r = destinations.get(id);
    if (!r) {
      r = { id, sent: 0, failed: 0, dropped: 0 };
      destinations.set(id, r);
    }
    return r;
  };

  async function write() {
    const s = [...stats.values()];
    const u = [...unmatched.values()];
    const d = [...destinations.values()];
    const f = [...filters].map(([id, n]) => ({ id, n }));
    const fl = failures;
    stats = new Map();
    unmatched = new Map();
    destinations = new Map();
    filters = new Map();
    failures = [];
    try {
      await deps.repo.addStats(s);
      await deps.repo.upsertUnmatched(u);
      await deps.repo.addDestinationCounts(d);
      await deps.repo.addFilterMatches(f);
      await deps.repo.insertFailures(fl);
    } catch (error) {
      deps.log.error({ err: error }, 'trap counters could not be written');
    }
  }

  return {
    count(tenantId: number, field: Field, n = 1) {
      row(tenantId)[field] += n;
      let t = totals.get(tenantId);
      if (!t) {
        t = Object.fromEntries(FIELDS.map((k) => [k, 0])) as Record<Field, number>;
        totals.set(tenantId, t);
      }
      t[field] += n;
    },
    unmatched(tenantId: number | null, trap: Trap, reason: 'unknown-source' | 'no-mapping', deviceId: number | null) {
      this.count(tenantId ?? 0, 'unmatched');
      const key = `${tenantId ?? 0}|${trap.source}|${trap.trapOid}`;
      const hit = unmatched.get(key);
      if (hit) {
        hit.count++;
        hit.lastSeen = trap.receivedAt;
        hit.varbinds = trap.varbinds;
        return;
      }
      unmatched.set(key, {
        tenantId,
        source: trap.source.slice(0, 64),
        version: trap.version,
        trapOid: trap.trapOid,
        reason,
        deviceId,
        count: 1,
        lastSeen: trap.receivedAt,
        varbinds: trap.varbinds,
      });
    },
    filterMatched(id: number) {
      filters.set(id, (filters.get(id) ?? 0) + 1);
    },
    destination(dest: Pick<DestinationTarget, 'id' | 'tenantId'>, outcome: 'sent' | 'failed' | 'dropped') {
      destRow(dest.id)[outcome]++;
      if (outcome === 'sent') this.count(dest.tenantId, 'forwarded');
    },
    failure(dest: Pick<DestinationTarget, 'id' | 'tenantId'>, trapOid: string, error: string) {
      if (failures.length < MAX_FAILURES_PER_FLUSH)
        failures.push({ tenantId: dest.tenantId, destinationId: dest.id, at: new Date(), trapOid, error });
    },
    totals: (tenantId: number) => totals.get(tenantId),
    start() {
      if (timer) return;
      timer = setInterval(() => {
        flushing = flushing.then(write);
      }, deps.flushMs);
      timer.unref();
    },
    /** Writes what is pending now. */
    flush() {
      flushing = flushing.then(write);
      return flushing;
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await this.flush();
    },
  };
}
export type StatsBook = ReturnType<typeof createStatsBook>;

/** The unmatched log's varbinds as shown. */
export const unmatchedVarbinds = (stored: unknown) => forDisplay(Array.isArray(stored) ? stored : []);
