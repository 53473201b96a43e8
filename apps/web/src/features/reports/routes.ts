import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { permissionsOf } from '../../lib/session.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    reports: {
      inventory: 'Inventory Report',
      pr: 'Purchase Requests',
      prNew: 'New purchase request',
      prEdit: 'Edit purchase request',
      prView: 'Purchase request',
    },
  },
  true,
  false,
);

const viewsInventory = (user: Parameters<NonNullable<AppRoute['allow']>>[0]) => permissionsOf(user).has('view_inventory');
const viewsRequests = (user: Parameters<NonNullable<AppRoute['allow']>>[0]) => permissionsOf(user).has('view_purchaserequest');
const prCrumb = { label: 'Purchase Requests', to: '/pr-report' };

/** SPEC 2.2 /inventory-report and /pr-report, with the purchase request screens under /pr-report. */
export const reportRoutes: AppRoute[] = [
  {
    path: '/inventory-report',
    layout: 'main',
    title: 'reports.inventory',
    allow: viewsInventory,
    page: () => import('./InventoryReportPage.tsx').then((m) => m.InventoryReportPage),
  },
  {
    path: '/pr-report',
    layout: 'main',
    title: 'reports.pr',
    allow: viewsRequests,
    page: () => import('./PrReportPage.tsx').then((m) => m.PrReportPage),
  },
  {
    path: '/pr-report/create',
    layout: 'main',
    title: 'reports.prNew',
    allow: (user) => permissionsOf(user).has('add_purchaserequest'),
    crumbs: ({ t }) => [prCrumb, { label: t('reports.prNew') }],
    page: () => import('./PrFormPage.tsx').then((m) => m.PrFormPage),
  },
  {
    path: '/pr-report/:id/edit',
    layout: 'main',
    title: 'reports.prEdit',
    allow: (user) => permissionsOf(user).has('change_purchaserequest'),
    crumbs: ({ t }) => [prCrumb, { label: t('reports.prEdit') }],
    page: () => import('./PrFormPage.tsx').then((m) => m.PrFormPage),
  },
  {
    path: '/pr-report/:id/view',
    layout: 'main',
    title: 'reports.prView',
    allow: viewsRequests,
    crumbs: ({ t }) => [prCrumb, { label: t('reports.prView') }],
    page: () => import('./PrViewPage.tsx').then((m) => m.PrViewPage),
  },
];
