import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { notificationRoutes } from './routes.ts';
import { createNotificationService, type Notice } from './service.ts';
import { subscribeNotifications } from './subscriptions.ts';

const PRUNE_QUEUE = 'notifications.prune';

export interface NotificationsPorts {
  db: Db;
  events: EventBus;
  jobs: JobWorker;
  log: FastifyBaseLogger;
  /** Alarm notifications go to the users assigned to the device's site. */
  directory: SiteDirectory;
  users: UserDirectory;
  /** Each user's ticket notification config (the helpdesk's). */
  ticketPrefs(tenantId: number, userIds: number[]): Promise<Map<number, unknown>>;
}

export interface NotificationsPort {
  /** Resolves once every event emitted so far became inbox items (tests and benches wait on it). */
  settled(): Promise<void>;
  /** Puts a notice in these users' inboxes (those active in the tenant); returns who got it. */
  notify(tenantId: number, userIds: number[], notice: Notice): Promise<number[]>;
}

/** The inbox of SPEC 2.7: routes, the event subscriptions that fill it, and its daily pruning. */
export function createNotificationsModule(ports: NotificationsPorts): DomainModule<NotificationsPort> {
  const { db, events, jobs, log } = ports;
  const notifications = createNotificationService({ db, events, users: ports.users, ticketPrefs: ports.ticketPrefs });
  const subscription = subscribeNotifications({ events, notifications, directory: ports.directory, log });
  return {
    ports: {
      settled: subscription.settled,
      notify: (tenantId, userIds, notice) => notifications.notifyMany(tenantId, [{ userIds, notice }]),
    },
    register(app) {
      notificationRoutes(app, { notifications });
      jobs.register(PRUNE_QUEUE, async () => ({ removed: await notifications.prune() }));
      jobs.every(PRUNE_QUEUE, 24 * 3600_000);
      app.addHook('onClose', async () => {
        subscription.unsubscribe();
        await subscription.settled();
      });
    },
  };
}
