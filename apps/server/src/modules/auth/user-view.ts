import type { User } from '@sitewatch/contracts';
import { roleSchema } from '@sitewatch/contracts';
import type { Account, GroupRow, UserAccounts } from '../users/accounts.ts';

type Row = Account;

/** The API shape of a user: groups in the user's own order, the first one granting permissions. */
export async function toUserView(accounts: UserAccounts, row: Row): Promise<User> {
  return userViewOf(row, await accounts.groups(row.tenant_id, row.group_ids));
}

/** The API shape from a user row and the rows of their groups (any order). */
export function userViewOf(row: Row, groups: GroupRow[]): User {
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
