import type { ChecklistItem, CostIncurred, TicketStatus } from '@sitewatch/contracts';
import type { StoredChange, StoredChecklistItem } from './tables.ts';

/** Pure rules of a ticket change, kept apart from the SQL and the access checks so they are easy to read. */

/** Statuses a ticket leaves for ESCALATE when a level fires; reviewed, flagged or finished tickets keep theirs. */
export const ESCALATABLE: readonly string[] = ['OPEN', 'INPROGRESS', 'RE-OPENED', 'OVERDUE'];
/** Statuses the SLA sweep turns into OVERDUE when the due date passes; others only get the overdue mark. */
export const OVERDUE_FROM: readonly string[] = ['OPEN', 'RE-OPENED'];

/** Whether a policy's escalation has reached its end: a response policy stops at INPROGRESS, a resolution one at RESOLVED. */
export function stopReached(stopAt: string, status: string) {
  const done = stopAt === 'INPROGRESS' ? ['INPROGRESS', 'INREVIEW', 'RESOLVED', 'CLOSED'] : ['RESOLVED', 'CLOSED'];
  return done.includes(status);
}

export interface PolicyLike {
  id: number;
  ticket_types: string[];
  priorities: string[];
  events: string[];
  active: boolean;
}

/** The most specific active policy whose every non-empty criterion matches the ticket (ties: the oldest). */
export function matchPolicy<P extends PolicyLike>(policies: P[], t: { type: string; priority: string; event: string }): P | null {
  let best: { policy: P; score: number } | null = null;
  for (const p of policies) {
    if (!p.active) continue;
    if (p.ticket_types.length && !p.ticket_types.includes(t.type)) continue;
    if (p.priorities.length && !p.priorities.includes(t.priority)) continue;
    if (p.events.length && !p.events.some((e) => e.toLowerCase() === t.event.toLowerCase())) continue;
    const score = Number(p.ticket_types.length > 0) + Number(p.priorities.length > 0) + Number(p.events.length > 0);
    if (!best || score > best.score || (score === best.score && p.id < best.policy.id)) best = { policy: p, score };
  }
  return best?.policy ?? null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Adds a change entry when the value differs. */
export function track(changes: StoredChange[], field: string, from: unknown, to: unknown) {
  if (!same(from, to)) changes.push({ field, from: from ?? null, to: to ?? null });
}

/** Stamps who ticked a checklist item and when; keeps the stamps of items that did not change. */
export function mergeChecklist(current: StoredChecklistItem[], next: ChecklistItem[], userId: number, now: string): StoredChecklistItem[] {
  const before = new Map(current.map((i) => [i.id, i]));
  const ids = new Set<string>();
  return next
    .filter((i) => {
      if (ids.has(i.id)) return false;
      ids.add(i.id);
      return true;
    })
    .map((item) => {
      const old = before.get(item.id);
      if (old && old.done === item.done) return { id: item.id, text: item.text, done: item.done, doneBy: old.doneBy, doneAt: old.doneAt };
      return item.done
        ? { id: item.id, text: item.text, done: true, doneBy: userId, doneAt: now }
        : { id: item.id, text: item.text, done: false, doneBy: null, doneAt: null };
    });
}

export const sameCost = (a: CostIncurred | null | undefined, b: CostIncurred | null | undefined) => same(a, b);

/** The history action name of a change. */
export function actionOf(changes: StoredChange[]) {
  const fields = changes.map((c) => c.field);
  if (fields.includes('status')) return 'status';
  if (fields.length === 1 && fields[0] === 'assignedTo') return 'assigned';
  if (fields.length === 1 && fields[0] === 'costIncurred') return 'cost';
  if (fields.length === 1 && fields[0] === 'checklist') return 'checklist';
  if (fields.length === 1 && fields[0] === 'watchers') return 'watchers';
  return 'updated';
}

export const isTerminal = (s: string): s is TicketStatus => s === 'RESOLVED' || s === 'CLOSED';
