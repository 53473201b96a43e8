import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import type { CheckedLive } from '../video/index.ts';
import { createLinkKeyRing, type LinkKeyRing } from './link-keys.ts';
import { createLinkService, type LinkService } from './links.ts';
import { findComponent } from './repository.ts';
import { dashboardRoutes } from './routes.ts';
import { createDashboardService, type DashboardService, parseWidget } from './service.ts';
import type { DashboardSources } from './sources.ts';
import { createWidgetRunner, type WidgetRunner } from './widgets.ts';

export { createDashboardReads, createDashboardSources, type DashboardReads, type DashboardSources } from './sources.ts';

export interface DashboardsPorts {
  db: Db;
  /** `dashboard.changed` goes out to the tenant's users who view dashboards. */
  events: EventBus;
  clock: Clock;
  /** Who sees which site (the viewer's scope, and a link creator's current scope). */
  directory: SiteDirectory;
  /** Names of creators, and a link creator's current roles and permissions. */
  users: UserDirectory;
  /** The bounded, scoped reads behind widgets (devices, telemetry, alarms, tickets, cameras, form responses). */
  sources: DashboardSources;
  /** Live video of the camera tiles of shared links (the video module's playlist, media files and lease). */
  cameras: CheckedLive;
}

export interface DashboardsPort {
  dashboards: DashboardService;
  links: LinkService;
  runner: WidgetRunner;
  /** The analytics link keys: rotate and retire by key id. */
  keys: LinkKeyRing;
}

/** Dashboards (SPEC 2.2, 3, 7): folders, dashboards, components, versions, widget data and analytics links. */
export function createDashboardsModule(ports: DashboardsPorts): DomainModule<DashboardsPort> {
  const { db, clock } = ports;
  const dashboards = createDashboardService({ db, events: ports.events, clock, users: ports.users });
  const runner = createWidgetRunner({
    sources: ports.sources,
    now: () => clock.now().getTime(),
    async component(tenantId, id) {
      const row = await findComponent(db, tenantId, id);
      return row ? parseWidget(row.widget) : null;
    },
  });
  const keys = createLinkKeyRing(db);
  const links = createLinkService({
    db,
    events: ports.events,
    clock,
    keys,
    sources: ports.sources,
    runner,
    dashboards,
    directory: ports.directory,
    users: ports.users,
    cameras: ports.cameras,
  });
  return {
    ports: { dashboards, links, runner, keys },
    register(app) {
      dashboardRoutes(app, { dashboards, links, runner });
    },
  };
}
