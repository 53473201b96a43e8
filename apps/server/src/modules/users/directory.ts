import type { Db } from '../../platform/db.ts';
import * as repo from './repository.ts';

/** A user as other domains show them (names on tickets, assignee pickers). */
export interface DirectoryUser {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  roles: string[];
}

/** Who acts when work runs on a user's behalf in the background (imports): roles and their group's permissions. */
export interface DirectoryActor {
  userId: number;
  tenantId: number;
  roles: string[];
  permissions: Set<string>;
}

/**
 * What other domains may ask about the tenant's users without reading the users table (the users module owns it).
 */
export interface UserDirectory {
  /** The users of these ids in the tenant, active or not. */
  byIds(tenantId: number, ids: number[]): Promise<Array<DirectoryUser & { isActive: boolean }>>;
  /** Active users matching a search (name, email, username) or among the ids, by name. */
  search(tenantId: number, opts: { search?: string; ids?: number[]; limit: number }): Promise<DirectoryUser[]>;
  /** The active user as an actor, or null. */
  actor(tenantId: number, userId: number): Promise<DirectoryActor | null>;
}

export function createUserDirectory(db: Db): UserDirectory {
  return {
    async byIds(tenantId, ids) {
      const rows = await repo.usersByIds(db, tenantId, ids);
      return rows.map(({ is_active, ...u }) => ({ ...u, isActive: is_active }));
    },
    search: (tenantId, opts) => repo.searchUsers(db, tenantId, opts),
    actor: (tenantId, userId) => repo.actorOf(db, tenantId, userId),
  };
}
