import {
  ADMINISTRATION_RIGHTS,
  type AdministratorRightsRestored,
  GROUP_MESSAGES,
  GROUP_PERMISSIONS,
  type GroupInput,
  PERMISSION_CATALOGUE,
  type PermissionGroup,
  USER_PERMISSIONS,
} from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import * as repo from './groups-repository.ts';
import { ADMIN_ROLES, holdsAll, mayManage } from './privileges.ts';
import type { UserSessionsPort } from './sessions.ts';

/** Permission groups of /permissions/: a group's permissions by codename, and which users it is the first group of. */
export function createGroupService(deps: { db: Db; sessions: UserSessionsPort }) {
  const { db, sessions } = deps;
  const need = (auth: AuthContext, codename: string) => {
    if (!auth.permissions.has(codename)) throw forbidden();
  };
  const namesOf = (codenames: readonly string[]) =>
    codenames.map((c) => PERMISSION_CATALOGUE.find((p) => p.codename === c)?.name ?? c).join(', ');
  const permissionsOf = (codenames: readonly string[]) =>
    PERMISSION_CATALOGUE.filter((p) => codenames.includes(p.codename)).map((p) => ({ codename: p.codename, name: p.name }));

  const toGroup = (auth: AuthContext, row: repo.GroupRow): PermissionGroup => {
    const within = holdsAll(auth.permissions, row.permissions);
    return {
      id: row.id,
      name: row.name,
      userCount: row.user_count,
      permissions: row.permissions,
      can: {
        change: within && auth.permissions.has(GROUP_PERMISSIONS.change),
        delete: within && auth.permissions.has(GROUP_PERMISSIONS.delete),
      },
    };
  };

  async function groupOf(auth: AuthContext, id: number) {
    const row = await repo.findGroup(db, auth.tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  /** The actor grants only what they hold, and changes only groups whose rights they hold. */
  const assertWithin = (auth: AuthContext, permissions: readonly { codename: string }[]) => {
    if (!holdsAll(auth.permissions, permissions)) throw forbidden(GROUP_MESSAGES.aboveOwnRights);
  };

  /**
   * Refuses a change of a group's rights or of who is in a group when it would take the actor's own administration
   * rights, or leave a right that a group with an administrator in it holds today in no such group (nobody could
   * give it back).
   */
  async function assertRightsKept(
    trx: Db,
    auth: AuthContext,
    change: { groupId: number; codenames?: readonly string[]; userIds?: readonly number[] },
  ) {
    const [rows, admins, actor] = await Promise.all([
      repo.listGroups(trx, auth.tenantId),
      repo.administrators(trx, auth.tenantId, ADMIN_ROLES),
      repo.usersWithRights(trx, auth.tenantId, [auth.userId]),
    ]);
    const before = new Map(rows.map((g) => [g.id, g.permissions.map((p) => p.codename)]));
    const after = new Map(before);
    if (change.codenames) after.set(change.groupId, [...change.codenames]);
    const moved = new Set(change.userIds ?? []);
    const groupAfter = (userId: number, groupId: number | null) => (moved.has(userId) ? change.groupId : groupId);
    const actorGroup = actor[0]?.group_ids[0] ?? null;
    const actorAfter = new Set(after.get(groupAfter(auth.userId, actorGroup) ?? -1) ?? []);
    if (ADMINISTRATION_RIGHTS.some((c) => auth.permissions.has(c) && !actorAfter.has(c))) throw conflict(GROUP_MESSAGES.ownAdministration);
    const held = (groups: Map<number, string[]>, moves: boolean) =>
      new Set(admins.flatMap((a) => groups.get((moves ? groupAfter(a.id, a.group_id) : a.group_id) ?? -1) ?? []));
    const kept = held(after, true);
    const lost = [...held(before, false)].filter((c) => !kept.has(c));
    if (lost.length) throw conflict(GROUP_MESSAGES.lastHolder(namesOf(lost)));
  }

  return {
    catalogue: () => ({ contents: PERMISSION_CATALOGUE.map((p) => ({ ...p })) }),

    async list(auth: AuthContext) {
      need(auth, GROUP_PERMISSIONS.view);
      const rows = await repo.listGroups(db, auth.tenantId);
      return { contents: rows.map((r) => toGroup(auth, r)), totalCount: rows.length };
    },

    async create(request: FastifyRequest, auth: AuthContext, input: GroupInput) {
      need(auth, GROUP_PERMISSIONS.add);
      const permissions = permissionsOf(input.codenames);
      assertWithin(auth, permissions);
      const id = await db.transaction().execute(async (trx) => {
        if (await repo.nameTaken(trx, auth.tenantId, input.name)) throw conflict(GROUP_MESSAGES.exists);
        const newId = await repo.insertGroup(trx, auth.tenantId, input.name, permissions);
        await writeAudit(trx, request, {
          tenantId: auth.tenantId,
          userId: auth.userId,
          action: 'group.create',
          outcome: 'success',
          detail: { object: { type: 'group', id: newId }, after: { name: input.name, codenames: input.codenames } },
        });
        return newId;
      });
      return toGroup(auth, await groupOf(auth, id));
    },

    async update(request: FastifyRequest, auth: AuthContext, id: number, input: GroupInput) {
      need(auth, GROUP_PERMISSIONS.change);
      const row = await groupOf(auth, id);
      assertWithin(auth, row.permissions);
      const permissions = permissionsOf(input.codenames);
      assertWithin(auth, permissions);
      // Codenames outside the catalogue (kept by older screens) stay as they are.
      const kept = row.permissions.filter((p) => !PERMISSION_CATALOGUE.some((c) => c.codename === p.codename));
      await db.transaction().execute(async (trx) => {
        if (await repo.nameTaken(trx, auth.tenantId, input.name, id)) throw conflict(GROUP_MESSAGES.exists);
        await assertRightsKept(trx, auth, { groupId: id, codenames: [...kept, ...permissions].map((p) => p.codename) });
        await repo.updateGroup(trx, auth.tenantId, id, input.name, [...kept, ...permissions]);
        await writeAudit(trx, request, {
          tenantId: auth.tenantId,
          userId: auth.userId,
          action: 'group.update',
          outcome: 'success',
          detail: {
            object: { type: 'group', id },
            before: { name: row.name, codenames: row.permissions.map((p) => p.codename) },
            after: { name: input.name, codenames: input.codenames },
          },
        });
      });
      // Members see the change on their next request.
      sessions.refreshAll();
      return toGroup(auth, await groupOf(auth, id));
    },

    async remove(request: FastifyRequest, auth: AuthContext, id: number) {
      need(auth, GROUP_PERMISSIONS.delete);
      const row = await groupOf(auth, id);
      assertWithin(auth, row.permissions);
      if (row.user_count > 0) throw conflict(GROUP_MESSAGES.inUse);
      await db.transaction().execute(async (trx) => {
        await repo.deleteGroup(trx, auth.tenantId, id);
        await writeAudit(trx, request, {
          tenantId: auth.tenantId,
          userId: auth.userId,
          action: 'group.delete',
          outcome: 'success',
          detail: { object: { type: 'group', id }, before: { name: row.name, codenames: row.permissions.map((p) => p.codename) } },
        });
      });
    },

    async members(auth: AuthContext, id: number) {
      need(auth, GROUP_PERMISSIONS.view);
      await groupOf(auth, id);
      const rows = await repo.members(db, auth.tenantId, id);
      return { contents: rows, totalCount: rows.length };
    },

    /** Makes the group the first group of each user; every user must be within the actor's rights. */
    async assign(request: FastifyRequest, auth: AuthContext, id: number, userIds: number[]) {
      need(auth, GROUP_PERMISSIONS.change);
      need(auth, USER_PERMISSIONS.change);
      const group = await groupOf(auth, id);
      assertWithin(auth, group.permissions);
      const ids = [...new Set(userIds)];
      const users = await repo.usersWithRights(db, auth.tenantId, ids);
      if (users.length !== ids.length) throw notFound();
      for (const u of users) {
        if (!mayManage(auth, { roles: u.roles, permissions: u.permissions ?? [] })) throw forbidden(GROUP_MESSAGES.aboveOwnRights);
      }
      await db.transaction().execute(async (trx) => {
        await assertRightsKept(trx, auth, { groupId: id, userIds: ids });
        for (const u of users) {
          await repo.setFirstGroup(trx, auth.tenantId, u.id, id);
          await writeAudit(trx, request, {
            tenantId: auth.tenantId,
            userId: auth.userId,
            action: 'group.assign',
            outcome: 'success',
            detail: { object: { type: 'user', id: u.id }, before: { groupIds: u.group_ids }, after: { firstGroup: id } },
          });
        }
      });
      for (const u of users) sessions.refresh(u.id);
      return { assigned: users.length };
    },

    /**
     * The system administrator's way back: every group an active administrator takes their rights from gets the
     * whole catalogue, whatever the caller's own group holds.
     */
    async restoreAdministratorRights(request: FastifyRequest, auth: AuthContext): Promise<AdministratorRightsRestored> {
      const restored = await db.transaction().execute(async (trx) => {
        const admins = await repo.administrators(trx, auth.tenantId, ADMIN_ROLES);
        const ids = new Set(admins.map((a) => a.group_id).filter((g): g is number => g !== null));
        const rows = (await repo.listGroups(trx, auth.tenantId)).filter((g) => ids.has(g.id));
        const all = PERMISSION_CATALOGUE.map((p) => ({ codename: p.codename, name: p.name }));
        const out: AdministratorRightsRestored['groups'] = [];
        for (const row of rows) {
          const had = new Set(row.permissions.map((p) => p.codename));
          const added = all.filter((p) => !had.has(p.codename)).map((p) => p.codename);
          const kept = row.permissions.filter((p) => !PERMISSION_CATALOGUE.some((c) => c.codename === p.codename));
          await repo.updateGroup(trx, auth.tenantId, row.id, row.name, [...kept, ...all]);
          await writeAudit(trx, request, {
            tenantId: auth.tenantId,
            userId: auth.userId,
            action: 'group.restore-admin-rights',
            outcome: 'success',
            detail: { object: { type: 'group', id: row.id }, before: { codenames: [...had] }, after: { added } },
          });
          out.push({ id: row.id, name: row.name, added });
        }
        return out;
      });
      sessions.refreshAll();
      return { groups: restored };
    },
  };
}
export type GroupService = ReturnType<typeof createGroupService>;
