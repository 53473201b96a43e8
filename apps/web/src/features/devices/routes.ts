import { lazyPage as page } from '../../app/lazy-page.ts';
import type { AppRoute } from '../../app/route-types.ts';
import { can } from '../../lib/access.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    devices: {
      devices: 'Devices',
      view: 'Device',
      edit: 'Edit device',
      create: 'Add device',
      discover: 'Discovered devices',
      discoverEdit: 'Review device',
      assign: 'Assign devices',
      inventory: 'Device inventory',
      templates: 'Device templates',
      templateView: 'Device template',
      templateEdit: 'Edit device template',
      templateCreate: 'Add device template',
      mapping: 'Entity mapping',
      genset: 'Genset dashboard',
      gensetView: 'Genset',
      alarmPanel: 'Alarm panel dashboard',
      alarmPanelView: 'Alarm panel',
      rectifier: 'Rectifier dashboard',
      rectifierView: 'Rectifier',
      ups: 'UPS dashboard',
      upsView: 'UPS',
      meter: 'Meter dashboard',
      power: 'Power dashboard',
      monitoring: 'Site monitoring',
    },
  },
  true,
  false,
);

const list = (title: string, to: string) => ({ label: title, to });
const dashboards = () => import('./dashboards/TypeDashboardPage.tsx');
const sitePages = () => import('./dashboards/SitePages.tsx');

/** SPEC 2.2 device, template, inventory and mapping routes; SPEC 2.4 type dashboards in the device-tree layout. */
export const devicesRoutes: AppRoute[] = [
  { path: '/devices', layout: 'main', title: 'devices.devices', page: page(() => import('./DevicesPage.tsx'), 'DevicesPage') },
  {
    path: '/devices/:id/view',
    layout: 'main',
    title: 'devices.view',
    crumbs: ({ t }) => [list(t('devices.devices'), '/devices'), { label: t('devices.view') }],
    page: page(() => import('./DeviceViewPage.tsx'), 'DeviceViewPage'),
  },
  {
    path: '/devices/:id/edit',
    layout: 'main',
    allow: (user) => can(user, 'change_device'),
    title: 'devices.edit',
    crumbs: ({ t }) => [list(t('devices.devices'), '/devices'), { label: t('devices.edit') }],
    page: page(() => import('./DeviceFormPage.tsx'), 'DeviceFormPage'),
  },
  {
    path: '/device/create',
    layout: 'main',
    allow: (user) => can(user, 'add_device'),
    title: 'devices.create',
    crumbs: ({ t }) => [list(t('devices.devices'), '/devices'), { label: t('devices.create') }],
    page: page(() => import('./DeviceFormPage.tsx'), 'DeviceFormPage'),
  },
  { path: '/devices/discover', layout: 'main', title: 'devices.discover', page: page(() => import('./DevicesPage.tsx'), 'DiscoverPage') },
  {
    path: '/devices/discover/:id/edit',
    layout: 'main',
    allow: (user) => can(user, 'add_device'),
    title: 'devices.discoverEdit',
    crumbs: ({ t }) => [list(t('devices.discover'), '/devices/discover'), { label: t('devices.discoverEdit') }],
    page: page(() => import('./DeviceFormPage.tsx'), 'DiscoverEditPage'),
  },
  {
    path: '/devices/assign',
    layout: 'main',
    allow: (user) => can(user, 'change_device'),
    title: 'devices.assign',
    crumbs: ({ t }) => [list(t('devices.inventory'), '/device-inventory'), { label: t('devices.assign') }],
    page: page(() => import('./AssignDevicesPage.tsx'), 'AssignDevicesPage'),
  },
  { path: '/device-inventory', layout: 'main', title: 'devices.inventory', page: page(() => import('./DevicesPage.tsx'), 'InventoryPage') },
  {
    path: '/device-template',
    layout: 'main',
    title: 'devices.templates',
    page: page(() => import('./TemplatesPage.tsx'), 'TemplatesPage'),
  },
  {
    path: '/device-template/create',
    layout: 'main',
    allow: (user) => can(user, 'add_device'),
    title: 'devices.templateCreate',
    crumbs: ({ t }) => [list(t('devices.templates'), '/device-template'), { label: t('devices.templateCreate') }],
    page: page(() => import('./TemplateFormPage.tsx'), 'TemplateFormPage'),
  },
  {
    path: '/view-device-template/view/:templateId',
    layout: 'main',
    title: 'devices.templateView',
    crumbs: ({ t }) => [list(t('devices.templates'), '/device-template'), { label: t('devices.templateView') }],
    page: page(() => import('./TemplateFormPage.tsx'), 'TemplateViewPage'),
  },
  {
    path: '/view-device-template/edit/:templateId',
    layout: 'main',
    allow: (user) => can(user, 'change_device'),
    title: 'devices.templateEdit',
    crumbs: ({ t }) => [list(t('devices.templates'), '/device-template'), { label: t('devices.templateEdit') }],
    page: page(() => import('./TemplateFormPage.tsx'), 'TemplateFormPage'),
  },
  {
    path: '/entity-mapping',
    layout: 'main',
    title: 'devices.mapping',
    page: page(() => import('./EntityMappingPage.tsx'), 'EntityMappingPage'),
  },

  { path: '/genset/dashboard', layout: 'deviceTree', title: 'devices.genset', page: page(dashboards, 'GensetDashboardPage') },
  {
    path: '/genset/view/:id/:deviceId',
    layout: 'deviceTree',
    title: 'devices.gensetView',
    crumbs: ({ t }) => [list(t('devices.genset'), '/genset/dashboard'), { label: t('devices.gensetView') }],
    page: page(dashboards, 'DeviceDashboardViewPage'),
  },
  { path: '/alarm-panel/dashboard', layout: 'deviceTree', title: 'devices.alarmPanel', page: page(dashboards, 'AlarmPanelDashboardPage') },
  {
    path: '/alarm-panel/view/:id',
    layout: 'deviceTree',
    title: 'devices.alarmPanelView',
    crumbs: ({ t }) => [list(t('devices.alarmPanel'), '/alarm-panel/dashboard'), { label: t('devices.alarmPanelView') }],
    page: page(dashboards, 'DeviceDashboardViewPage'),
  },
  { path: '/rectifier/dashboard', layout: 'deviceTree', title: 'devices.rectifier', page: page(dashboards, 'RectifierDashboardPage') },
  {
    path: '/rectifier/view/:id/:deviceId',
    layout: 'deviceTree',
    title: 'devices.rectifierView',
    crumbs: ({ t }) => [list(t('devices.rectifier'), '/rectifier/dashboard'), { label: t('devices.rectifierView') }],
    page: page(dashboards, 'DeviceDashboardViewPage'),
  },
  { path: '/ups/dashboard', layout: 'deviceTree', title: 'devices.ups', page: page(dashboards, 'UpsDashboardPage') },
  {
    path: '/ups/view/:id/:deviceId',
    layout: 'deviceTree',
    title: 'devices.upsView',
    crumbs: ({ t }) => [list(t('devices.ups'), '/ups/dashboard'), { label: t('devices.upsView') }],
    page: page(dashboards, 'DeviceDashboardViewPage'),
  },
  { path: '/meter-device/dashboard', layout: 'deviceTree', title: 'devices.meter', page: page(dashboards, 'MeterDashboardPage') },
  { path: '/site-summary/power-dashboard/:id', layout: 'deviceTree', title: 'devices.power', page: page(sitePages, 'PowerDashboardPage') },
  { path: '/sitemonitoring', layout: 'deviceTree', title: 'devices.monitoring', page: page(sitePages, 'SiteMonitoringPage') },
];
