import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import './live-status.ts';

i18n.addResourceBundle('en', 'translation', { telemetry: { deviceHealth: 'Device health' } }, true, false);

/** SPEC 2.2 /device-health: alarms of the estate and the alarm rules. */
export const telemetryRoutes: AppRoute[] = [
  {
    path: '/device-health',
    layout: 'main',
    title: 'telemetry.deviceHealth',
    page: () => import('./DeviceHealthPage.tsx').then((m) => m.DeviceHealthPage),
  },
];
