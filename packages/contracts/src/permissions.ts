import { z } from 'zod';

/**
 * Every permission the product checks, by codename (SPEC 6: a user's permissions come from their first group).
 * The /permissions/ screen offers exactly these; a group holds a subset. Permission checks take a
 * `PermissionCodename`, and a test compares the codenames the code checks with this list both ways.
 */
export const PERMISSION_CATALOGUE = [
  { codename: 'view_asset', name: 'Can view asset', area: 'Sites' },
  { codename: 'add_asset', name: 'Can add asset', area: 'Sites' },
  { codename: 'change_asset', name: 'Can change asset', area: 'Sites' },
  { codename: 'delete_asset', name: 'Can delete asset', area: 'Sites' },
  { codename: 'view_device', name: 'Can view device', area: 'Devices' },
  { codename: 'add_device', name: 'Can add device', area: 'Devices' },
  { codename: 'change_device', name: 'Can change device', area: 'Devices' },
  { codename: 'delete_device', name: 'Can delete device', area: 'Devices' },
  { codename: 'edit_alarm_config', name: 'Can edit alarm config', area: 'Devices' },
  { codename: 'send_command', name: 'Can send device commands', area: 'Devices' },
  { codename: 'run_diagnostics', name: 'Can run device diagnostics', area: 'Devices' },
  { codename: 'view_ticket', name: 'Can view ticket', area: 'Tickets' },
  { codename: 'add_ticket', name: 'Can add ticket', area: 'Tickets' },
  { codename: 'change_ticket', name: 'Can change ticket', area: 'Tickets' },
  { codename: 'view_camera', name: 'Can view camera', area: 'Video' },
  { codename: 'view_event', name: 'Can view event', area: 'Calendar' },
  { codename: 'add_event', name: 'Can add event', area: 'Calendar' },
  { codename: 'change_event', name: 'Can change event', area: 'Calendar' },
  { codename: 'delete_event', name: 'Can delete event', area: 'Calendar' },
  { codename: 'view_user', name: 'Can view user', area: 'Users' },
  { codename: 'add_user', name: 'Can add user', area: 'Users' },
  { codename: 'change_user', name: 'Can change user', area: 'Users' },
  { codename: 'delete_user', name: 'Can delete user', area: 'Users' },
  { codename: 'view_group', name: 'Can view group', area: 'Groups' },
  { codename: 'add_group', name: 'Can add group', area: 'Groups' },
  { codename: 'change_group', name: 'Can change group', area: 'Groups' },
  { codename: 'delete_group', name: 'Can delete group', area: 'Groups' },
  { codename: 'view_inventory', name: 'Can view inventory', area: 'Inventory' },
  { codename: 'add_inventory', name: 'Can add inventory', area: 'Inventory' },
  { codename: 'change_inventory', name: 'Can change inventory', area: 'Inventory' },
  { codename: 'delete_inventory', name: 'Can delete inventory', area: 'Inventory' },
  { codename: 'view_purchaserequest', name: 'Can view purchase request', area: 'Purchase requests' },
  { codename: 'add_purchaserequest', name: 'Can add purchase request', area: 'Purchase requests' },
  { codename: 'change_purchaserequest', name: 'Can change purchase request', area: 'Purchase requests' },
  { codename: 'approve_purchaserequest', name: 'Can approve purchase request', area: 'Purchase requests' },
  { codename: 'view_cluster', name: 'Can view cluster', area: 'Directories' },
  { codename: 'add_cluster', name: 'Can add cluster', area: 'Directories' },
  { codename: 'change_cluster', name: 'Can change cluster', area: 'Directories' },
  { codename: 'delete_cluster', name: 'Can delete cluster', area: 'Directories' },
  { codename: 'view_vendor', name: 'Can view vendor', area: 'Directories' },
  { codename: 'add_vendor', name: 'Can add vendor', area: 'Directories' },
  { codename: 'change_vendor', name: 'Can change vendor', area: 'Directories' },
  { codename: 'delete_vendor', name: 'Can delete vendor', area: 'Directories' },
  { codename: 'view_attendance', name: 'Can view attendance', area: 'Attendance' },
  { codename: 'add_attendance', name: 'Can check in and out', area: 'Attendance' },
  { codename: 'view_equipment', name: 'Can view equipment', area: 'Equipment' },
  { codename: 'add_equipment', name: 'Can add equipment', area: 'Equipment' },
  { codename: 'change_equipment', name: 'Can change equipment', area: 'Equipment' },
  { codename: 'delete_equipment', name: 'Can delete equipment', area: 'Equipment' },
  { codename: 'view_trap_destination', name: 'Can view trap destination', area: 'SNMP traps' },
  { codename: 'add_trap_destination', name: 'Can add trap destination', area: 'SNMP traps' },
  { codename: 'change_trap_destination', name: 'Can change trap destination', area: 'SNMP traps' },
  { codename: 'delete_trap_destination', name: 'Can delete trap destination', area: 'SNMP traps' },
  { codename: 'view_trap_filter', name: 'Can view trap filter', area: 'SNMP traps' },
  { codename: 'add_trap_filter', name: 'Can add trap filter', area: 'SNMP traps' },
  { codename: 'change_trap_filter', name: 'Can change trap filter', area: 'SNMP traps' },
  { codename: 'delete_trap_filter', name: 'Can delete trap filter', area: 'SNMP traps' },
  { codename: 'view_dashboard', name: 'Can view dashboard', area: 'Dashboards' },
  { codename: 'add_dashboard', name: 'Can add dashboard', area: 'Dashboards' },
  { codename: 'change_dashboard', name: 'Can change dashboard', area: 'Dashboards' },
  { codename: 'delete_dashboard', name: 'Can delete dashboard', area: 'Dashboards' },
  { codename: 'share_dashboard', name: 'Can share analytics dashboard', area: 'Dashboards' },
  { codename: 'change_form_template', name: 'Can build forms', area: 'Forms' },
  { codename: 'view_form_response', name: 'Can view form responses', area: 'Forms' },
  { codename: 'manage_alarm_rules', name: 'Can manage alarm rules', area: 'Alarms' },
] as const;
export type PermissionCodename = (typeof PERMISSION_CATALOGUE)[number]['codename'];
export const PERMISSION_CODENAMES = PERMISSION_CATALOGUE.map((p) => p.codename) as [PermissionCodename, ...PermissionCodename[]];

export const GROUP_PERMISSIONS = {
  view: 'view_group',
  add: 'add_group',
  change: 'change_group',
  delete: 'delete_group',
} as const satisfies Record<string, PermissionCodename>;

export const isPermissionCodename = (codename: string): codename is PermissionCodename =>
  (PERMISSION_CODENAMES as readonly string[]).includes(codename);

export const GROUP_MESSAGES = {
  created: 'Successfully Created',
  updated: 'Permission for selected events are updated successfully!',
  deleted: 'Successfully Deleted',
  exists: 'A group with this name already exists',
  inUse: 'Move the users of this group to another group first',
  aboveOwnRights: 'You cannot grant rights above your own',
  /** A right no other group with an administrator in it holds would be gone for good. */
  lastHolder: (names: string) => `At least one group with an administrator in it must keep: ${names}`,
  ownAdministration: 'You cannot remove your own administration rights',
  restored: 'Administrator rights restored',
  assigned: 'Successfully Updated',
} as const;

export const catalogueEntrySchema = z.object({ codename: z.string(), name: z.string(), area: z.string() });
export const permissionCatalogueSchema = z.object({ contents: z.array(catalogueEntrySchema) });

export const groupInputSchema = z.object({
  name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(150, 'Please use maximum 150 characters'),
  codenames: z.array(z.enum(PERMISSION_CODENAMES, { message: 'Unknown permission' })).max(PERMISSION_CATALOGUE.length),
});
export type GroupInput = z.infer<typeof groupInputSchema>;

export const permissionGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  userCount: z.number().int(),
  permissions: z.array(z.object({ codename: z.string(), name: z.string() })),
  /** What the caller may do with this group. */
  can: z.object({ change: z.boolean(), delete: z.boolean() }),
});
export type PermissionGroup = z.infer<typeof permissionGroupSchema>;
export const permissionGroupListSchema = z.object({ contents: z.array(permissionGroupSchema), totalCount: z.number().int() });

export const groupMembersSchema = z.object({
  contents: z.array(z.object({ id: z.number().int(), username: z.string(), firstname: z.string(), lastname: z.string() })),
  totalCount: z.number().int(),
});
export const groupAssignSchema = z.object({
  userIds: z.array(z.number().int().positive().max(2147483647)).min(1, 'Choose at least one user').max(500),
});
export const groupAssignResultSchema = z.object({ assigned: z.number().int() });

/**
 * The rights a group must keep while its members administer users and groups: without them nobody could give any
 * right back. A change that takes them from the one making it is refused.
 */
export const ADMINISTRATION_RIGHTS = [
  'view_user',
  'change_user',
  'view_group',
  'change_group',
] as const satisfies readonly PermissionCodename[];

/** POST /api/admin/administrator-rights/restore/ (system administrator): each administrators' group and what it got back. */
export const administratorRightsRestoredSchema = z.object({
  groups: z.array(z.object({ id: z.number().int(), name: z.string(), added: z.array(z.string()) })),
});
export type AdministratorRightsRestored = z.infer<typeof administratorRightsRestoredSchema>;
