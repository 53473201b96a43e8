import type { DomainModule } from '../../platform/module.ts';
import type { DependencyCheck } from './readiness.ts';
import { systemRoutes } from './routes.ts';

export { blobStoreCheck, brokerCheck, type DependencyCheck, databaseCheck } from './readiness.ts';

/** Health and readiness: /ready names each dependency (database, broker, blob store) that is not ready. */
export function createSystemModule(ports: { isShuttingDown: () => boolean; dependencies: Record<string, DependencyCheck> }): DomainModule {
  return {
    ports: {},
    register(app) {
      systemRoutes(app, ports);
    },
  };
}
