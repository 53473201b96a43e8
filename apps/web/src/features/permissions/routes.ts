import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { permissions: { title: 'Permissions' } }, true, false);

/** SPEC 2.2 /permissions/: groups and their permissions. */
export const permissionRoutes: AppRoute[] = [
  {
    path: '/permissions',
    layout: 'main',
    title: 'permissions.title',
    page: () => import('./PermissionsPage.tsx').then((m) => m.PermissionsPage),
  },
];
