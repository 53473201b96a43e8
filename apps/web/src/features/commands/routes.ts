import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { permissionsOf } from '../../lib/session.ts';

i18n.addResourceBundle('en', 'translation', { commands: { bulk: 'Device Commands' } }, true, false);

/** Bulk device commands: one command to many devices, with each device's state live. */
export const commandsRoutes: AppRoute[] = [
  {
    path: '/device-commands',
    layout: 'main',
    title: 'commands.bulk',
    // the server's rule: sending needs send_command besides view_device
    allow: (user) => permissionsOf(user).has('send_command') && permissionsOf(user).has('view_device'),
    page: () => import('./BulkCommandsPage.tsx').then((m) => m.BulkCommandsPage),
  },
];
