import type { AppRoute } from '../../app/route-types.ts';

const loginPage = () => import('./LoginPage.tsx').then((m) => m.LoginPage);

export const authRoutes: AppRoute[] = [
  { path: '/:role/login', layout: 'plain', access: 'guest', title: 'login.title', page: loginPage },
  {
    path: '/login',
    layout: 'plain',
    access: 'public',
    screen: false,
    page: () => import('./LoginRedirect.tsx').then((m) => m.LoginRedirect),
  },
];
