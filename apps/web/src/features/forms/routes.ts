import type { ComponentType } from 'react';
import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  { forms: { list: 'Forms', builder: 'Form builder', responses: 'Form responses', fill: 'Fill form' } },
  true,
  false,
);

const page =
  <K extends string>(load: () => Promise<Record<K, unknown>>, name: K) =>
  () =>
    load().then((m) => m[name] as ComponentType);
// Two entries rather than four: every lazy entry costs the login bundle its list of chunks to preload.
const lists = () => import('./pages.ts');
const editors = () => import('./editors.ts');
const list = page(lists, 'FormsListPage');
const responses = page(lists, 'ResponsesPage');
const builder = page(editors, 'BuilderPage');
const create = page(editors, 'FormCreatePage');
const formsCrumb = { label: 'Forms', to: '/forms' };

/** SPEC 2.2: forms, forms/builder, forms/builder/{id}, forms/{id}/view, form/{id}/view, form-builder, form/{id}/create. */
export const formsRoutes: AppRoute[] = [
  { path: '/forms', layout: 'main', title: 'forms.list', page: list },
  { path: '/forms/builder', layout: 'main', title: 'forms.builder', crumbs: () => [formsCrumb, { label: 'New form' }], page: builder },
  { path: '/forms/builder/:id', layout: 'main', title: 'forms.builder', crumbs: () => [formsCrumb, { label: 'Edit form' }], page: builder },
  { path: '/form-builder', layout: 'main', title: 'forms.builder', crumbs: () => [formsCrumb, { label: 'New form' }], page: builder },
  {
    path: '/forms/:id/view',
    layout: 'main',
    title: 'forms.responses',
    crumbs: () => [formsCrumb, { label: 'Responses' }],
    page: responses,
  },
  { path: '/form/:id/view', layout: 'main', title: 'forms.responses', crumbs: () => [formsCrumb, { label: 'Responses' }], page: responses },
  { path: '/form/:id/create', layout: 'main', title: 'forms.fill', crumbs: () => [formsCrumb, { label: 'Fill form' }], page: create },
];
