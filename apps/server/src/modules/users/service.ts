import { DEVICE_PERMISSION_CODENAMES, DEVICE_PERMISSIONS, roleSchema, type User } from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { SiteAssignments } from '../sites/index.ts';
import { isoOf } from '../sites/scope.ts';
import * as repo from './repository.ts';

/** Users as the rest of the product sees them, their site assignments, and the device permissions of groups. */
export function createUserService(db: Db, siteAssignments: SiteAssignments) {
  async function toUsers(tenantId: number, rows: repo.UserRow[]): Promise<User[]> {
    const groups = await repo.groupsOf(db, tenantId, [...new Set(rows.flatMap((r) => r.group_ids))]);
    return rows.map((row) => ({
      id: row.id,
      username: row.username,
      email: row.email,
      firstname: row.firstname,
      lastname: row.lastname,
      mobile: row.mobile,
      userRole: row.roles.filter((r) => roleSchema.safeParse(r).success) as User['userRole'],
      groups: row.group_ids
        .map((id) => groups.find((g) => g.id === id))
        .filter((g) => g !== undefined)
        .map((g) => ({ id: g.id, name: g.name, permissions: g.permissions })),
      profile: { avatar: null, ...row.profile },
      notificationConfig: { popup: row.notification_config?.popup ?? true },
      mfaEnabled: row.totp_enabled,
    }));
  }

  async function userOrThrow(tenantId: number, id: number) {
    const row = await repo.findUser(db, tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  return {
    async list(tenantId: number, q: Parameters<typeof repo.listUsers>[2]) {
      const { rows, total } = await repo.listUsers(db, tenantId, q);
      return { contents: await toUsers(tenantId, rows), totalCount: total };
    },
    async detail(tenantId: number, id: number) {
      const [user] = await toUsers(tenantId, [await userOrThrow(tenantId, id)]);
      return user as User;
    },
    async userAssets(tenantId: number, q: Parameters<SiteAssignments['list']>[1]) {
      await userOrThrow(tenantId, q.userId);
      const { rows, total } = await siteAssignments.list(tenantId, q);
      return {
        contents: rows.map((r) => ({
          id: r.id,
          userId: r.user_id,
          assetId: r.asset_id,
          asset: { id: r.asset_id, name: r.name, address: r.address },
          createdAt: isoOf(r.created_at),
        })),
        totalCount: total,
      };
    },
    async assign(
      request: FastifyRequest,
      tenantId: number,
      input: { userId: number; assetIds: number[]; address?: string[] },
      actorId: number,
    ) {
      await userOrThrow(tenantId, input.userId);
      const assigned = await db.transaction().execute(async (trx) => {
        const n = await siteAssignments.assign(trx, tenantId, input.userId, { ids: input.assetIds, address: input.address }, actorId);
        await writeAudit(trx, request, {
          tenantId,
          userId: actorId,
          action: 'user.sites-assign',
          outcome: 'success',
          detail: {
            object: { type: 'user', id: input.userId },
            after: { assetIds: input.assetIds, address: input.address ?? [], assigned: n },
          },
        });
        return n;
      });
      return { assigned };
    },
    async unassign(request: FastifyRequest, tenantId: number, input: { userId: number; assetIds: number[] }, actorId: number) {
      await userOrThrow(tenantId, input.userId);
      const removed = await db.transaction().execute(async (trx) => {
        const n = await siteAssignments.remove(trx, tenantId, input.userId, input.assetIds);
        await writeAudit(trx, request, {
          tenantId,
          userId: actorId,
          action: 'user.sites-remove',
          outcome: 'success',
          detail: { object: { type: 'user', id: input.userId }, before: { assetIds: input.assetIds }, after: { removed: n } },
        });
        return n;
      });
      return { removed };
    },
    async removeLink(request: FastifyRequest, tenantId: number, id: number, actorId: number) {
      const link = await siteAssignments.link(tenantId, id);
      if (!link) throw notFound();
      await db.transaction().execute(async (trx) => {
        await siteAssignments.removeLink(trx, tenantId, id);
        await writeAudit(trx, request, {
          tenantId,
          userId: actorId,
          action: 'user.sites-remove',
          outcome: 'success',
          detail: { object: { type: 'user', id: link.user_id }, before: { assetIds: [link.asset_id] } },
        });
      });
    },
    async groups(tenantId: number) {
      const rows = await repo.listGroups(db, tenantId);
      return {
        contents: rows.map((g) => ({ id: g.id, name: g.name, userCount: g.user_count, permissions: g.permissions })),
        totalCount: rows.length,
      };
    },
    /** Replaces the device and site codenames of a group; its other permissions stay as they are. */
    async setDevicePermissions(request: FastifyRequest, tenantId: number, actorId: number, id: number, codenames: string[]) {
      const group = await repo.findGroup(db, tenantId, id);
      if (!group) throw notFound();
      const unknown = codenames.filter((c) => !DEVICE_PERMISSION_CODENAMES.includes(c as never));
      if (unknown.length) throw badRequest(`codenames: Unknown permission ${unknown.join(', ')}`);
      const kept = group.permissions.filter((p) => !DEVICE_PERMISSION_CODENAMES.includes(p.codename as never));
      const added = DEVICE_PERMISSIONS.filter((p) => codenames.includes(p.codename)).map((p) => ({ codename: p.codename, name: p.name }));
      await db.transaction().execute(async (trx) => {
        await repo.saveGroupPermissions(trx, tenantId, id, [...kept, ...added]);
        await writeAudit(trx, request, {
          tenantId,
          userId: actorId,
          action: 'group.update',
          outcome: 'success',
          detail: {
            object: { type: 'group', id },
            before: { codenames: group.permissions.map((p) => p.codename) },
            after: { codenames: [...kept, ...added].map((p) => p.codename) },
          },
        });
      });
      const rows = await repo.listGroups(db, tenantId);
      const saved = rows.find((g) => g.id === id) as (typeof rows)[number];
      return { id: saved.id, name: saved.name, userCount: saved.user_count, permissions: saved.permissions };
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
