import type { AppRoute } from '../../app/route-types.ts';

export const errorRoutes: AppRoute[] = [
  {
    path: '/tenant-not-found',
    layout: 'bare',
    access: 'public',
    title: 'errors.tenantTitle',
    page: () => import('./TenantNotFoundPage.tsx').then((m) => m.TenantNotFoundPage),
  },
  {
    path: '/access-denied',
    layout: 'main',
    title: 'errors.accessDeniedTitle',
    crumbs: () => [],
    page: () => import('./AccessDeniedPage.tsx').then((m) => m.AccessDeniedPage),
  },
  {
    path: '/redirect',
    layout: 'main',
    title: 'redirect.title',
    screen: false,
    page: () => import('./RedirectPage.tsx').then((m) => m.RedirectPage),
  },
  {
    path: '/cookie-policy',
    layout: 'main',
    access: 'public',
    hideNavigation: true,
    title: 'cookiePolicy.title',
    page: () => import('./CookiePolicyPage.tsx').then((m) => m.CookiePolicyPage),
  },
];
