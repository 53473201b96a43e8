import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { mapQueryOf, prefetchMapSites } from './map-data.ts';

i18n.addResourceBundle('en', 'translation', { map: { multisite: 'Multi-site status' } }, true, false);

/** SPEC 2.4/2.12: the map of sites in the device-tree layout. */
export const mapRoutes: AppRoute[] = [
  {
    path: '/multisitestatus/dashboard',
    layout: 'deviceTree',
    title: 'map.multisite',
    page: () => import('./MultisiteStatusPage.tsx').then((m) => m.MultisiteStatusPage),
    prefetch: (url) => {
      const { parentDevice, filter } = mapQueryOf(url.searchParams);
      prefetchMapSites(parentDevice, filter);
    },
  },
];
