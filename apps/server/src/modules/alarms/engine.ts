import type { AlarmOperator, AlarmSeverity } from '@sitewatch/contracts';

/** The pure rules of alarming (docs/alarms.md), kept apart from storage so they are tested on their own. */

export interface RuleView {
  id: number;
  tenantId: number;
  name: string;
  deviceType: string | null;
  templateId: number | null;
  kind: 'threshold' | 'inactivity';
  key: string | null;
  operator: AlarmOperator | null;
  threshold: number | null;
  durationSeconds: number;
  severity: AlarmSeverity;
  createTicket: boolean;
}

/** A rule applies to a device of its type, or to a device made from its template. */
export const ruleApplies = (rule: Pick<RuleView, 'deviceType' | 'templateId'>, device: { type: string; templateId: number | null }) =>
  (rule.templateId !== null && rule.templateId === device.templateId) || (rule.templateId === null && rule.deviceType === device.type);

/** Whether a value meets a threshold condition. Booleans count as 1/0; numeric strings as their number; other text never matches. */
export function conditionHolds(operator: AlarmOperator, threshold: number, raw: unknown): boolean {
  const value = typeof raw === 'boolean' ? (raw ? 1 : 0) : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  switch (operator) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '==':
      return value === threshold;
    case '!=':
      return value !== threshold;
  }
}

export type Step = { action: 'raise' | 'clear' | 'none'; pendingSince: number | null };

/**
 * One step of a threshold rule for one device: the condition must hold continuously for the duration before the
 * alarm is raised; the first value that breaks the condition clears it (and restarts the duration). While the alarm
 * is active nothing is pending: the duration counts again from the first value after the clear.
 */
export function thresholdStep(
  state: { active: boolean; pendingSince: number | null },
  holds: boolean,
  now: number,
  durationSeconds: number,
): Step {
  if (!holds) return { action: state.active ? 'clear' : 'none', pendingSince: null };
  if (state.active) return { action: 'none', pendingSince: null };
  const since = state.pendingSince ?? now;
  return { action: now - since >= durationSeconds * 1000 ? 'raise' : 'none', pendingSince: since };
}

/**
 * What the device's toggles allow (docs/alarms.md):
 * - disabled (enableDevice false): its rules are not evaluated at all;
 * - maintenance: alarms are raised, cleared and shown, but open no ticket and notify nobody;
 * - muted: alarms are raised, cleared, shown and open tickets, but notify nobody.
 */
export function sideEffects(flags: { enableDevice: boolean; maintenance: boolean; muteDevice: boolean }) {
  if (!flags.enableDevice) return { evaluate: false, ticket: false, notify: false, suppressedBy: 'disabled' as const };
  if (flags.maintenance) return { evaluate: true, ticket: false, notify: false, suppressedBy: 'maintenance' as const };
  if (flags.muteDevice) return { evaluate: true, ticket: true, notify: false, suppressedBy: 'muted' as const };
  return { evaluate: true, ticket: true, notify: true, suppressedBy: null };
}

export function describe(rule: RuleView, value: unknown): string {
  if (rule.kind === 'inactivity') return `${rule.name}: no data for ${formatDuration(rule.durationSeconds)}`;
  const lasting = rule.durationSeconds > 0 ? ` for ${formatDuration(rule.durationSeconds)}` : '';
  return `${rule.name}: ${rule.key} ${rule.operator} ${rule.threshold}${lasting} (value ${String(value)})`;
}

export function formatDuration(seconds: number): string {
  if (seconds % 3600 === 0 && seconds >= 3600) return `${seconds / 3600} h`;
  if (seconds % 60 === 0 && seconds >= 60) return `${seconds / 60} min`;
  return `${seconds} s`;
}
