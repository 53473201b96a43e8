import type { User } from '@sitewatch/contracts';
import { roleSchema } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import * as repo from './repository.ts';

type Row = NonNullable<repo.UserRow>;

/** The API shape of a user: groups in the user's own order, the first one granting permissions. */
export async function toUserView(db: Db, row: Row): Promise<User> {
  return userViewOf(row, await repo.findGroups(db, row.tenant_id, row.group_ids));
}

/** The API shape from a user row and the rows of their groups (any order). */
export function userViewOf(row: Row, groups: repo.GroupRow[]): User {
  const ordered = row.group_ids.map((id) => groups.find((g) => g.id === id)).filter((g) => g !== undefined);
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    mobile: row.mobile,
    userRole: row.roles.filter((r) => roleSchema.safeParse(r).success) as User['userRole'],
    groups: ordered.map((g) => ({ id: g.id, name: g.name, permissions: g.permissions })),
    profile: { avatar: null, ...row.profile },
    notificationConfig: { popup: row.notification_config?.popup ?? true },
    mfaEnabled: row.totp_enabled,
  };
}
