import { lazyPage as page } from '../../app/lazy-page.ts';
import type { AppRoute } from '../../app/route-types.ts';
import { can } from '../../lib/access.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { prefetchDashboard } from './prefetch.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    dashboards: {
      list: 'Dashboards',
      create: 'Create dashboard',
      edit: 'Edit dashboard',
      view: 'Dashboard',
      componentCreate: 'Create component',
      componentEdit: 'Edit component',
      componentView: 'Component',
      folder: 'Folder',
      shared: 'Analytics dashboard',
      report: 'Analytics report',
    },
  },
  true,
  false,
);

// codenames of DASHBOARD_PERMISSIONS (contracts), spelled here so the main bundle does not load the dashboard schemas
const VIEW = 'view_dashboard';
const ADD = 'add_dashboard';
const CHANGE = 'change_dashboard';
const SHARE = 'share_dashboard';

/** SPEC 2.2 dashboards: folders, dashboards on a grid, reusable components, shared analytics links. */
export const dashboardsRoutes: AppRoute[] = [
  {
    path: '/dashboards',
    layout: 'main',
    title: 'dashboards.list',
    allow: (u) => can(u, VIEW),
    page: page(() => import('./pages/DashboardsPage.tsx'), 'DashboardsPage'),
  },
  {
    path: '/dashboards/create',
    layout: 'main',
    title: 'dashboards.create',
    allow: (u) => can(u, ADD),
    crumbs: ({ t }) => [{ label: t('dashboards.list'), to: '/dashboards' }, { label: t('dashboards.create') }],
    page: page(() => import('./pages/DashboardEditPage.tsx'), 'DashboardEditPage'),
  },
  {
    path: '/dashboards/:id/edit',
    layout: 'main',
    title: 'dashboards.edit',
    // those who may add dashboards edit their own (the server refuses them others')
    allow: (u) => can(u, CHANGE) || can(u, ADD),
    crumbs: ({ t }) => [{ label: t('dashboards.list'), to: '/dashboards' }, { label: t('dashboards.edit') }],
    page: page(() => import('./pages/DashboardEditPage.tsx'), 'DashboardEditPage'),
  },
  // the breadcrumb follows the dashboard's folder path: the page draws it once it knows the path
  {
    path: '/dashboards/:id/view',
    layout: 'main',
    title: 'dashboards.view',
    crumbs: () => [],
    prefetch: prefetchDashboard,
    page: page(() => import('./pages/DashboardViewPage.tsx'), 'DashboardViewPage'),
  },
  {
    path: '/dashboards/:id/view/',
    layout: 'main',
    title: 'dashboards.view',
    crumbs: () => [],
    screen: false,
    prefetch: prefetchDashboard,
    page: page(() => import('./pages/DashboardViewPage.tsx'), 'DashboardViewPage'),
  },
  {
    path: '/dashboards/component/create',
    layout: 'main',
    title: 'dashboards.componentCreate',
    allow: (u) => can(u, ADD),
    crumbs: ({ t }) => [{ label: t('dashboards.list'), to: '/dashboards?tab=components' }, { label: t('dashboards.componentCreate') }],
    page: page(() => import('./pages/ComponentPages.tsx'), 'ComponentEditPage'),
  },
  {
    path: '/dashboards/component/:id/edit',
    layout: 'main',
    title: 'dashboards.componentEdit',
    allow: (u) => can(u, CHANGE),
    crumbs: ({ t }) => [{ label: t('dashboards.list'), to: '/dashboards?tab=components' }, { label: t('dashboards.componentEdit') }],
    page: page(() => import('./pages/ComponentPages.tsx'), 'ComponentEditPage'),
  },
  {
    path: '/dashboards/component/:id/view',
    layout: 'main',
    title: 'dashboards.componentView',
    allow: (u) => can(u, VIEW),
    crumbs: ({ t }) => [{ label: t('dashboards.list'), to: '/dashboards?tab=components' }, { label: t('dashboards.componentView') }],
    page: page(() => import('./pages/ComponentPages.tsx'), 'ComponentViewPage'),
  },
  {
    path: '/folder/:folderId',
    layout: 'main',
    title: 'dashboards.folder',
    crumbs: () => [],
    page: page(() => import('./pages/FolderPage.tsx'), 'FolderPage'),
  },
  {
    path: '/analytics-report',
    layout: 'main',
    title: 'dashboards.report',
    allow: (u) => can(u, SHARE),
    page: page(() => import('../analytics/AnalyticsReportPage.tsx'), 'AnalyticsReportPage'),
  },
  {
    path: '/analytics-dashboard/:id/:token',
    layout: 'bare',
    access: 'public',
    hideNavigation: true,
    title: 'dashboards.shared',
    crumbs: () => [],
    page: page(() => import('../analytics/SharedDashboardPage.tsx'), 'SharedDashboardPage'),
  },
];
