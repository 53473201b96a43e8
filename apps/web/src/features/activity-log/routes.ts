import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';

i18n.addResourceBundle('en', 'translation', { activityLog: { title: 'User activity logs' } }, true, false);

/** SPEC 2.2 /user-activity-logs. */
export const activityLogRoutes: AppRoute[] = [
  {
    path: '/user-activity-logs',
    layout: 'main',
    title: 'activityLog.title',
    page: () => import('./ActivityLogPage.tsx').then((m) => m.ActivityLogPage),
  },
];
