import { MANAGE_ALARM_RULES, ROLES, TRAP_PERMISSION_GRANTS } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { hashPassword } from '../platform/auth/passwords.ts';
import type { Db } from '../platform/db.ts';
import { DEMO_MENU } from './menu.ts';

export const DEMO_PASSWORD = 'Demo@2026!';

export interface DemoTenantSpec {
  slug: string;
  name: string;
  mobilePrefix: string;
}

export const DEMO_TENANTS: DemoTenantSpec[] = [
  { slug: 'demo', name: 'Northwind Facilities', mobilePrefix: '90000000' },
  { slug: 'acme', name: 'Acme Retail', mobilePrefix: '91000000' },
];

const PERMISSIONS = {
  view: [
    { codename: 'view_device', name: 'Can view device' },
    { codename: 'view_asset', name: 'Can view asset' },
    { codename: 'view_ticket', name: 'Can view ticket' },
    { codename: 'view_camera', name: 'Can view camera' },
    { codename: 'view_event', name: 'Can view event' },
    { codename: 'view_equipment', name: 'Can view equipment' },
    { codename: 'view_dashboard', name: 'Can view dashboard' },
  ],
  operate: [
    { codename: 'view_inventory', name: 'Can view inventory' },
    { codename: 'add_inventory', name: 'Can add inventory' },
    { codename: 'change_inventory', name: 'Can change inventory' },
    { codename: 'delete_inventory', name: 'Can delete inventory' },
    { codename: 'view_purchaserequest', name: 'Can view purchase request' },
    { codename: 'add_purchaserequest', name: 'Can add purchase request' },
    { codename: 'change_purchaserequest', name: 'Can change purchase request' },
    { codename: 'add_ticket', name: 'Can add ticket' },
    { codename: 'change_ticket', name: 'Can change ticket' },
    { codename: 'edit_alarm_config', name: 'Can edit alarm config' },
    { codename: 'add_event', name: 'Can add event' },
    { codename: 'add_attendance', name: 'Can check in and out' },
    { codename: 'add_dashboard', name: 'Can add dashboard' },
  ],
  manage: [
    // editing dashboards others made (operators build and edit their own with add_dashboard)
    { codename: 'change_dashboard', name: 'Can change dashboard' },
    { codename: 'add_asset', name: 'Can add asset' },
    { codename: 'change_asset', name: 'Can change asset' },
    { codename: 'delete_asset', name: 'Can delete asset' },
    { codename: 'change_event', name: 'Can change event' },
    { codename: 'delete_event', name: 'Can delete event' },
    { codename: 'add_device', name: 'Can add device' },
    { codename: 'change_device', name: 'Can change device' },
    { codename: 'send_command', name: 'Can send device commands' },
    { codename: 'run_diagnostics', name: 'Can run device diagnostics' },
    { codename: 'delete_device', name: 'Can delete device' },
    { codename: 'add_user', name: 'Can add user' },
    { codename: 'change_user', name: 'Can change user' },
    { codename: 'approve_purchaserequest', name: 'Can approve purchase request' },
    { codename: 'change_form_template', name: 'Can build forms' },
    { codename: 'view_form_response', name: 'Can view form responses' },
    MANAGE_ALARM_RULES,
    { codename: 'view_user', name: 'Can view user' },
    { codename: 'delete_user', name: 'Can delete user' },
    { codename: 'view_group', name: 'Can view group' },
    { codename: 'add_group', name: 'Can add group' },
    { codename: 'change_group', name: 'Can change group' },
    { codename: 'delete_group', name: 'Can delete group' },
    { codename: 'view_vendor', name: 'Can view vendor' },
    { codename: 'add_vendor', name: 'Can add vendor' },
    { codename: 'change_vendor', name: 'Can change vendor' },
    { codename: 'delete_vendor', name: 'Can delete vendor' },
    { codename: 'view_attendance', name: 'Can view attendance' },
    { codename: 'add_equipment', name: 'Can add equipment' },
    { codename: 'change_equipment', name: 'Can change equipment' },
    { codename: 'delete_equipment', name: 'Can delete equipment' },
    ...TRAP_PERMISSION_GRANTS,
    { codename: 'delete_dashboard', name: 'Can delete dashboard' },
    { codename: 'share_dashboard', name: 'Can share analytics dashboard' },
    { codename: 'view_cluster', name: 'Can view cluster' },
    { codename: 'add_cluster', name: 'Can add cluster' },
    { codename: 'change_cluster', name: 'Can change cluster' },
    { codename: 'delete_cluster', name: 'Can delete cluster' },
  ],
};

const FIRST_NAMES = ['Asha', 'Ben', 'Chen', 'Dara', 'Elif', 'Femi', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kavya'];
const LAST_NAMES = ['Rao', 'Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Silva', 'Novak', 'Haddad', 'Kumar', 'Berg', 'Mensah'];

/** The demo tenants with a group per access level and one user per role (username = role). */
export async function seedFoundation(db: Db, spec: DemoTenantSpec): Promise<number> {
  const tenant = await db
    .insertInto('tenants')
    .values({
      slug: spec.slug,
      name: spec.name,
      settings: JSON.stringify({
        menu: DEMO_MENU,
        helpline: { phone: '+1 555 0100', email: `support@${spec.slug}.example.com` },
      }),
      version_info: JSON.stringify({ IOTFW: '4.2.1', iotGateway: '2.8.0', AIFW: '1.6.3', analyticsFW: '3.1.0' }),
    })
    .onConflict((oc) => oc.column('slug').doUpdateSet({ slug: sql`excluded.slug` }))
    .returning('id')
    .executeTakeFirstOrThrow();
  const tenantId = tenant.id;
  const groups = await db
    .insertInto('groups')
    .values([
      {
        tenant_id: tenantId,
        name: 'Administrators',
        permissions: JSON.stringify([...PERMISSIONS.view, ...PERMISSIONS.operate, ...PERMISSIONS.manage]),
      },
      { tenant_id: tenantId, name: 'Operators', permissions: JSON.stringify([...PERMISSIONS.view, ...PERMISSIONS.operate]) },
      { tenant_id: tenantId, name: 'Viewers', permissions: JSON.stringify(PERMISSIONS.view) },
    ])
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doUpdateSet({ name: sql`excluded.name` }))
    .returning(['id', 'name'])
    .execute();
  const groupId = (name: string) => groups.find((g) => g.name === name)?.id as number;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const groupFor = (role: string) =>
    ['sysadmin', 'customeradmin', 'localadmin'].includes(role) ? 'Administrators' : role === 'customer' ? 'Viewers' : 'Operators';
  await db
    .insertInto('users')
    .values(
      ROLES.map((role, i) => ({
        tenant_id: tenantId,
        username: role,
        email: `${role}@${spec.slug}.example.com`,
        firstname: FIRST_NAMES[i % FIRST_NAMES.length] as string,
        lastname: LAST_NAMES[i % LAST_NAMES.length] as string,
        mobile: `${spec.mobilePrefix}${String(i + 1).padStart(2, '0')}`,
        password_hash: passwordHash,
        roles: [role],
        group_ids: [groupId(groupFor(role))],
        profile: JSON.stringify({}),
        notification_config: JSON.stringify({ popup: true }),
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('system_alerts')
    .values([
      { tenant_id: tenantId, message: 'Scheduled maintenance of the video archive on Sunday 02:00–03:00 UTC.' },
      { tenant_id: tenantId, message: 'New: escalation policies now notify the on-call field executive by SMS.' },
    ])
    .execute();
  return tenantId;
}
