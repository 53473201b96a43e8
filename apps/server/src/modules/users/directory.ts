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

/** A user looked up by id: also their login name (shown when they have no name), profile (avatar) and state. */
export interface DirectoryUserById extends DirectoryUser {
  username: string;
  profile: Record<string, unknown>;
  isActive: boolean;
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
  /** The users of these ids in the tenant, active or not, by name (first name, last name, id). */
  byIds(tenantId: number, ids: number[]): Promise<DirectoryUserById[]>;
  /** Active users matching a search (name, email, username) or among the ids, by name. */
  search(tenantId: number, opts: { search?: string; ids?: number[]; limit: number }): Promise<DirectoryUser[]>;
  /** The active user as an actor, or null. */
  actor(tenantId: number, userId: number): Promise<DirectoryActor | null>;
  /** The active users holding any of these roles, by id (whom the helpdesk may assign by role). */
  withRoles(tenantId: number, roles: string[]): Promise<DirectoryUser[]>;
  /** The active users among these ids as actors (current roles and permissions), in one lookup; others are left out. */
  actors(tenantId: number, userIds: number[]): Promise<DirectoryActor[]>;
  /** The ids of every group the user belongs to (an audience by groups counts them all, not only the first). */
  groupIdsOf(tenantId: number, userId: number): Promise<number[]>;
  /** The tenant's groups by name, to choose an audience from. */
  groups(tenantId: number): Promise<Array<{ id: number; name: string }>>;
}

/**
 * The users a list names, by id, in one `byIds` call (none when the list names nobody): ids repeat and may be null.
 * Only users of the tenant are found, so an id from another tenant resolves to nothing.
 */
export async function usersById(
  directory: Pick<UserDirectory, 'byIds'>,
  tenantId: number,
  ids: Iterable<number | null | undefined>,
): Promise<Map<number, DirectoryUserById>> {
  const wanted = [...new Set(ids)].filter((id): id is number => typeof id === 'number');
  const found = wanted.length === 0 ? [] : await directory.byIds(tenantId, wanted);
  return new Map(found.map((u) => [u.id, u]));
}

export function createUserDirectory(db: Db): UserDirectory {
  return {
    async byIds(tenantId, ids) {
      const rows = await repo.usersByIds(db, tenantId, ids);
      return rows.map(({ is_active, ...u }) => ({ ...u, isActive: is_active }));
    },
    search: (tenantId, opts) => repo.searchUsers(db, tenantId, opts),
    actor: (tenantId, userId) => repo.actorOf(db, tenantId, userId),
    withRoles: (tenantId, roles) => repo.activeUsersWithRoles(db, tenantId, roles),
    actors: (tenantId, userIds) => repo.activeActors(db, tenantId, userIds),
    groupIdsOf: (tenantId, userId) => repo.groupIdsOf(db, tenantId, userId),
    groups: (tenantId) => repo.groupNames(db, tenantId),
  };
}
