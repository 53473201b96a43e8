import type { Db } from '../../platform/db.ts';
import * as repo from './accounts-repository.ts';
import { groupsOf } from './repository.ts';

export type { AccountChange, AccountRow, GroupRow } from './accounts-repository.ts';

/** A user as sign-in reads them: credentials, lockout, second factor, roles and groups. */
export type Account = NonNullable<repo.AccountRow>;

/**
 * What the auth module may read and change of the users table (the users module owns it): finding the account
 * that signs in, counting failures and locking it, and the user's own password, second factor and profile.
 */
export interface UserAccounts {
  byId(tenantId: number, userId: number): Promise<Account | undefined>;
  /** The account with its groups, in one statement (the hot path of /current-login/). */
  withGroups(tenantId: number, userId: number): ReturnType<typeof repo.findUserWithGroups>;
  /** By login name, whatever its case. */
  byUsername(tenantId: number, username: string): Promise<Account | undefined>;
  byMobile(tenantId: number, mobile: string): Promise<Account | undefined>;
  groups(tenantId: number, ids: number[]): Promise<repo.GroupRow[]>;
  /** Counts a failed sign-in at `now`, locking the account for `lockoutMinutes` when the count reaches `maxFailures`. */
  recordLoginFailure(
    tenantId: number,
    userId: number,
    limits: { maxFailures: number; lockoutMinutes: number },
    now: Date,
  ): Promise<{ failed_logins: number; locked_until: Date | null }>;
  resetLoginFailures(tenantId: number, userId: number): Promise<void>;
  update(tenantId: number, userId: number, values: repo.AccountChange): Promise<void>;
}

export function createUserAccounts(db: Db): UserAccounts {
  return {
    byId: (tenantId, userId) => repo.findUserById(db, tenantId, userId),
    withGroups: (tenantId, userId) => repo.findUserWithGroups(db, tenantId, userId),
    byUsername: (tenantId, username) => repo.findUserByUsername(db, tenantId, username),
    byMobile: (tenantId, mobile) => repo.findUserByMobile(db, tenantId, mobile),
    groups: (tenantId, ids) => groupsOf(db, tenantId, ids),
    recordLoginFailure: (tenantId, userId, limits, now) =>
      repo.recordLoginFailure(db, tenantId, userId, limits.maxFailures, limits.lockoutMinutes, now),
    resetLoginFailures: async (tenantId, userId) => {
      await repo.resetLoginFailures(db, tenantId, userId);
    },
    update: async (tenantId, userId, values) => {
      await repo.updateUser(db, tenantId, userId, values);
    },
  };
}
