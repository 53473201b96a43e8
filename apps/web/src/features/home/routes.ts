import type { AppRoute } from '../../app/route-types.ts';

export const homeRoutes: AppRoute[] = [
  { path: '/', layout: 'main', title: 'nav.home', crumbs: () => [], page: () => import('./HomePage.tsx').then((m) => m.HomePage) },
];
