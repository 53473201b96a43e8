import type { AlarmTables } from '../modules/alarms/tables.ts';
import type { AnalysisTables } from '../modules/analysis/tables.ts';
import type { AttendanceTables } from '../modules/attendance/tables.ts';
import type { BackupTables } from '../modules/backups/tables.ts';
import type { CalendarTables } from '../modules/calendar/tables.ts';
import type { ClusterTables } from '../modules/clusters/tables.ts';
import type { CommandTables } from '../modules/commands/tables.ts';
import type { DashboardTables } from '../modules/dashboards/tables.ts';
import type { DeviceApiTables } from '../modules/device-api/tables.ts';
import type { DeviceOpsTables } from '../modules/device-ops/tables.ts';
import type { DeviceTables } from '../modules/devices/tables.ts';
import type { DownloadTables } from '../modules/downloads/tables.ts';
import type { EquipmentTables } from '../modules/equipment/tables.ts';
import type { FormTables } from '../modules/forms/tables.ts';
import type { HelpdeskTables } from '../modules/helpdesk/tables.ts';
import type { InventoryTables } from '../modules/inventory/tables.ts';
import type { NotificationTables } from '../modules/notifications/tables.ts';
import type { PurchaseRequestTables } from '../modules/purchase-requests/tables.ts';
import type { ReportTables } from '../modules/reports/tables.ts';
import type { SiteTables } from '../modules/sites/tables.ts';
import type { SnmpTables } from '../modules/snmp/tables.ts';
import type { TelemetryTables } from '../modules/telemetry/tables.ts';
import type { UserAdminTables } from '../modules/users/tables.ts';
import type { VendorTables } from '../modules/vendors/tables.ts';
import type { VideoTables } from '../modules/video/tables.ts';
import type { ActivityLogTables } from '../platform/activity-log-tables.ts';
import type { IdempotencyTables } from '../platform/idempotency/tables.ts';
import type { JobTables } from '../platform/jobs/tables.ts';
import type { FoundationTables } from './foundation-tables.ts';

/**
 * The whole schema as Kysely sees it: each domain declares its tables in its own interface and is listed here.
 * Tables are reached only through the repositories of the domain that owns them.
 */
export interface Database
  extends FoundationTables,
    JobTables,
    BackupTables,
    HelpdeskTables,
    NotificationTables,
    SiteTables,
    DeviceTables,
    DeviceOpsTables,
    DeviceApiTables,
    VideoTables,
    TelemetryTables,
    AlarmTables,
    DownloadTables,
    FormTables,
    UserAdminTables,
    ActivityLogTables,
    IdempotencyTables,
    AnalysisTables,
    ClusterTables,
    InventoryTables,
    CalendarTables,
    VendorTables,
    AttendanceTables,
    EquipmentTables,
    DashboardTables,
    CommandTables,
    SnmpTables,
    PurchaseRequestTables,
    ReportTables {}
