import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { downloads: { title: 'Downloads' } }, true, false);

export const downloadRoutes: AppRoute[] = [
  { path: '/downloads', layout: 'main', title: 'downloads.title', page: () => import('./DownloadsPage.tsx').then((m) => m.DownloadsPage) },
];
