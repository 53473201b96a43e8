import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { vendors: { list: 'Vendors', create: 'Add vendor', edit: 'Edit vendor' } }, true, false);

const crumb = (label: string, to: string) => ({ label, to });

/** SPEC 2.2 /vendors, /vendors/create, /vendors/edit/{id}. */
export const vendorsRoutes: AppRoute[] = [
  { path: '/vendors', layout: 'main', title: 'vendors.list', page: () => import('./VendorsListPage.tsx').then((m) => m.VendorsListPage) },
  {
    path: '/vendors/create',
    layout: 'main',
    title: 'vendors.create',
    crumbs: ({ t }) => [crumb(t('vendors.list'), '/vendors'), { label: t('vendors.create') }],
    page: () => import('./VendorFormPage.tsx').then((m) => m.VendorFormPage),
  },
  {
    path: '/vendors/edit/:id',
    layout: 'main',
    title: 'vendors.edit',
    crumbs: ({ t }) => [crumb(t('vendors.list'), '/vendors'), { label: t('vendors.edit') }],
    page: () => import('./VendorFormPage.tsx').then((m) => m.VendorFormPage),
  },
];
