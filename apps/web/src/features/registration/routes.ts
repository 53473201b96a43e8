import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    registration: {
      register: 'Request an account',
      done: 'Request sent',
      emailDone: 'E-mail confirmation',
      requests: 'Registration requests',
      request: 'Registration request',
    },
  },
  true,
  false,
);

/** SPEC 2.3 /register, /register/request-done; 2.2 /email-done and /registration-requests/{id}/view. */
export const registrationRoutes: AppRoute[] = [
  {
    path: '/register',
    layout: 'registration',
    access: 'guest',
    title: 'registration.register',
    page: () => import('./RegisterPage.tsx').then((m) => m.RegisterPage),
  },
  {
    path: '/register/request-done',
    layout: 'registration',
    access: 'public',
    title: 'registration.done',
    page: () => import('./DonePages.tsx').then((m) => m.RequestDonePage),
  },
  {
    path: '/email-done',
    layout: 'registration',
    access: 'public',
    title: 'registration.emailDone',
    page: () => import('./DonePages.tsx').then((m) => m.EmailDonePage),
  },
  {
    path: '/registration-requests',
    layout: 'main',
    title: 'registration.requests',
    crumbs: ({ t }) => [{ label: t('users.list'), to: '/users' }, { label: t('registration.requests') }],
    page: () => import('./RequestsPages.tsx').then((m) => m.RegistrationRequestsPage),
  },
  {
    path: '/registration-requests/:id/view',
    layout: 'main',
    title: 'registration.request',
    crumbs: ({ t }) => [
      { label: t('users.list'), to: '/users' },
      { label: t('registration.requests'), to: '/registration-requests' },
      { label: t('registration.request') },
    ],
    page: () => import('./RequestsPages.tsx').then((m) => m.RegistrationRequestPage),
  },
];
