import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    users: {
      administration: 'Administration',
      list: 'Users',
      create: 'Add user',
      edit: 'Edit user',
      details: 'User details',
      setPassword: 'Set your password',
    },
  },
  true,
  false,
);

const crumb = (label: string, to: string) => ({ label, to });

/** SPEC 2.2 user administration: /users, /user/{id} (and /user/create), /user-details/{id}; the set-password link. */
export const usersRoutes: AppRoute[] = [
  {
    path: '/administration',
    layout: 'main',
    title: 'users.administration',
    page: () => import('./AdministrationPage.tsx').then((m) => m.AdministrationPage),
  },
  { path: '/users', layout: 'main', title: 'users.list', page: () => import('./UsersListPage.tsx').then((m) => m.UsersListPage) },
  {
    path: '/user/create',
    layout: 'main',
    title: 'users.create',
    crumbs: ({ t }) => [crumb(t('users.list'), '/users'), { label: t('users.create') }],
    page: () => import('./UserFormPage.tsx').then((m) => m.UserFormPage),
  },
  {
    path: '/user/:id',
    layout: 'main',
    title: 'users.edit',
    crumbs: ({ t }) => [crumb(t('users.list'), '/users'), { label: t('users.edit') }],
    page: () => import('./UserFormPage.tsx').then((m) => m.UserFormPage),
  },
  {
    path: '/user-details/:id',
    layout: 'main',
    title: 'users.details',
    crumbs: ({ t }) => [crumb(t('users.list'), '/users'), { label: t('users.details') }],
    page: () => import('./UserDetailsPage.tsx').then((m) => m.UserDetailsPage),
  },
  {
    path: '/account/set-password',
    layout: 'plain',
    access: 'public',
    title: 'users.setPassword',
    page: () => import('./SetPasswordPage.tsx').then((m) => m.SetPasswordPage),
  },
];
