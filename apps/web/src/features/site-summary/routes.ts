import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { siteSummary: { title: 'Site summary', v2: 'Site summary' } }, true, false);

/** SPEC 2.4/2.11: the site summary in the device-tree layout; its v2 wall display has no login check (SPEC 2.1). */
export const siteSummaryRoutes: AppRoute[] = [
  {
    path: '/site-summary/dashboard',
    layout: 'deviceTree',
    title: 'siteSummary.title',
    page: () => import('./SiteSummaryPage.tsx').then((m) => m.SiteSummaryPage),
  },
  {
    path: '/site-summary/v2-dashboard',
    layout: 'deviceTree',
    access: 'public',
    title: 'siteSummary.v2',
    page: () => import('./SiteSummaryV2Page.tsx').then((m) => m.SiteSummaryV2Page),
  },
];
