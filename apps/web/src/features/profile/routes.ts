import type { AppRoute } from '../../app/route-types.ts';

export const profileRoutes: AppRoute[] = [
  { path: '/myprofile', layout: 'main', title: 'profile.title', page: () => import('./MyProfilePage.tsx').then((m) => m.MyProfilePage) },
  {
    path: '/account/change-password',
    layout: 'main',
    title: 'password.title',
    page: () => import('./ChangePasswordPage.tsx').then((m) => m.ChangePasswordPage),
  },
  // SPEC 2.1: /sessions has no login check; the page asks to sign in when nobody is.
  {
    path: '/sessions',
    layout: 'main',
    access: 'public',
    title: 'sessions.title',
    page: () => import('./SessionsPage.tsx').then((m) => m.SessionsPage),
  },
];
