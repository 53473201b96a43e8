import { join } from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { createAuthService } from './modules/auth/service.ts';
import { customerRoutes } from './modules/customers/routes.ts';
import { createCustomerService } from './modules/customers/service.ts';
import { downloadsModule } from './modules/downloads/index.ts';
import { type HelpdeskPort, helpdeskModule } from './modules/helpdesk/index.ts';
import { notificationsModule } from './modules/notifications/index.ts';
import { sitesModule } from './modules/sites/index.ts';
import { blobStoreCheck, brokerCheck, databaseCheck } from './modules/system/readiness.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { telemetryModule, telemetryOf } from './modules/telemetry/index.ts';
import { videoModule } from './modules/video/index.ts';
import type { RouteAccess } from './platform/auth/context.ts';
import { createCsrf } from './platform/auth/csrf.ts';
import { registerAccessHooks } from './platform/auth/hooks.ts';
import { createTokenSigner } from './platform/auth/tokens.ts';
import type { DbHandle } from './platform/db.ts';
import { registerErrorHandler } from './platform/errors.ts';
import { createEventBus } from './platform/events.ts';
import { createJobWorker, type JobWorker } from './platform/jobs/worker.ts';
import { connectMetricSources, createMetrics, installHttpMetrics, type Metrics, metricsRoute } from './platform/metrics/index.ts';
import { pushModule } from './platform/push/index.ts';
import { installSecret } from './platform/secrets.ts';
import { createOutboxSmsSender, type SmsSender } from './platform/sms.ts';
import { createTenantResolver } from './platform/tenancy.ts';
import { registerWebApp } from './platform/web.ts';

export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
}

export interface AppDeps {
  config: Config;
  database: DbHandle;
  logger?: FastifyServerOptions['logger'];
  sms?: SmsSender;
  /** The process's metrics registry (a fresh one when not given). */
  metrics?: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its access options, for the route-walking security test and the docs. */
    routeCatalog: RouteEntry[];
    shuttingDown: boolean;
    /** Background job worker; main starts it, tests drain it. */
    jobs: JobWorker;
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const db = database.db;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    trustProxy: true,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('routeCatalog', [] as RouteEntry[]);
  app.decorate('shuttingDown', false);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, access: { tenantless: true } };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.routeCatalog.push({ method, url: route.url, access: (route.config as { access?: RouteAccess } | undefined)?.access ?? {} });
    }
  });
  registerErrorHandler(app);
  const metrics = deps.metrics ?? createMetrics();
  if (config.metrics.enabled) installHttpMetrics(app, metrics);

  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        mediaSrc: ["'self'", 'blob:'],
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
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          session: { type: 'apiKey', in: 'cookie', name: 'sw_session' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const signer = createTokenSigner(await installSecret(db, 'jwt'), config.auth.accessTokenMinutes, config.auth.sessionMaxHours);
  const csrf = createCsrf(await installSecret(db, 'csrf'), config.auth.secureCookies);
  const tenants = createTenantResolver(db, config.tenancy);
  const events = createEventBus();
  const customers = createCustomerService(db);
  const jobs = createJobWorker(db, { log: app.log });
  app.decorate('jobs', jobs);
  const auth = createAuthService({
    db,
    signer,
    sms: deps.sms ?? createOutboxSmsSender(db, app.log),
    settings: config.auth,
    mfaRequiredRoles: async (tenantId) => (await customers.settings(tenantId)).mfaRequiredRoles,
  });
  registerAccessHooks(app, { resolveTenant: tenants.resolve, authenticate: auth.authenticate, csrf });

  const context: AppContext = { db, config, events, customers, auth, jobs, database };
  await app.register(async (scope) => {
    systemRoutes(scope, {
      isShuttingDown: () => app.shuttingDown,
      dependencies: {
        database: databaseCheck(db),
        broker: brokerCheck(() => telemetryOf(app.server).runtime),
        blobs: blobStoreCheck(join(config.dataDir, 'blobs')),
      },
    });
    if (config.metrics.enabled) metricsRoute(scope, metrics, config.metrics.token);
    authRoutes(scope, { auth, secureCookies: config.auth.secureCookies, loginRateLimit: config.auth.loginRateLimitPerMinute });
    customerRoutes(scope, { customers });
    for (const module of domainModules) await module(scope, context);
  });
  if (config.metrics.enabled) connectMetricSources(app, metrics, { database, jobs });
  await registerWebApp(app, config.webDist);
  return app;
}

/**
 * What other domains may ask of the sites-and-devices domain without reaching its tables. The sites module
 * installs the real directory when it registers; until then nothing that needs it is registered.
 */
export interface SiteDirectory {
  asset(tenantId: number, assetId: number): Promise<{ id: number; name: string; city: string | null; address: string[] } | null>;
  device(
    tenantId: number,
    deviceId: number,
  ): Promise<{
    id: number;
    name: string;
    label: string;
    type: string;
    assetId: number | null;
    parentId: number | null;
    parentLabel: string | null;
  } | null>;
  /** Asset ids the user may see, or 'all' for roles that see every site. */
  visibleAssetIds(tenantId: number, userId: number, roles: string[]): Promise<number[] | 'all'>;
  /** Users assigned to the asset (for alarm and ticket notifications). */
  usersForAsset(tenantId: number, assetId: number): Promise<number[]>;
}

export type AppContext = {
  db: DbHandle['db'];
  config: Config;
  events: ReturnType<typeof createEventBus>;
  customers: ReturnType<typeof createCustomerService>;
  auth: ReturnType<typeof createAuthService>;
  jobs: JobWorker;
  /** Set by the sites module; domains registered after it may rely on it. */
  directory?: SiteDirectory;
  /** The database handle (push fan-out LISTENs on it). */
  database?: DbHandle;
  /** Export sources and download providers (modules/downloads/registry.ts: use exportsOf(context)). */
  exports?: import('./modules/downloads/registry.ts').ExportRegistry;
  /** Set by the helpdesk module: raise tickets from other domains (alarms, telemetry rules). */
  helpdesk?: HelpdeskPort;
};

/** Domain modules beyond the foundation register here, each with the shared context. */
const domainModules: Array<(app: FastifyInstance, context: AppContext) => void | Promise<void>> = [
  sitesModule,
  pushModule,
  notificationsModule,
  telemetryModule,
  videoModule,
  helpdeskModule,
  downloadsModule,
];
