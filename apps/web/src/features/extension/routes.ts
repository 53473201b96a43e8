import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { extension: { title: 'Live panel' } }, true, false);

/** SPEC 2.2 /extension: the compact live panel, navigation hidden (SPEC 2.5). */
export const extensionRoutes: AppRoute[] = [
  {
    path: '/extension',
    layout: 'main',
    hideNavigation: true,
    title: 'extension.title',
    crumbs: () => [],
    page: () => import('./ExtensionPage.tsx').then((m) => m.ExtensionPage),
  },
];
