import type { RouteAccess } from './auth/context.ts';
import type { JobWorker } from './jobs/worker.ts';

/** A route with its access options, as the route-walking security test and the docs see it. */
export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
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
