import type { AppRoute } from '../../app/route-types.ts';
import { can } from '../../lib/access.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { trapforward: { destinations: 'Trap Destinations', filters: 'Trap Filters' } }, true, false);

// permission codenames as literals: the route table is in the main bundle, the contracts' schemas are not
/** SPEC 2.2 /trapforward/destinations and /trapforward/filters: where SNMP traps are forwarded, which ones, and what they raise. */
export const trapforwardRoutes: AppRoute[] = [
  {
    path: '/trapforward/destinations',
    layout: 'main',
    title: 'trapforward.destinations',
    allow: (user) => can(user, 'view_trap_destination'),
    page: () => import('./DestinationsPage.tsx').then((m) => m.DestinationsPage),
  },
  {
    path: '/trapforward/filters',
    layout: 'main',
    title: 'trapforward.filters',
    allow: (user) => can(user, 'view_trap_filter'),
    page: () => import('./FiltersPage.tsx').then((m) => m.FiltersPage),
  },
];
