import type { Db } from '../../platform/db.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { type Actor, isAdmin } from './access.ts';
import { scheduleWakeUp } from './escalation-repository.ts';
import { dueInRange, pauseSla, resumeSla } from './sla-pause-repository.ts';

export interface DueItem {
  ticketId: number;
  ticketNo: string;
  title: string;
  kind: 'workorder' | 'escalation';
  at: Date;
  siteId: number | null;
}

/** What the calendar asks of the helpdesk: due times to show, and SLA pauses while a maintenance window runs. */
export interface HelpdeskSchedule {
  /** Work-order due dates and escalation due times in [from, to) of the tickets the actor may see (sites: a filter). */
  dueItems(actor: Actor, from: Date, to: Date, siteIds: number[] | null): Promise<DueItem[]>;
  /** Pauses the SLA clocks of the sites' open tickets; returns the tickets paused. */
  pauseSla(tenantId: number, siteIds: number[], at: Date, note: string): Promise<number[]>;
  /** Resumes them, moving due dates and escalation timers on by the pause; returns the tickets resumed. */
  resumeSla(tenantId: number, siteIds: number[], at: Date, note: string): Promise<number[]>;
}

export function createHelpdeskSchedule(db: Db, directory: SiteDirectory): HelpdeskSchedule {
  return {
    async dueItems(actor, from, to, siteIds) {
      const sites = isAdmin(actor) ? 'all' : await directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
      const seesSites = isAdmin(actor) || actor.permissions.has('view_ticket');
      const scope = {
        userId: actor.userId,
        allSites: sites === 'all' && seesSites,
        assetIds: sites === 'all' || !seesSites ? [] : sites,
        ownOnlyTypes: [],
      };
      const rows = await dueInRange(db, actor.tenantId, scope, from, to, siteIds, 2000);
      const items: DueItem[] = [];
      for (const r of rows) {
        const base = { ticketId: r.id, ticketNo: r.ticket_no, title: r.title, siteId: r.location_id };
        if (r.type === 'WORKORDERTICKET' && r.due_date && r.due_date >= from && r.due_date < to)
          items.push({ ...base, kind: 'workorder', at: r.due_date });
        if (r.escalation_due_at && r.escalation_due_at >= from && r.escalation_due_at < to)
          items.push({ ...base, kind: 'escalation', at: r.escalation_due_at });
      }
      return items;
    },
    pauseSla: (tenantId, siteIds, at, note) => pauseSla(db, tenantId, siteIds, at, note),
    async resumeSla(tenantId, siteIds, at, note) {
      return db.transaction().execute(async (trx) => {
        const rows = await resumeSla(trx, tenantId, siteIds, at, note);
        const wakeUps = new Set<number>();
        for (const r of rows) if (r.escalation_due_at) wakeUps.add(r.escalation_due_at.getTime());
        for (const w of wakeUps) await scheduleWakeUp(trx, new Date(w));
        return rows.map((r) => r.id);
      });
    },
  };
}
