import type { Db } from '../../platform/db.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { ExportRegistry } from '../downloads/index.ts';
import type { SiteAssignments } from '../sites/index.ts';
import { createUserAccounts, type UserAccounts } from './accounts.ts';
import { createUserDirectory, type UserDirectory } from './directory.ts';
import { usersSource } from './exports.ts';
import { userRoutes } from './routes.ts';
import { createUserService } from './service.ts';
import { signInsSource } from './sign-in-exports.ts';

export interface UsersPorts {
  db: Db;
  exports: ExportRegistry;
  /** Users' site assignments (the sites module owns them). */
  siteAssignments: SiteAssignments;
}

/** Users of a tenant: the user list and its exports (users, sign-ins). */
export type { Account, UserAccounts } from './accounts.ts';
export type { DirectoryActor, DirectoryUser, DirectoryUserById, UserDirectory } from './directory.ts';

export interface UsersPort {
  /** What other modules may read about users (the users module owns the users table). */
  directory: UserDirectory;
  /** Sign-in's reads and writes of the users table (the auth module). */
  accounts: UserAccounts;
}

export function createUsersModule(ports: UsersPorts): DomainModule<UsersPort> {
  const users = createUserService(ports.db, ports.siteAssignments);
  ports.exports.registerSource(usersSource(ports.db));
  ports.exports.registerSource(signInsSource(ports.db));
  return {
    ports: { directory: createUserDirectory(ports.db), accounts: createUserAccounts(ports.db) },
    register(app) {
      userRoutes(app, { users });
    },
  };
}
