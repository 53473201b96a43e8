import type { Db } from '../../platform/db.ts';
import type { DomainModule } from '../../platform/module.ts';
import { systemRoutes } from './routes.ts';

/** Health and readiness. */
export function createSystemModule(ports: { db: Db; isShuttingDown: () => boolean }): DomainModule {
  return {
    ports: {},
    register(app) {
      systemRoutes(app, ports);
    },
  };
}
