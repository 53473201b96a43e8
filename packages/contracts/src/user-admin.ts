import { z } from 'zod';
import { userSchema } from './auth.ts';
import { MOBILE_NUMBER_LENGTH, USER_INACTIVITY_THRESHOLD } from './constants.ts';
import type { PermissionCodename } from './permissions.ts';
import { roleSchema } from './role-schemas.ts';

/** Administration of a tenant's users by its admins (SPEC 2.2 /users, /user/{id}, /user-details/{id}; 3; 6; 8.3). */

/** Users who have not signed in for longer than this many days are flagged inactive (SPEC 9). */
export const USER_INACTIVITY_DAYS = USER_INACTIVITY_THRESHOLD;

/** Permissions that guard user administration (held by the first group, SPEC 6). */
export const USER_PERMISSIONS = {
  view: 'view_user',
  add: 'add_user',
  change: 'change_user',
  delete: 'delete_user',
} as const satisfies Record<string, PermissionCodename>;

export const USER_ADMIN_MESSAGES = {
  created: 'User created successfully',
  updated: 'User updated successfully',
  deleted: 'User deleted successfully',
  exists: 'User already exists',
  createFailed: 'Error Occurred while Creating User',
  imageFailed: 'Failed to update Image',
  lastAdmin: 'The last administrator of this customer cannot be removed',
  self: 'You cannot deactivate or delete your own account',
  aboveOwnRights: 'You cannot grant rights above your own',
  passwordReset: 'Password updated successfully',
  setPasswordSent: 'A set-password e-mail has been sent',
  activated: 'User activated successfully',
  deactivated: 'User deactivated successfully',
} as const;

const name = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(150, 'Please use maximum 150 characters');

export const userMobileSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${MOBILE_NUMBER_LENGTH}}$`), `Mobile number must be ${MOBILE_NUMBER_LENGTH} digits`);

export const newPasswordSchema = z
  .string({ message: 'Password is required' })
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Please use maximum 128 characters');

export const userInputSchema = z.object({
  username: z
    .string({ message: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(150, 'Please use maximum 150 characters')
    .regex(/^[\w.@+-]+$/, 'Username may contain letters, digits and @ . + - _ only'),
  email: z.email({ message: 'Enter a valid e-mail address' }).max(254),
  firstname: name('First name'),
  lastname: name('Last name'),
  mobile: userMobileSchema.nullable().default(null),
  userRole: z.array(roleSchema).min(1, 'Choose at least one role').max(4),
  groupId: z.number().int().positive().max(2147483647).nullable().default(null),
  /** Sites the user looks after (ignored for roles that see every site). */
  assetIds: z.array(z.number().int().positive().max(2147483647)).max(500).default([]),
  notificationConfig: z.object({ popup: z.boolean() }).default({ popup: true }),
});
export type UserInput = z.infer<typeof userInputSchema>;

export const userCreateSchema = userInputSchema.extend({
  /** Set a password now, or leave it out and send a set-password e-mail. */
  password: newPasswordSchema.optional(),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userActiveSchema = z.object({ isActive: z.boolean() });
export const passwordResetSchema = z.object({ password: newPasswordSchema });
export const setPasswordSchema = z.object({ token: z.string().min(20).max(200), password: newPasswordSchema });
export const avatarUploadSchema = z.object({
  /** A data URL of a PNG, JPEG, GIF or WebP image of at most 1 MB. */
  image: z.string().max(1_500_000, 'Please Select Attatchment Size less Than 1 MB'),
});

/** A user as an administrator sees them. */
export const adminUserSchema = userSchema.extend({
  isActive: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  /** True when the user has not signed in for longer than the inactivity threshold. */
  inactive: z.boolean(),
  assetIds: z.array(z.number().int()),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** A user as a picker sees them: names only (never e-mail, mobile, roles or permissions). */
export const userNameSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
});
export type UserName = z.infer<typeof userNameSchema>;

export const userDetailsSchema = z.object({
  user: adminUserSchema,
  sessions: z.array(
    z.object({
      id: z.string(),
      createdAt: z.string(),
      lastSeenAt: z.string(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      loginMethod: z.string(),
    }),
  ),
  sites: z.array(z.object({ id: z.number().int(), name: z.string() })),
  siteCount: z.number().int(),
  activity: z.array(
    z.object({
      id: z.number().int(),
      action: z.string(),
      outcome: z.string(),
      ip: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  /** What the caller may do with this user. */
  can: z.object({ change: z.boolean(), delete: z.boolean() }),
});
export type UserDetails = z.infer<typeof userDetailsSchema>;

/** Roles and groups the caller may grant (the form offers only these). */
export const grantableSchema = z.object({
  roles: z.array(roleSchema),
  groups: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type Grantable = z.infer<typeof grantableSchema>;

/** Readable names of the actions the activity log records; unknown ones are shown as recorded. */
export const ACTIVITY_ACTION_LABELS: Record<string, string> = {
  'login.password': 'Signed in with password',
  'login.otp': 'Signed in with OTP',
  'login.totp': 'Signed in with authenticator code',
  logout: 'Signed out',
  'token.refresh': 'Session refreshed',
  'session.revoke': 'Session ended',
  'password.change': 'Changed password',
  'password.set': 'Set password from e-mail link',
  'totp.enable': 'Turned on two-factor sign-in',
  'totp.disable': 'Turned off two-factor sign-in',
  'user.create': 'Created a user',
  'user.update': 'Updated a user',
  'user.delete': 'Deleted a user',
  'user.activate': 'Activated a user',
  'user.deactivate': 'Deactivated a user',
  'user.password-reset': "Reset a user's password",
  'user.set-password-mail': 'Sent a set-password e-mail',
  'user.avatar': 'Changed a picture',
  'user.sites-assign': 'Assigned sites to a user',
  'user.sites-remove': 'Removed sites from a user',
  'field-profile.create': 'Created a field profile',
  'field-profile.update': 'Changed a field profile',
  'cluster.create': 'Created a cluster',
  'cluster.update': 'Changed a cluster',
  'cluster.delete': 'Deleted a cluster',
  'group.create': 'Created a group',
  'group.update': 'Changed a group',
  'group.delete': 'Deleted a group',
  'group.assign': 'Assigned a group',
  'group.restore-admin-rights': 'Restored administrator rights',
  'trap-receiving.update': 'Changed the trap receiving settings',
  'trap-community.renew': 'Renewed the trap community',
  'backup.start': 'Started a backup',
  'registration.request': 'Asked for an account',
  'registration.confirm': 'Confirmed a registration e-mail',
  'registration.approve': 'Approved a registration',
  'registration.reject': 'Rejected a registration',
  'calendar.create': 'Created a calendar event',
  'calendar.update': 'Changed a calendar event',
  'calendar.reschedule': 'Rescheduled a calendar event',
  'calendar.delete': 'Deleted a calendar event',
  'calendar.window-start': 'A maintenance window began',
  'calendar.window-end': 'A maintenance window ended',
  'site.create': 'Created a site',
  'site.update': 'Changed a site',
  'site.delete': 'Deleted a site',
  'customer.create': 'Created a customer',
  'customer.update': 'Changed a customer',
  'customer.delete': 'Deleted a customer',
  'device.create': 'Created a device',
  'device.update': 'Changed a device',
  'device.delete': 'Deleted a device',
  'device.access-token.read': "Copied a device's access token",
  'customer.iot-fw-cred.update': "Changed a customer's device provisioning key or secret",
  'customer.iot-fw-cred.rotate': 'Made a new device provisioning secret for a customer',
  'device-template.create': 'Created a device template',
  'device-template.update': 'Changed a device template',
  'device-template.delete': 'Deleted a device template',
  'entity-mapping.create': 'Created an entity mapping',
  'entity-mapping.delete': 'Deleted an entity mapping',
  'ticket.create': 'Raised a ticket',
  'attendance.check-in': 'Checked in at a site',
  'attendance.check-out': 'Checked out of a site',
  'equipment.create': 'Added equipment',
  'equipment.update': 'Changed equipment',
  'equipment.delete': 'Deleted equipment',
  'ticket.update': 'Changed a ticket',
  'camera-config.create': 'Configured a camera',
  'camera-config.update': 'Changed a camera configuration',
  'camera-config.delete': 'Removed a camera configuration',
  'video-storage.create': 'Created a video storage',
  'video-storage.update': 'Changed a video storage',
  'video-storage.delete': 'Deleted a video storage',
  'camera-tour.create': 'Created a camera tour',
  'camera-tour.update': 'Changed a camera tour',
  'camera-tour.delete': 'Deleted a camera tour',
  'incident-report.create': 'Created an incident report',
  'incident-report.update': 'Changed an incident report',
  'incident-report.delete': 'Deleted an incident report',
  'incident-report.share': 'Shared an incident evidence pack',
  'analysis-result.verdict': 'Verified an analysis result',
  'analysis-reference.delete': 'Reset a camera reference frame',
  'helpdesk-settings.update': 'Changed the helpdesk settings',
  'issue-type.create': 'Created an issue type',
  'issue-type.update': 'Changed an issue type',
  'issue-type.delete': 'Deleted an issue type',
  'escalation-policy.create': 'Created an escalation policy',
  'escalation-policy.update': 'Changed an escalation policy',
  'escalation-policy.delete': 'Deleted an escalation policy',
  'form-template.create': 'Created a form',
  'form-template.update': 'Changed a form',
  'form-template.delete': 'Deleted a form',
  'form-response.create': 'Submitted a form',
  'inventory-store.create': 'Created a store',
  'inventory-store.update': 'Changed a store',
  'inventory-store.delete': 'Deleted a store',
  'inventory-item.create': 'Created an inventory item',
  'inventory-item.update': 'Changed an inventory item',
  'inventory-item.delete': 'Deleted an inventory item',
  'inventory.receive': 'Received stock',
  'inventory.transfer': 'Transferred stock',
  'inventory.issue': 'Issued stock to a ticket',
  'inventory.return': 'Returned stock from a ticket',
  'inventory.write-off': 'Wrote off stock',
  'inventory.replace-device': 'Replaced a device from stock',
  'vendor.create': 'Created a vendor',
  'vendor.update': 'Changed a vendor',
  'vendor.delete': 'Deleted a vendor',
};
export const ACTIVITY_OUTCOME_LABELS: Record<string, string> = { success: 'Success', failure: 'Failed', denied: 'Denied' };

export const mailOutboxSchema = z.object({
  contents: z.array(z.object({ id: z.number().int(), to: z.string(), subject: z.string(), body: z.string(), createdAt: z.string() })),
  totalCount: z.number().int(),
});

/** Filters of /user-activity-logs and of its CSV export. */
export const activityLogQuerySchema = z.strictObject({
  userId: z.coerce.number().int().positive().max(2147483647).optional(),
  action: z.string().trim().min(1).max(80).optional(),
  objectType: z.string().trim().min(1).max(40).optional(),
  from: z.iso.datetime({ offset: true, message: 'Enter a valid date' }).optional(),
  to: z.iso.datetime({ offset: true, message: 'Enter a valid date' }).optional(),
  /** Keyset cursor of the next page, from the previous answer. */
  cursor: z.string().max(80).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ActivityLogQuery = z.infer<typeof activityLogQuerySchema>;

export const activityLogEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** When it was done at the site, when it reached the server later (sent from the phone's outbox). */
  performedAt: z.string().nullable(),
  actorId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  outcome: z.string(),
  objectType: z.string().nullable(),
  objectId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;
export const activityLogPageSchema = z.object({ contents: z.array(activityLogEntrySchema), nextCursor: z.string().nullable() });
