import { z } from 'zod';
import { INT4_MAX, idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';

/**
 * Alarm rules and alarms (issue 4; semantics in docs/alarms.md). A rule applies to every device of a type, or to
 * the devices of one template; it raises an alarm when its condition holds for its duration and clears it when the
 * condition stops holding.
 */

export const ALARM_SEVERITIES = ['WARNING', 'MINOR', 'MAJOR', 'CRITICAL'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];
/** Worst first: the device's alarmStatus is the worst severity of its active alarms, or NORMAL. */
export const SEVERITY_RANK: Record<AlarmSeverity, number> = { WARNING: 1, MINOR: 2, MAJOR: 3, CRITICAL: 4 };
export const NORMAL_ALARM_STATUS = 'NORMAL';

/**
 * Tenant-wide alarm rules are changed by administrators and holders of this permission; `edit_alarm_config` (the
 * per-device alarm toggles that field roles hold) does not reach them.
 */
export const MANAGE_ALARM_RULES = { codename: 'manage_alarm_rules', name: 'Can manage alarm rules' } as const satisfies {
  codename: PermissionCodename;
  name: string;
};

export const ALARM_RULE_KINDS = ['threshold', 'inactivity'] as const;
export const ALARM_OPERATORS = ['>', '>=', '<', '<=', '==', '!='] as const;
export type AlarmOperator = (typeof ALARM_OPERATORS)[number];

const deviceTypeField = z
  .string()
  .trim()
  .regex(/^[A-Z]+$/, 'deviceType must be a device type such as GENERATOR');

export const alarmRuleInputSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'Name is required').max(120, 'Please use maximum 120 characters'),
    deviceType: deviceTypeField.nullable().default(null),
    templateId: idSchema.nullable().default(null),
    kind: z.enum(ALARM_RULE_KINDS, { message: `kind must be one of ${ALARM_RULE_KINDS.join(', ')}` }),
    key: z.string().trim().min(1).max(64).nullable().default(null),
    operator: z
      .enum(ALARM_OPERATORS, { message: `operator must be one of ${ALARM_OPERATORS.join(' ')}` })
      .nullable()
      .default(null),
    threshold: z.number().finite().nullable().default(null),
    durationSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86400)
      .default(0),
    severity: z.enum(ALARM_SEVERITIES, { message: `severity must be one of ${ALARM_SEVERITIES.join(', ')}` }),
    createTicket: z.boolean().default(true),
    enabled: z.boolean().default(true),
  })
  .refine((r) => r.deviceType !== null || r.templateId !== null, { message: 'Choose a device type or a template', path: ['deviceType'] })
  .refine((r) => r.kind !== 'threshold' || (r.key !== null && r.operator !== null && r.threshold !== null), {
    message: 'A threshold rule needs key, operator and threshold',
    path: ['key'],
  })
  .refine((r) => r.kind !== 'inactivity' || r.durationSeconds >= 10, {
    message: 'An inactivity rule needs a duration of at least 10 seconds',
    path: ['durationSeconds'],
  });
export type AlarmRuleInput = z.infer<typeof alarmRuleInputSchema>;

export const alarmRuleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  deviceType: z.string().nullable(),
  templateId: z.number().int().nullable(),
  kind: z.enum(ALARM_RULE_KINDS),
  key: z.string().nullable(),
  operator: z.enum(ALARM_OPERATORS).nullable(),
  threshold: z.number().nullable(),
  durationSeconds: z.number().int(),
  severity: z.enum(ALARM_SEVERITIES),
  createTicket: z.boolean(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlarmRule = z.infer<typeof alarmRuleSchema>;

export const ALARM_STATES = ['ACTIVE', 'CLEARED'] as const;

export const alarmSchema = z.object({
  id: z.number().int(),
  ruleId: z.number().int().nullable(),
  ruleName: z.string(),
  deviceId: z.number().int(),
  deviceLabel: z.string(),
  /** The device's site: labels repeat at every site, the site tells them apart. */
  siteName: z.string().nullable(),
  severity: z.enum(ALARM_SEVERITIES),
  state: z.enum(ALARM_STATES),
  message: z.string(),
  value: z.union([z.number(), z.string(), z.null()]),
  /** What suppressed the side effects when it was raised: muted, maintenance, or null. */
  suppressedBy: z.string().nullable(),
  ticketId: z.number().int().nullable(),
  /** The ticket's number (e.g. ALM-12), and whether it is still open (not resolved or closed). */
  ticketNo: z.string().nullable(),
  ticketOpen: z.boolean(),
  raisedAt: z.string(),
  clearedAt: z.string().nullable(),
});
export type Alarm = z.infer<typeof alarmSchema>;

/** The ticket raised from an alarm, or the alarm's open ticket offered instead of a second one (`reused`). */
export const alarmTicketSchema = z.object({
  ticketId: z.number().int(),
  ticketNo: z.string(),
  reused: z.boolean(),
});
export type AlarmTicket = z.infer<typeof alarmTicketSchema>;

/** A ticket raised from an alarm has the priority of the alarm's severity (when the tenant's priority list has it). */
export const PRIORITY_OF_SEVERITY: Record<AlarmSeverity, string> = { CRITICAL: 'CRITICAL', MAJOR: 'MAJOR', MINOR: 'MINOR', WARNING: 'LOW' };

export const alarmListQuerySchema = z.strictObject({
  deviceId: z.coerce.number({ message: 'deviceId must be a number' }).int().min(1).max(INT4_MAX).optional(),
  state: z.enum(ALARM_STATES, { message: `state must be one of ${ALARM_STATES.join(', ')}` }).optional(),
  /** Part of the device's label, its site's name or the alarm's rule. */
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  page: z.coerce.number({ message: 'page must be a number' }).int().min(1).default(1),
  limit: z.coerce.number({ message: 'limit must be a number' }).int().min(1).max(200, 'limit must be at most 200').default(25),
});
export type AlarmListQuery = z.infer<typeof alarmListQuerySchema>;
