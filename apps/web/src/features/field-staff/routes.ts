import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { permissionsOf } from '../../lib/session.ts';
import { DIRECTORIES } from './directories.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  {
    fieldStaff: {
      fieldexecutive: { list: 'Field Executives', create: 'Add field executive', edit: 'Edit field executive' },
      storemanager: { list: 'Store Managers', create: 'Add store manager', edit: 'Edit store manager' },
      infraadmin: { list: 'Infra Admins', create: 'Add infra admin', edit: 'Edit infra admin' },
    },
  },
  true,
  false,
);

const list = () => import('./FieldStaffListPage.tsx').then((m) => m.FieldStaffListPage);
const form = () => import('./FieldStaffFormPage.tsx').then((m) => m.FieldStaffFormPage);

/** SPEC 2.2 /field-executives, /store-manager, /infra-admin, each with /create and /edit/{id}: one set of pages per role. */
export const fieldStaffRoutes: AppRoute[] = DIRECTORIES.flatMap((d) => {
  const key = `fieldStaff.${d.role}`;
  const crumbs =
    (label: string): AppRoute['crumbs'] =>
    ({ t }) => [{ label: t(`${key}.list`), to: d.base }, { label: t(`${key}.${label}`) }];
  return [
    { path: d.base, layout: 'main', title: `${key}.list`, page: list },
    {
      path: `${d.base}/create`,
      layout: 'main',
      title: `${key}.create`,
      allow: (user) => permissionsOf(user).has('add_user'),
      crumbs: crumbs('create'),
      page: form,
    },
    { path: `${d.base}/edit/:id`, layout: 'main', title: `${key}.edit`, crumbs: crumbs('edit'), page: form },
  ] satisfies AppRoute[];
});
