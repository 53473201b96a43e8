import { lazyPage as page } from '../../app/lazy-page.ts';
import type { AppRoute } from '../../app/route-types.ts';
import { can } from '../../lib/access.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    sites: {
      assets: 'Sites',
      assetView: 'Site',
      assetCreate: 'Add site',
      assetEdit: 'Edit site',
      assignAsset: 'Assign sites',
      devicePermission: 'Device permissions',
      customers: 'Customers',
      customerCreate: 'Add customer',
      customerView: 'Customer',
      customerEdit: 'Edit customer',
      credentials: 'IoT framework credentials',
      users: 'Users',
    },
  },
  true,
  false,
);

const admins = ['sysadmin', 'customeradmin', 'localadmin'] as const;
const customerAdmins = ['sysadmin', 'customeradmin'] as const;
const crumb = (label: string, to: string) => ({ label, to });

/** SPEC 2.2 asset, customer, user-assignment and permission routes. */
export const sitesRoutes: AppRoute[] = [
  { path: '/assets', layout: 'main', title: 'sites.assets', page: page(() => import('./AssetsPage.tsx'), 'AssetsPage') },
  {
    path: '/assets/create',
    layout: 'main',
    allow: (user) => can(user, 'add_asset'),
    title: 'sites.assetCreate',
    crumbs: ({ t }) => [crumb(t('sites.assets'), '/assets'), { label: t('sites.assetCreate') }],
    page: page(() => import('./AssetFormPage.tsx'), 'AssetFormPage'),
  },
  {
    path: '/assets/edit/:id',
    layout: 'main',
    allow: (user) => can(user, 'change_asset'),
    title: 'sites.assetEdit',
    crumbs: ({ t }) => [crumb(t('sites.assets'), '/assets'), { label: t('sites.assetEdit') }],
    page: page(() => import('./AssetFormPage.tsx'), 'AssetFormPage'),
  },
  {
    path: '/assets/view/:id',
    layout: 'main',
    title: 'sites.assetView',
    crumbs: ({ t }) => [crumb(t('sites.assets'), '/assets'), { label: t('sites.assetView') }],
    page: page(() => import('./AssetViewPage.tsx'), 'AssetViewPage'),
  },
  {
    path: '/assign-asset',
    layout: 'main',
    title: 'sites.assignAsset',
    roles: admins,
    crumbs: ({ t }) => [crumb(t('sites.users'), '/users'), { label: t('sites.assignAsset') }],
    page: page(() => import('./UsersPages.tsx'), 'AssignAssetPage'),
  },
  {
    path: '/device-permission',
    layout: 'main',
    title: 'sites.devicePermission',
    roles: customerAdmins,
    page: page(() => import('./UsersPages.tsx'), 'DevicePermissionPage'),
  },
  {
    path: '/customers',
    layout: 'main',
    title: 'sites.customers',
    roles: admins,
    page: page(() => import('./CustomersPages.tsx'), 'CustomersPage'),
  },
  {
    path: '/customers/create',
    layout: 'main',
    title: 'sites.customerCreate',
    roles: customerAdmins,
    crumbs: ({ t }) => [crumb(t('sites.customers'), '/customers'), { label: t('sites.customerCreate') }],
    page: page(() => import('./CustomersPages.tsx'), 'CustomerFormPage'),
  },
  {
    path: '/customers/:id/view',
    layout: 'main',
    title: 'sites.customerView',
    roles: admins,
    crumbs: ({ t }) => [crumb(t('sites.customers'), '/customers'), { label: t('sites.customerView') }],
    page: page(() => import('./CustomersPages.tsx'), 'CustomerViewPage'),
  },
  {
    path: '/customers/:id/edit',
    layout: 'main',
    title: 'sites.customerEdit',
    roles: customerAdmins,
    crumbs: ({ t }) => [crumb(t('sites.customers'), '/customers'), { label: t('sites.customerEdit') }],
    page: page(() => import('./CustomersPages.tsx'), 'CustomerFormPage'),
  },
  {
    path: '/customers/:id/iot-fw-cred',
    layout: 'main',
    title: 'sites.credentials',
    roles: customerAdmins,
    crumbs: ({ t }) => [crumb(t('sites.customers'), '/customers'), { label: t('sites.credentials') }],
    page: page(() => import('./CustomersPages.tsx'), 'IotCredentialsPage'),
  },
];
