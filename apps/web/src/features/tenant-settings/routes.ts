import type { AppRoute } from '../../app/route-types.ts';

export const tenantSettingsRoutes: AppRoute[] = [
  // SPEC 2.1: /settings has no login check; the page itself asks to sign in and needs a customer admin.
  {
    path: '/settings',
    layout: 'main',
    access: 'public',
    title: 'settings.title',
    page: () => import('./SettingsPage.tsx').then((m) => m.SettingsPage),
  },
];
