import type { FastifyInstance } from 'fastify';

/**
 * The shape of a server domain module: a factory takes the required, typed ports it uses and returns
 * `{ register, ports }`. `register` installs its routes, hooks, jobs and listeners on the app; `ports` is what
 * other modules may ask of this domain (never its tables). `app.ts` builds the modules in dependency order.
 */
export interface DomainModule<Ports extends object = Record<string, never>> {
  register(app: FastifyInstance): void | Promise<void>;
  ports: Ports;
}

/** Time as services see it: tests pass a fixed or stepping clock instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
