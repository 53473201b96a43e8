import type { FastifyRequest } from 'fastify';
import type { RouteAccess } from './auth/context.ts';
import type { JobWorker } from './jobs/worker.ts';

/** A route with its access options, as the route-walking security test and the docs see it. */
export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
  /** The role and permission guards that run before validation (`runGuardsBeforeValidation`). */
  guards: readonly ((request: FastifyRequest) => Promise<void>)[];
  /** Whether the route checks the caller against the object its path names before validation (`objectGuard`). */
  objectChecked: boolean;
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
