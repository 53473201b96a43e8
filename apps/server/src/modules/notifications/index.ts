import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.ts';
import { notificationRoutes } from './routes.ts';
import { createNotificationService } from './service.ts';
import { subscribeNotifications } from './subscriptions.ts';

const PRUNE_QUEUE = 'notifications.prune';

/** Tests reach the module through the app's HTTP server: wait until every event so far became inbox items. */
const byServer = new WeakMap<object, { settled(): Promise<void> }>();
export const notificationsOf = (server: object) => byServer.get(server);

/** The inbox of SPEC 2.7: routes, the event subscriptions that fill it, and its daily pruning. */
export function notificationsModule(app: FastifyInstance, context: AppContext) {
  const notifications = createNotificationService({ db: context.db, events: context.events });
  const subscription = subscribeNotifications({
    events: context.events,
    notifications,
    directory: () => context.directory,
    log: app.log,
  });
  notificationRoutes(app, { notifications });
  byServer.set(app.server, { settled: subscription.settled });
  context.jobs.register(PRUNE_QUEUE, async () => ({ removed: await notifications.prune() }));
  context.jobs.every(PRUNE_QUEUE, 24 * 3600_000);
  app.addHook('onClose', async () => {
    subscription.unsubscribe();
    await subscription.settled();
  });
}
