import { activityLogRoutes } from '../features/activity-log/routes.ts';
import { adminRoutes } from '../features/admin/routes.ts';
import { analysisRoutes } from '../features/analysis/routes.ts';
import { attendanceRoutes } from '../features/attendance/routes.ts';
import { authRoutes } from '../features/auth/routes.ts';
import { calendarRoutes } from '../features/calendar/routes.ts';
import { clustersRoutes } from '../features/clusters/routes.ts';
import { commandsRoutes } from '../features/commands/routes.ts';
import { dashboardsRoutes } from '../features/dashboards/routes.ts';
import { deviceOpsRoutes } from '../features/device-ops/routes.ts';
import { devicesRoutes } from '../features/devices/routes.ts';
import { downloadRoutes } from '../features/downloads/routes.ts';
import { equipmentRoutes } from '../features/equipment/routes.ts';
import { errorRoutes } from '../features/errors/routes.ts';
import { extensionRoutes } from '../features/extension/routes.ts';
import { fieldStaffRoutes } from '../features/field-staff/routes.ts';
import { formsRoutes } from '../features/forms/routes.ts';
import { helpdeskRoutes } from '../features/helpdesk/routes.ts';
import { homeRoutes } from '../features/home/routes.ts';
import { inventoryRoutes } from '../features/inventory/routes.ts';
import { mapRoutes } from '../features/map/routes.ts';
import { permissionRoutes } from '../features/permissions/routes.ts';
import { profileRoutes } from '../features/profile/routes.ts';
import { registrationRoutes } from '../features/registration/routes.ts';
import { reportRoutes } from '../features/reports/routes.ts';
import { siteSummaryRoutes } from '../features/site-summary/routes.ts';
import { sitesRoutes } from '../features/sites/routes.ts';
import { telemetryRoutes } from '../features/telemetry/routes.ts';
import { tenantSettingsRoutes } from '../features/tenant-settings/routes.ts';
import { trapforwardRoutes } from '../features/trapforward/routes.ts';
import { usersRoutes } from '../features/users/routes.ts';
import { vendorsRoutes } from '../features/vendors/routes.ts';
import { videoRoutes } from '../features/video/routes.ts';
import type { AppRoute } from './route-types.ts';

/**
 * Every screen of the app, feature by feature. A new domain adds its `routes.ts` here and nothing else:
 * the router, the side navigation (which only offers routes that have a screen) and the breadcrumbs read this list.
 */
export const APP_ROUTES: readonly AppRoute[] = [
  ...authRoutes,
  ...homeRoutes,
  ...profileRoutes,
  ...tenantSettingsRoutes,
  ...downloadRoutes,
  ...adminRoutes,
  ...videoRoutes,
  ...analysisRoutes,
  ...extensionRoutes,
  ...helpdeskRoutes,
  ...telemetryRoutes,
  ...sitesRoutes,
  ...usersRoutes,
  ...fieldStaffRoutes,
  ...clustersRoutes,
  ...vendorsRoutes,
  ...permissionRoutes,
  ...registrationRoutes,
  ...activityLogRoutes,
  ...devicesRoutes,
  ...deviceOpsRoutes,
  ...commandsRoutes,
  ...siteSummaryRoutes,
  ...mapRoutes,
  ...formsRoutes,
  ...calendarRoutes,
  ...inventoryRoutes,
  ...reportRoutes,
  ...attendanceRoutes,
  ...equipmentRoutes,
  ...trapforwardRoutes,
  ...dashboardsRoutes,
  ...errorRoutes,
];
