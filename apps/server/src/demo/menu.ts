import type { MenuItem } from '@sitewatch/contracts';

/**
 * The demo tenant's navigation catalogue. The web app shows an entry only when the route has a screen and the
 * user holds the entry's permission or role; a group shows while any of its entries does.
 */
export const DEMO_MENU: MenuItem[] = [
  { label: 'Home', value: '/', icon: 'home' },
  {
    label: 'Monitoring',
    value: '',
    icon: 'summary',
    children: [
      { label: 'Site Summary', value: '/site-summary/dashboard', icon: 'summary' },
      { label: 'Site Monitoring', value: '/sitemonitoring', icon: 'sites' },
      { label: 'Map', value: '/multisitestatus/dashboard', icon: 'map' },
      { label: 'Gensets', value: '/genset/dashboard', icon: 'devices' },
      { label: 'UPS', value: '/ups/dashboard', icon: 'devices' },
      { label: 'Rectifiers', value: '/rectifier/dashboard', icon: 'devices' },
      { label: 'Alarm Panels', value: '/alarm-panel/dashboard', icon: 'devices' },
      { label: 'Meters', value: '/meter-device/dashboard', icon: 'devices' },
      { label: 'Device Health', value: '/device-health', icon: 'devices' },
    ],
  },
  {
    label: 'Inventory',
    value: '',
    icon: 'inventory',
    children: [
      { label: 'Sites', value: '/assets', icon: 'sites' },
      { label: 'Devices', value: '/devices', icon: 'devices' },
      { label: 'Device Templates', value: '/device-template', icon: 'devices' },
      { label: 'Device Inventory', value: '/device-inventory', icon: 'inventory' },
      { label: 'Inventory Management', value: '/inventory-management', icon: 'inventory', permission: 'view_inventory' },
      { label: 'Asset Management', value: '/asset-management', icon: 'inventory', permission: 'view_equipment' },
      { label: 'Equipments', value: '/equipments', icon: 'devices', permission: 'view_equipment', childUrls: ['/equipments/'] },
      { label: 'Entity Mapping', value: '/entity-mapping', icon: 'devices' },
      { label: 'Customers', value: '/customers', icon: 'admin', roles: ['sysadmin'] },
    ],
  },
  {
    label: 'Helpdesk',
    value: '',
    icon: 'tickets',
    children: [
      { label: 'Ticket Dashboard', value: '/ticket/dashboard', icon: 'dashboards' },
      { label: 'Tickets', value: '/tickets', icon: 'tickets', childUrls: ['/tickets/', '/ticket/'] },
      { label: 'Work Orders', value: '/work-orders/', icon: 'workorders' },
      { label: 'Calendar', value: '/calendar', icon: 'calendar', permission: 'view_event', childUrls: ['/calendar/'] },
      { label: 'Check In', value: '/attendance', icon: 'users', permission: 'add_attendance' },
      { label: 'Attendance Management', value: '/attendance-management', icon: 'users', permission: 'view_attendance' },
      { label: 'Escalation Policies', value: '/escalations', icon: 'tickets', roles: ['sysadmin', 'customeradmin', 'localadmin'] },
      { label: 'Issue Types', value: '/issue-types', icon: 'forms', roles: ['sysadmin', 'customeradmin', 'localadmin'] },
      { label: 'Import Tickets', value: '/import', icon: 'inventory', roles: ['sysadmin', 'customeradmin', 'localadmin'] },
    ],
  },
  {
    label: 'Video',
    value: '',
    icon: 'cameras',
    children: [
      { label: 'Cameras', value: '/camview', icon: 'cameras' },
      { label: 'Live View', value: '/camview/live', icon: 'cameras' },
      { label: 'Recordings', value: '/camview/record', icon: 'recordings' },
      { label: 'CCTV', value: '/cctv/dashboard', icon: 'cameras' },
      { label: 'Camera Tours', value: '/camera-tour', icon: 'recordings' },
      { label: 'Incident Reports', value: '/incident-report', icon: 'forms' },
      { label: 'Image Analysis', value: '/image-analysis', icon: 'cameras' },
      { label: 'Result Verification', value: '/result-verification', icon: 'cameras' },
      { label: 'Result Analysis', value: '/result-analysis', icon: 'recordings' },
      { label: 'Storages', value: '/storages', icon: 'storages', roles: ['sysadmin', 'customeradmin', 'localadmin'] },
    ],
  },
  {
    label: 'Forms',
    value: '',
    icon: 'forms',
    children: [
      { label: 'Forms', value: '/forms', icon: 'forms', childUrls: ['/forms/', '/form/'] },
      { label: 'Form Builder', value: '/form-builder', icon: 'forms', permission: 'change_form_template', childUrls: ['/forms/builder'] },
    ],
  },
  { label: 'Downloads', value: '/downloads', icon: 'downloads' },
  {
    label: 'Administration',
    value: '',
    icon: 'admin',
    roles: ['sysadmin', 'customeradmin', 'localadmin'],
    children: [
      { label: 'Users', value: '/users', icon: 'users' },
      { label: 'Assign Sites', value: '/assign-asset', icon: 'sites' },
      { label: 'Overview', value: '/administration', icon: 'admin' },
      { label: 'Permissions', value: '/permissions/', icon: 'admin', permission: 'view_group' },
      { label: 'Vendors', value: '/vendors', icon: 'users', permission: 'view_vendor' },
      { label: 'Registration Requests', value: '/registration-requests', icon: 'users', permission: 'add_user' },
      { label: 'User Activity Logs', value: '/user-activity-logs', icon: 'users', permission: 'view_user' },
      { label: 'Field Executives', value: '/field-executives', icon: 'users', permission: 'view_user' },
      { label: 'Store Managers', value: '/store-manager', icon: 'users', permission: 'view_user' },
      { label: 'Infra Admins', value: '/infra-admin', icon: 'users', permission: 'view_user' },
      { label: 'Clusters', value: '/cluster-view', icon: 'admin', permission: 'view_cluster' },
      { label: 'SMS Outbox', value: '/app-admin', icon: 'outbox', roles: ['sysadmin'] },
    ],
  },
];
