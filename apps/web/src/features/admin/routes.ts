import type { AppRoute } from '../../app/route-types.ts';

export const adminRoutes: AppRoute[] = [
  {
    path: '/app-admin',
    layout: 'main',
    roles: ['sysadmin'],
    title: 'admin.title',
    page: () => import('./AppAdminPage.tsx').then((m) => m.AppAdminPage),
  },
];
