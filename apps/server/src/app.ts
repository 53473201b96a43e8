import { join } from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { connectMetricSources } from './metric-sources.ts';
import { createActivityLogModule } from './modules/activity-log/index.ts';
import { type AlarmsPort, createAlarmsModule } from './modules/alarms/index.ts';
import { type AnalysisPort, createAnalysisModule } from './modules/analysis/index.ts';
import { type AttendancePort, createAttendanceModule, type SiteStills } from './modules/attendance/index.ts';
import { createAuthModule } from './modules/auth/index.ts';
import { BACKUP_FAILED_VERB, backupFailureMetadata, createBackupsModule } from './modules/backups/index.ts';
import type { BackupService } from './modules/backups/service.ts';
import { type CalendarPort, createCalendarModule } from './modules/calendar/index.ts';
import { type ClustersPort, createClustersModule } from './modules/clusters/index.ts';
import { type CommandsPort, createCommandsModule } from './modules/commands/index.ts';
import { createDashboardReads, createDashboardSources, createDashboardsModule, type DashboardsPort } from './modules/dashboards/index.ts';
import { createDeviceApiModule, type DeviceApiPort } from './modules/device-api/index.ts';
import { createDeviceOpsModule } from './modules/device-ops/index.ts';
import { createDeviceRecords, createDevicesModule } from './modules/devices/index.ts';
import { createDownloadsModule, type DownloadsPort } from './modules/downloads/index.ts';
import { createEquipmentModule, type EquipmentPort } from './modules/equipment/index.ts';
import { createFormsModule, type FormsPort } from './modules/forms/index.ts';
import { createHelpdeskModule, type HelpdeskPort, type SystemTickets } from './modules/helpdesk/index.ts';
import { createInventoryModule, type InventoryPort } from './modules/inventory/index.ts';
import { createNotificationsModule, type NotificationsPort } from './modules/notifications/index.ts';
import { createPurchaseRequestsModule, type PurchaseRequestPort } from './modules/purchase-requests/index.ts';
import { createReportsModule, type ReportsPort } from './modules/reports/index.ts';
import { createSiteAssignments, createSitesModule, type SiteDirectory, type SitesPort } from './modules/sites/index.ts';
import { createSnmpModule, type SnmpPort } from './modules/snmp/index.ts';
import { blobStoreCheck, brokerCheck, createSystemModule, databaseCheck } from './modules/system/index.ts';
import { createTelemetryModule, type TelemetryPort } from './modules/telemetry/index.ts';
import { createTenantSettingsModule, type TenantSettingsPort } from './modules/tenant-settings/index.ts';
import { createUserAdminModule } from './modules/users/admin-module.ts';
import { createUsersModule } from './modules/users/index.ts';
import { createVendorDirectory, createVendorsModule } from './modules/vendors/index.ts';
import { createVideoModule, type VideoPort } from './modules/video/index.ts';
import { registerAccessLog } from './platform/access-log.ts';
import { type RouteAccess, runGuardsBeforeValidation } from './platform/auth/context.ts';
import { createCsrf } from './platform/auth/csrf.ts';
import { registerAccessHooks } from './platform/auth/hooks.ts';
import { createTokenSigner } from './platform/auth/tokens.ts';
import { type BackupRunner, createBackupRunner } from './platform/backup/runner.ts';
import { createLocalBlobStore } from './platform/blobs.ts';
import type { DbHandle } from './platform/db.ts';
import { registerErrorHandler } from './platform/errors.ts';
import { createEventBus, type EventBus } from './platform/events.ts';
import { registerIdempotency } from './platform/idempotency/index.ts';
import { createJobWorker } from './platform/jobs/worker.ts';
import { createMailSender, type MailSender } from './platform/mail.ts';
import { createMetrics, type Metrics, metricsRoute } from './platform/metrics/index.ts';
import { type Clock, type DomainModule, systemClock } from './platform/module.ts';
import { openApiTransform, SECURITY_SCHEMES } from './platform/openapi.ts';
import { createOutboundNetworks } from './platform/outbound-networks.ts';
import { createPushModule, type PushPort } from './platform/push/index.ts';
import type { RouteEntry } from './platform/routes.ts';
import { installSecret } from './platform/secrets.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { COMPRESSION, registerSharedAnswerCompression } from './platform/shared-answer-compression.ts';
import { createOutboxSmsSender, type SmsSender } from './platform/sms.ts';
import { createTenantResolver } from './platform/tenancy.ts';
import { ignoreReadOnlyFields, memoizedSerializerCompiler, safeValidatorCompiler } from './platform/validation.ts';
import { registerWebApp } from './platform/web.ts';

export interface AppDeps {
  config: Config;
  database: DbHandle;
  logger?: FastifyServerOptions['logger'];
  sms?: SmsSender;
  /** Time as rules see it (escalation, alarms pending, exports expiry); tests pass their own. */
  clock?: Clock;
  /** Wraps a port before the modules get it (tests observe or stand in for the site directory or the ticket port). */
  decorate?: {
    directory?(real: SiteDirectory): SiteDirectory;
    tickets?(real: SystemTickets): SystemTickets;
    /** The cameras' stills attendance takes at a check-in. */
    stills?(real: SiteStills): SiteStills;
  };
  mail?: MailSender;
  /** The process's metrics registry (a fresh one when not given). */
  metrics?: Metrics;
}

/** What main, tests and benchmarks may drive of a built app: the ports the modules offer. */
export interface AppHandles {
  events: EventBus;
  tenantSettings: TenantSettingsPort;
  sites: SitesPort;
  clusters: ClustersPort;
  push: PushPort;
  notifications: NotificationsPort;
  helpdesk: HelpdeskPort;
  telemetry: TelemetryPort;
  deviceApi: DeviceApiPort;
  alarms: AlarmsPort;
  video: VideoPort;
  downloads: DownloadsPort;
  forms: FormsPort;
  analysis: AnalysisPort;
  attendance: AttendancePort;
  equipment: EquipmentPort;
  dashboards: DashboardsPort;
  snmp: SnmpPort;
  commands: CommandsPort;
  calendar: CalendarPort;
  inventory: InventoryPort;
  purchaseRequests: PurchaseRequestPort;
  reports: ReportsPort;
  backups: { backups: BackupService; runner: BackupRunner };
}

export interface BuiltApp {
  app: FastifyInstance;
  handles: AppHandles;
}

export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { config, database } = deps;
  const db = database.db;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    // Forwarded headers count only from the configured proxies; otherwise the socket address is the client.
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    // platform/access-log.ts logs requests at debug level and sums them up once a minute.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(safeValidatorCompiler);
  app.setSerializerCompiler(memoizedSerializerCompiler);
  ignoreReadOnlyFields(app);
  app.decorate('routeCatalog', [] as RouteEntry[]);
  app.decorate('shuttingDown', false);
  app.addHook('onRoute', (route) => {
    const { guards, objectGuards } = runGuardsBeforeValidation(route);
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, access: { tenantless: true } };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.routeCatalog.push({
        method,
        url: route.url,
        access: (route.config as { access?: RouteAccess } | undefined)?.access ?? {},
        guards,
        objectChecked: objectGuards.length > 0,
      });
    }
  });
  registerErrorHandler(app);
  const metrics = deps.metrics ?? createMetrics();
  registerAccessLog(app, config.metrics.enabled ? metrics.http : undefined);

  await app.register(compress, COMPRESSION);
  registerSharedAnswerCompression(app);
  await app.register(cookie);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        mediaSrc: ["'self'", 'blob:'],
        // Dashboards of an external page (layouts.src) show it in a frame.
        frameSrc: ["'self'", 'https:'],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: config.frameAncestors.split(/\s+/),
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    frameguard: false,
    hsts: config.env === 'production',
  });
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => `${request.ip}|${request.headers.host ?? ''}`,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Sitewatch API', version: '0.1.0', description: 'Sites, devices, video and helpdesk' },
      components: { securitySchemes: SECURITY_SCHEMES },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform: openApiTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const signer = createTokenSigner(await installSecret(db, 'jwt'), config.auth.accessTokenMinutes, config.auth.sessionMaxHours);
  const csrf = createCsrf(await installSecret(db, 'csrf'), config.auth.secureCookies);
  const tenants = createTenantResolver(db, config.tenancy);
  const clock = deps.clock ?? systemClock;
  const events = createEventBus();
  const jobs = createJobWorker(db, { log: app.log, clock });
  app.decorate('jobs', jobs);
  const log = app.log;
  const dataDir = config.dataDir;

  // The modules, in dependency order: each gets the ports it needs, as built by the ones before it.
  const outbound = createOutboundNetworks(db, config.outboundNetworks);
  const tenantSettings = createTenantSettingsModule({ db, outbound });
  const settings = (tenantId: number) => tenantSettings.ports.tenantSettings.settings(tenantId);
  const downloads = createDownloadsModule({
    db,
    events,
    jobs,
    log,
    dataDir,
    retentionHours: async (tenantId) => (await settings(tenantId)).downloadRetentionHours,
    timeZone: async (tenantId) => (await settings(tenantId)).timeZone,
    clock,
  });
  const exports = downloads.ports.exports;
  const deviceRecords = createDeviceRecords(db);
  // Users' site assignments, built before the users module that lists and changes them.
  const siteAssignments = createSiteAssignments(db);
  const users = createUsersModule({ db, exports, siteAssignments });
  const auth = createAuthModule({
    db,
    signer,
    sms: deps.sms ?? createOutboxSmsSender(db, app.log),
    settings: config.auth,
    mfaRequiredRoles: async (tenantId) => (await settings(tenantId)).mfaRequiredRoles,
    mobileNumberLength: async (tenantId) => (await settings(tenantId)).mobileNumberLength,
    secureCookies: config.auth.secureCookies,
    csrf,
    loginRateLimit: config.auth.loginRateLimitPerMinute,
    clock,
    accounts: users.ports.accounts,
    users: users.ports.directory,
  });
  // Platform (the push hub, the video relay) asks the auth module whether open sockets' sessions still hold.
  const liveSessions = auth.ports.auth.liveSessions;
  const sites = createSitesModule({ db, config, devices: deviceRecords, exports, users: users.ports.directory });
  const directory = deps.decorate?.directory?.(sites.ports.directory) ?? sites.ports.directory;
  const clusters = createClustersModule({ db, users: users.ports.directory, events });
  const push = createPushModule({
    database,
    events,
    log,
    sites: directory,
    sessions: liveSessions,
  });
  // The vendors tickets may be assigned to, read before the helpdesk (the vendors module reads the helpdesk's port).
  const vendorDirectory = createVendorDirectory(db);
  const helpdesk = createHelpdeskModule({
    db,
    events,
    jobs,
    log,
    dataDir,
    customers: tenantSettings.ports.tenantSettings,
    directory,
    users: users.ports.directory,
    exports,
    clock,
    vendors: vendorDirectory,
  });
  const vendors = createVendorsModule({ db, events, clock, users: users.ports.directory, helpdesk: helpdesk.ports.forVendors });
  const notifications = createNotificationsModule({
    db,
    events,
    jobs,
    log,
    directory,
    users: users.ports.directory,
    ticketPrefs: helpdesk.ports.notificationPrefs,
  });
  const tickets = deps.decorate?.tickets?.(helpdesk.ports.tickets) ?? helpdesk.ports.tickets;
  const devices = createDevicesModule({
    db,
    events,
    settings,
    tickets,
    sites: sites.ports.sites,
    provisionCustomer: sites.ports.siteCustomers.byProvisionKey,
    exports,
    users: users.ports.directory,
  });
  const telemetry = createTelemetryModule({ database, config, events, log, devices: deviceRecords, directory });
  const deviceApi = createDeviceApiModule({ db, clock, telemetry: telemetry.ports, provision: devices.ports.provision });
  const alarms = createAlarmsModule({ db, events, log, clock, devices: deviceRecords, telemetry: telemetry.ports, tickets, directory });
  const video = createVideoModule({
    db,
    outbound,
    config,
    jobs,
    log,
    directory,
    exports,
    events,
    evidenceSecret: await installSecret(db, 'evidence'),
    sessions: liveSessions,
    alarms: alarms.ports.alarms,
    devices: deviceRecords,
    clock,
    openTickets: helpdesk.ports.openTickets,
  });
  const forms = createFormsModule({
    db,
    events,
    jobs,
    clock,
    blobs: createLocalBlobStore(join(dataDir, 'blobs')),
    directory,
    helpdesk: tickets,
    users: users.ports.directory,
    exports,
    log,
  });
  const analysis = createAnalysisModule({
    db,
    log,
    clock,
    jobs,
    dataDir,
    directory,
    footage: video.ports.footage,
    events,
    tickets,
    ticketUpdates: helpdesk.ports.service,
    users: users.ports.directory,
  });
  const inventory = createInventoryModule({
    db,
    events,
    clock,
    directory,
    users: users.ports.directory,
    tickets: helpdesk.ports.ticketLinks,
    devices: deviceRecords,
  });
  const purchaseRequests = createPurchaseRequestsModule({
    db,
    events,
    clock,
    directory,
    users: users.ports.directory,
    tickets: helpdesk.ports.ticketLinks,
    inventory: inventory.ports.purchasing,
  });
  const reports = createReportsModule({
    db,
    jobs,
    clock,
    log,
    users: users.ports.directory,
    exports,
    downloads: downloads.ports.downloads,
    inventory: inventory.ports.reports,
    requests: purchaseRequests.ports.requests,
  });
  const attendance = createAttendanceModule({
    db,
    events,
    jobs,
    clock,
    log,
    directory,
    users: users.ports.directory,
    settings,
    tickets: helpdesk.ports.service,
    stills: deps.decorate?.stills?.(video.ports.stills) ?? video.ports.stills,
    blobs: createLocalBlobStore(join(dataDir, 'blobs')),
    exports,
  });
  const calendar = createCalendarModule({
    db,
    events,
    jobs,
    clock,
    log,
    directory,
    users: users.ports.directory,
    helpdesk: helpdesk.ports.schedule,
    devices: devices.ports.maintenance,
    markers: video.ports.markers,
    clusters: clusters.ports.directory,
  });
  const equipment = createEquipmentModule({ db, events, clock, directory, tickets: helpdesk.ports.service });
  const dashboards = createDashboardsModule({
    db,
    events,
    clock,
    directory,
    users: users.ports.directory,
    sources: createDashboardSources(createDashboardReads(db, helpdesk.ports.dashboardReads)),
    cameras: video.ports.checkedLive,
  });
  const snmp = createSnmpModule({
    db,
    outbound,
    log,
    clock,
    jobs,
    settings: config.snmp,
    secret: await installSecret(db, 'trap-forwarding'),
    devices: deviceRecords,
    directory,
    alarms: alarms.ports.external,
  });
  const deviceOps = createDeviceOpsModule({
    db,
    events,
    clock,
    log,
    directory,
    users: users.ports.directory,
    telemetry: telemetry.ports,
    tickets: { visible: helpdesk.ports.ticketLinks.visible, comment: helpdesk.ports.addComment },
    streamUrls: video.ports.streamUrls,
    outbound,
  });
  const userAdmin = createUserAdminModule({
    db,
    clock,
    mail: deps.mail ?? createMailSender(db, app.log, { url: config.mail.smtpUrl, from: config.mail.from }),
    sessions: auth.ports.auth.userSessions,
    blobs: createLocalBlobStore(join(dataDir, 'blobs')),
    siteAssignments,
    tickets: helpdesk.ports.assignees,
    publicUrl: config.publicUrl,
    setPasswordRateLimit: config.auth.loginRateLimitPerMinute,
    allowedEmailDomains: async (tenantId) => (await settings(tenantId)).registrationEmailDomains,
    verifyCaptcha: (tenantId, captchaId, answer) => auth.ports.auth.verifyCaptcha(tenantId, captchaId, answer),
  });
  const activityLog = createActivityLogModule({
    db,
    clock,
    jobs,
    tenants: async () => {
      const ids = await tenants.ids();
      return Promise.all(ids.map(async (id) => ({ id, retentionDays: (await settings(id)).activityLogRetentionDays })));
    },
    userNames: userAdmin.ports.userNames,
  });
  exports.registerSource(activityLog.ports.exportSource);
  const commands = createCommandsModule({
    db,
    events,
    clock,
    jobs,
    log,
    telemetry: telemetry.ports,
    userNames: userAdmin.ports.userNames,
    siteNames: async (tenantId, assetIds) => {
      const found = await Promise.all(assetIds.map((id) => directory.asset(tenantId, id)));
      return new Map(found.flatMap((site) => (site ? [[site.id, site.name] as const] : [])));
    },
  });
  const backupRunner = createBackupRunner(database, dataDir);
  const backups = createBackupsModule({
    db,
    jobs,
    log,
    clock,
    runner: backupRunner,
    settings: config.backup,
    installTenant: config.tenancy.defaultTenant,
    alertAdmins: async (message) => {
      const tenant = await tenants.bySlug(config.tenancy.defaultTenant);
      if (!tenant) return;
      const admins = await users.ports.directory.withRoles(tenant.id, ['sysadmin']);
      await notifications.ports.notify(
        tenant.id,
        admins.map((u) => u.id),
        {
          verb: BACKUP_FAILED_VERB,
          message,
          metadata: backupFailureMetadata(message),
        },
      );
    },
  });
  const system = createSystemModule({
    isShuttingDown: () => app.shuttingDown,
    dependencies: {
      database: databaseCheck(db),
      broker: brokerCheck(() => telemetry.ports.runtime),
      blobs: blobStoreCheck(join(dataDir, 'blobs')),
    },
  });
  const modules: DomainModule<object>[] = [
    system,
    auth,
    tenantSettings,
    sites,
    users,
    devices,
    push,
    notifications,
    telemetry,
    deviceApi,
    alarms,
    video,
    helpdesk,
    vendors,
    forms,
    analysis,
    inventory,
    purchaseRequests,
    reports,
    attendance,
    equipment,
    dashboards,
    snmp,
    commands,
    deviceOps,
    calendar,
    userAdmin,
    clusters,
    activityLog,
    downloads,
    backups,
  ];

  registerAccessHooks(app, { resolveTenant: tenants.resolve, authenticate: auth.ports.auth.authenticate, csrf });
  registerIdempotency(app, db);
  await app.register(async (scope) => {
    for (const module of modules) await module.register(scope);
    if (config.metrics.enabled) metricsRoute(scope, metrics, config.metrics.token);
  });
  if (config.metrics.enabled)
    connectMetricSources(metrics, { database, jobs, push: push.ports, telemetry: telemetry.ports, recorder: video.ports.recorder });
  await registerWebApp(app, config.webDist);
  return {
    app,
    handles: {
      events,
      tenantSettings: tenantSettings.ports,
      sites: sites.ports,
      clusters: clusters.ports,
      push: push.ports,
      notifications: notifications.ports,
      helpdesk: helpdesk.ports,
      telemetry: telemetry.ports,
      deviceApi: deviceApi.ports,
      alarms: alarms.ports,
      video: video.ports,
      downloads: downloads.ports,
      forms: forms.ports,
      analysis: analysis.ports,
      inventory: inventory.ports,
      purchaseRequests: purchaseRequests.ports,
      reports: reports.ports,
      attendance: attendance.ports,
      equipment: equipment.ports,
      dashboards: dashboards.ports,
      snmp: snmp.ports,
      commands: commands.ports,
      calendar: calendar.ports,
      backups: { ...backups.ports, runner: backupRunner },
    },
  };
}
