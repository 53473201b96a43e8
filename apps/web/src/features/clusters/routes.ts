import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { permissionsOf } from '../../lib/session.ts';

i18n.addResourceBundle('en', 'translation', { clusters: { list: 'Clusters', create: 'Add cluster', edit: 'Edit cluster' } }, true, false);

const crumb = (label: string, to: string) => ({ label, to });

/** SPEC 2.2 cluster-view, cluster-view/create, cluster-view/{id}/edit. */
export const clustersRoutes: AppRoute[] = [
  {
    path: '/cluster-view',
    layout: 'main',
    title: 'clusters.list',
    page: () => import('./ClustersListPage.tsx').then((m) => m.ClustersListPage),
  },
  {
    path: '/cluster-view/create',
    layout: 'main',
    title: 'clusters.create',
    allow: (user) => permissionsOf(user).has('add_cluster'),
    crumbs: ({ t }) => [crumb(t('clusters.list'), '/cluster-view'), { label: t('clusters.create') }],
    page: () => import('./ClusterFormPage.tsx').then((m) => m.ClusterFormPage),
  },
  {
    path: '/cluster-view/:id/edit',
    layout: 'main',
    title: 'clusters.edit',
    allow: (user) => permissionsOf(user).has('change_cluster'),
    crumbs: ({ t }) => [crumb(t('clusters.list'), '/cluster-view'), { label: t('clusters.edit') }],
    page: () => import('./ClusterFormPage.tsx').then((m) => m.ClusterFormPage),
  },
];
