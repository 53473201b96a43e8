/**
 * Compile-time checks, verified by `npm run typecheck` (this file is not run): a module that needs the site
 * directory, the push scoping port, the ticket port or the sites' assignments port cannot be built without it. Each
 * `@ts-expect-error` fails the type check if the line below it ever compiles.
 */
import { createAlarmsModule } from '../src/modules/alarms/index.ts';
import { createAttendanceModule } from '../src/modules/attendance/index.ts';
import { createCalendarModule } from '../src/modules/calendar/index.ts';
import { createClustersModule } from '../src/modules/clusters/index.ts';
import { createDashboardsModule } from '../src/modules/dashboards/index.ts';
import { createEquipmentModule } from '../src/modules/equipment/index.ts';
import { createHelpdeskModule } from '../src/modules/helpdesk/index.ts';
import { createInventoryModule } from '../src/modules/inventory/index.ts';
import { createNotificationsModule } from '../src/modules/notifications/index.ts';
import { createTelemetryModule } from '../src/modules/telemetry/index.ts';
import { createUserAdminModule } from '../src/modules/users/admin-module.ts';
import { createUsersModule } from '../src/modules/users/index.ts';
import { createVideoModule } from '../src/modules/video/index.ts';
import { createPushModule } from '../src/platform/push/index.ts';

type PortsOf<F extends (ports: never) => unknown> = Parameters<F>[0];
declare const telemetry: PortsOf<typeof createTelemetryModule>;
declare const helpdesk: PortsOf<typeof createHelpdeskModule>;
declare const push: PortsOf<typeof createPushModule>;
declare const notifications: PortsOf<typeof createNotificationsModule>;
declare const alarms: PortsOf<typeof createAlarmsModule>;
declare const video: PortsOf<typeof createVideoModule>;
declare const users: PortsOf<typeof createUsersModule>;
declare const userAdmin: PortsOf<typeof createUserAdminModule>;
declare const clusters: PortsOf<typeof createClustersModule>;
declare const calendar: PortsOf<typeof createCalendarModule>;
declare const inventory: PortsOf<typeof createInventoryModule>;
declare const attendance: PortsOf<typeof createAttendanceModule>;
declare const equipment: PortsOf<typeof createEquipmentModule>;
declare const dashboards: PortsOf<typeof createDashboardsModule>;

export function modulesNeedTheirPorts() {
  const { directory: _t, ...telemetryWithoutDirectory } = telemetry;
  // @ts-expect-error telemetry cannot be built without the site directory
  createTelemetryModule(telemetryWithoutDirectory);
  // @ts-expect-error nor with an absent one
  createTelemetryModule({ ...telemetry, directory: undefined });

  const { directory: _h, ...helpdeskWithoutDirectory } = helpdesk;
  // @ts-expect-error the helpdesk cannot be built without the site directory
  createHelpdeskModule(helpdeskWithoutDirectory);
  const { vendors: _hv, ...helpdeskWithoutVendors } = helpdesk;
  // @ts-expect-error nor without the vendors a ticket may be assigned to
  createHelpdeskModule(helpdeskWithoutVendors);

  const { sites: _p, ...pushWithoutSites } = push;
  // @ts-expect-error the push hub cannot be built without the port that scopes sockets to their sites
  createPushModule(pushWithoutSites);
  // @ts-expect-error nor with one that answers "no filter"
  createPushModule({ ...push, sites: { visibleAssetIds: async () => null } });
  const { sessions: _pu, ...pushWithoutSessions } = push;
  // @ts-expect-error nor without the auth module's check that open sockets' sessions still hold
  createPushModule(pushWithoutSessions);

  const { directory: _n, ...notificationsWithoutDirectory } = notifications;
  // @ts-expect-error notifications cannot be built without the site directory
  createNotificationsModule(notificationsWithoutDirectory);

  const { tickets: _a, ...alarmsWithoutTickets } = alarms;
  // @ts-expect-error the alarm engine cannot be built without the helpdesk's ticket port
  createAlarmsModule(alarmsWithoutTickets);

  const { directory: _v, ...videoWithoutDirectory } = video;
  // @ts-expect-error video cannot be built without the site directory
  createVideoModule(videoWithoutDirectory);

  const { siteAssignments: _u, ...usersWithoutAssignments } = users;
  // @ts-expect-error the users module cannot be built without the sites' assignments port
  createUsersModule(usersWithoutAssignments);
  const { siteAssignments: _ua, ...userAdminWithoutAssignments } = userAdmin;
  // @ts-expect-error nor user administration
  createUserAdminModule(userAdminWithoutAssignments);
  const { tickets: _ut, ...userAdminWithoutTickets } = userAdmin;
  // @ts-expect-error nor without the helpdesk's port that counts and lists the field staff's open tickets
  createUserAdminModule(userAdminWithoutTickets);

  const { users: _c, ...clustersWithoutUsers } = clusters;
  // @ts-expect-error clusters cannot be built without the user directory that checks their leads
  createClustersModule(clustersWithoutUsers);

  const { tickets: _it, ...inventoryWithoutTickets } = inventory;
  // @ts-expect-error the inventory cannot be built without the helpdesk's port that says which tickets a user sees
  createInventoryModule(inventoryWithoutTickets);
  const { directory: _id, ...inventoryWithoutDirectory } = inventory;
  // @ts-expect-error nor without the site directory that scopes stores to the user's sites
  createInventoryModule(inventoryWithoutDirectory);

  const { directory: _cd, ...calendarWithoutDirectory } = calendar;
  // @ts-expect-error the calendar cannot be built without the site directory
  createCalendarModule(calendarWithoutDirectory);
  const { devices: _cm, ...calendarWithoutDevices } = calendar;
  // @ts-expect-error nor without the devices' maintenance toggle its windows switch
  createCalendarModule(calendarWithoutDevices);

  const { directory: _ad, ...attendanceWithoutDirectory } = attendance;
  // @ts-expect-error attendance cannot be built without the site directory (coordinates and visibility)
  createAttendanceModule(attendanceWithoutDirectory);
  const { tickets: _at, ...attendanceWithoutTickets } = attendance;
  // @ts-expect-error nor without the helpdesk's ticket service that moves tickets to INPROGRESS
  createAttendanceModule(attendanceWithoutTickets);
  const { directory: _ed, ...equipmentWithoutDirectory } = equipment;
  // @ts-expect-error equipment cannot be built without the site directory
  createEquipmentModule(equipmentWithoutDirectory);
  const { directory: _dd, ...dashboardsWithoutDirectory } = dashboards;
  // @ts-expect-error dashboards cannot be built without the site directory (the viewer's and a link creator's scope)
  createDashboardsModule(dashboardsWithoutDirectory);
  const { sources: _ds, ...dashboardsWithoutSources } = dashboards;
  // @ts-expect-error nor without the scoped widget reads
  createDashboardsModule(dashboardsWithoutSources);
}
