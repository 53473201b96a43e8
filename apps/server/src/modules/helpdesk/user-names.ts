import { type UserDirectory, usersById } from '../users/directory.ts';

/** What the helpdesk shows of a user it names (assignee, creator, author, actor, uploader). */
export interface NamedUser {
  firstname: string;
  lastname: string;
  email: string;
}

/** The users a list names, by id: only users of the list's tenant (the directory is asked with the tenant). */
export type UserNames = ReadonlyMap<number, NamedUser>;

export const NO_USER_NAMES: UserNames = new Map();

/** The name fields of a user id, all null when there is none or the directory does not know it. */
export function nameOf(names: UserNames, id: number | null | undefined) {
  const user = id === null || id === undefined ? undefined : names.get(id);
  return { firstname: user?.firstname ?? null, lastname: user?.lastname ?? null, email: user?.email ?? null };
}

/**
 * Resolves the users named by a list in one `byIds` call through the users module's directory (the helpdesk does
 * not read the users table). Ids already in `known` are not asked again; no call when nothing is left to ask.
 */
export async function withUserNames(
  users: Pick<UserDirectory, 'byIds'>,
  tenantId: number,
  ids: Iterable<number | null | undefined>,
  known: UserNames = NO_USER_NAMES,
): Promise<UserNames> {
  const wanted = [...ids].filter((id) => typeof id !== 'number' || !known.has(id));
  if (!wanted.some((id) => typeof id === 'number')) return known;
  const names = new Map(known);
  for (const [id, u] of await usersById(users, tenantId, wanted))
    names.set(id, { firstname: u.firstname, lastname: u.lastname, email: u.email });
  return names;
}
