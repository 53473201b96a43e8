import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { UserDirectory } from '../users/index.ts';
import { type ClusterDirectory, createClusterDirectory } from './directory.ts';
import { clusterRoutes } from './routes.ts';
import { createClusterService } from './service.ts';

export type { ClusterDirectory } from './directory.ts';

export interface ClustersPorts {
  db: Db;
  /** The leads' names, roles and state (the users module owns users). */
  users: UserDirectory;
  /** Changes are announced (`cluster.changed`) so open screens refetch. */
  events: EventBus;
}

export interface ClustersPort {
  /** Clusters and their sites as other domains (the calendar) read them. */
  directory: ClusterDirectory;
}

/** Clusters (/cluster-view): named groups of sites with their city lead, area head and regional head. */
export function createClustersModule(ports: ClustersPorts): DomainModule<ClustersPort> {
  const clusters = createClusterService({ db: ports.db, users: ports.users, events: ports.events });
  return {
    ports: { directory: createClusterDirectory(ports.db) },
    register(app) {
      clusterRoutes(app, { clusters });
    },
  };
}
