import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { permissionsOf } from '../../lib/session.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    deviceOps: {
      access: 'Access Control',
      routers: 'Routers',
      rtus: 'RTU',
      rtuSite: 'Site RTUs',
      diagnostics: 'Diagnostics',
    },
  },
  true,
  false,
);

const views = (user: Parameters<NonNullable<AppRoute['allow']>>[0]) => permissionsOf(user).has('view_device');

/** SPEC 2.2 /access-control, /router, /rtu-multisite, eth-single-site/view/{id}, /diagnostics. */
export const deviceOpsRoutes: AppRoute[] = [
  {
    path: '/access-control',
    layout: 'main',
    title: 'deviceOps.access',
    allow: views,
    page: () => import('./AccessControlPage.tsx').then((m) => m.AccessControlPage),
  },
  {
    path: '/router',
    layout: 'main',
    title: 'deviceOps.routers',
    allow: views,
    page: () => import('./RouterPage.tsx').then((m) => m.RouterPage),
  },
  {
    path: '/rtu-multisite',
    layout: 'main',
    title: 'deviceOps.rtus',
    allow: views,
    page: () => import('./RtuPages.tsx').then((m) => m.RtuMultisitePage),
  },
  {
    path: '/eth-single-site/view/:id',
    layout: 'main',
    title: 'deviceOps.rtuSite',
    allow: views,
    crumbs: ({ t }) => [{ label: t('deviceOps.rtus'), to: '/rtu-multisite' }, { label: t('deviceOps.rtuSite') }],
    page: () => import('./RtuPages.tsx').then((m) => m.RtuSitePage),
  },
  {
    path: '/diagnostics',
    layout: 'main',
    title: 'deviceOps.diagnostics',
    allow: (user) => permissionsOf(user).has('view_device') && permissionsOf(user).has('run_diagnostics'),
    page: () => import('./DiagnosticsPage.tsx').then((m) => m.DiagnosticsPage),
  },
];
