import {
  type AdminUser,
  type Grantable,
  roleSchema,
  SERVER_MESSAGES,
  USER_ADMIN_MESSAGES,
  USER_INACTIVITY_DAYS,
  USER_PERMISSIONS,
  type UserCreate,
  type UserDetails,
  type UserInput,
} from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { hashPassword, isCommonPassword } from '../../platform/auth/passwords.ts';
import type { BlobStore } from '../../platform/blobs.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { MailSender } from '../../platform/mail.ts';
import type { Clock } from '../../platform/module.ts';
import type { SiteAssignments } from '../sites/index.ts';
import { contains } from '../sites/scope.ts';
import * as repo from './admin-repository.ts';
import { sniffImage } from './avatar.ts';
import { ADMIN_ROLES, grantableRoles, holdsAll, isAdmin, mayManage } from './privileges.ts';
import * as usersRepo from './repository.ts';
import type { UserSessionsPort } from './sessions.ts';

export interface UserAdminDeps {
  db: Db;
  clock: Clock;
  mail: MailSender;
  sessions: UserSessionsPort;
  blobs: BlobStore;
  siteAssignments: SiteAssignments;
}

const SET_PASSWORD_HOURS = 48;
const DAY_MS = 86_400_000;

/** Creating, changing and removing a tenant's users, with the escalation and last-administrator rules. */
export function createUserAdminService(deps: UserAdminDeps) {
  const { db, clock, mail, sessions, blobs, siteAssignments } = deps;

  const need = (auth: AuthContext, codename: string) => {
    if (!auth.permissions.has(codename)) throw forbidden();
  };

  async function toAdminUsers(tenantId: number, rows: repo.AdminUserRow[]): Promise<AdminUser[]> {
    const ids = rows.map((r) => r.id);
    const [groups, signIns, assets] = await Promise.all([
      repo.groupsById(db, tenantId, [...new Set(rows.flatMap((r) => r.group_ids))]),
      sessions.lastSignIns(tenantId, ids),
      siteAssignments.siteIdsByUser(tenantId, ids),
    ]);
    const threshold = clock.now().getTime() - USER_INACTIVITY_DAYS * DAY_MS;
    return rows.map((row) => {
      const last = signIns.get(row.id) ?? null;
      return {
        id: row.id,
        username: row.username,
        email: row.email,
        firstname: row.firstname,
        lastname: row.lastname,
        mobile: row.mobile,
        userRole: row.roles.filter((r) => roleSchema.safeParse(r).success) as AdminUser['userRole'],
        groups: row.group_ids
          .map((id) => groups.find((g) => g.id === id))
          .filter((g) => g !== undefined)
          .map((g) => ({ id: g.id, name: g.name, permissions: g.permissions })),
        profile: { avatar: null, ...row.profile },
        notificationConfig: { popup: row.notification_config?.popup ?? true },
        mfaEnabled: row.totp_enabled,
        isActive: row.is_active,
        createdAt: row.created_at.toISOString(),
        lastLoginAt: last?.toISOString() ?? null,
        inactive: (last ?? row.created_at).getTime() < threshold,
        assetIds: assets.get(row.id) ?? [],
      };
    });
  }

  /** The user as the caller just left them (mutations answer with it whatever the caller may list). */
  async function current(auth: AuthContext, id: number) {
    const [user] = await toAdminUsers(auth.tenantId, [await targetOf(auth, id)]);
    return user as AdminUser;
  }

  async function targetOf(auth: AuthContext, id: number) {
    const row = await repo.findAdminUser(db, auth.tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  async function rightsOf(tenantId: number, row: { roles: string[]; group_ids: number[] }) {
    const [group] = await repo.groupsById(db, tenantId, row.group_ids.slice(0, 1));
    return { roles: row.roles, permissions: group?.permissions ?? [] };
  }

  async function assertManageable(auth: AuthContext, row: repo.AdminUserRow) {
    if (!mayManage(auth, await rightsOf(auth.tenantId, row))) throw forbidden(USER_ADMIN_MESSAGES.aboveOwnRights);
  }

  /** The roles and group asked for must be within the actor's own rights. */
  async function assertGrantable(auth: AuthContext, input: UserInput) {
    const roles = grantableRoles(auth.roles);
    if (input.userRole.some((r) => !roles.includes(r))) throw forbidden(USER_ADMIN_MESSAGES.aboveOwnRights);
    if (input.groupId === null) return;
    const [group] = await repo.groupsById(db, auth.tenantId, [input.groupId]);
    if (!group) throw badRequest('groupId: Choose a group of this customer');
    if (!holdsAll(auth.permissions, group.permissions)) throw forbidden(USER_ADMIN_MESSAGES.aboveOwnRights);
  }

  /** One active administrator must remain when `row` stops being one. */
  async function assertNotLastAdmin(tenantId: number, row: repo.AdminUserRow) {
    if (!row.is_active || !isAdmin(row.roles)) return;
    if ((await repo.countActiveWithRoles(db, tenantId, ADMIN_ROLES)) <= 1) throw conflict(USER_ADMIN_MESSAGES.lastAdmin);
  }

  const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

  const writeOf = (input: UserInput) => ({
    username: input.username,
    email: input.email.toLowerCase(),
    firstname: input.firstname,
    lastname: input.lastname,
    mobile: input.mobile,
    roles: input.userRole,
    groupIds: input.groupId === null ? [] : [input.groupId],
    notificationConfig: input.notificationConfig,
  });

  const summaryOf = (row: Pick<repo.AdminUserRow, 'username' | 'email' | 'roles' | 'group_ids' | 'is_active'>) => ({
    username: row.username,
    email: row.email,
    roles: row.roles,
    groupIds: row.group_ids,
    isActive: row.is_active,
  });

  async function sendSetPasswordMail(tenantId: number, user: { id: number; email: string; firstname: string }, origin: string) {
    const token = randomToken(32);
    await repo.insertPasswordToken(db, {
      tenantId,
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(clock.now().getTime() + SET_PASSWORD_HOURS * 3600_000),
    });
    await mail.send(tenantId, {
      to: user.email,
      subject: 'Set your Sitewatch password',
      body: [
        `Hello ${user.firstname},`,
        '',
        'An account has been prepared for you. Choose your password with this link:',
        `${origin}/account/set-password?token=${token}`,
        '',
        `The link works once and expires in ${SET_PASSWORD_HOURS} hours.`,
      ].join('\n'),
    });
  }

  async function checkPassword(password: string, username: string) {
    if (isCommonPassword(password) || password.toLowerCase() === username.toLowerCase()) {
      throw badRequest(SERVER_MESSAGES.weakPassword, 'weak_password');
    }
    return hashPassword(password);
  }

  return {
    /** Full rows for holders of view_user; names only for everyone else (pickers). */
    async list(auth: AuthContext, q: Parameters<typeof usersRepo.listUsers>[2] & { status: 'active' | 'deactivated' | 'all' }) {
      if (!auth.permissions.has(USER_PERMISSIONS.view)) {
        const { rows, total } = await repo.listUserNames(db, auth.tenantId, q, contains);
        return { contents: rows, totalCount: total };
      }
      const { rows, total } = await usersRepo.listUsers(db, auth.tenantId, q);
      const full = await repo.findAdminUsers(
        db,
        auth.tenantId,
        rows.map((r) => r.id),
      );
      // In the listing's order.
      const ordered = rows.map((r) => full.find((f) => f.id === r.id)).filter((r) => r !== undefined);
      return {
        contents: await toAdminUsers(auth.tenantId, ordered),
        totalCount: total,
      };
    },

    async detail(auth: AuthContext, id: number): Promise<AdminUser> {
      if (id !== auth.userId) need(auth, USER_PERMISSIONS.view);
      return current(auth, id);
    },

    async details(auth: AuthContext, id: number): Promise<UserDetails> {
      need(auth, USER_PERMISSIONS.view);
      const row = await targetOf(auth, id);
      const [[user], live, [sites, siteCount], activity, rights] = await Promise.all([
        toAdminUsers(auth.tenantId, [row]),
        sessions.list(auth.tenantId, id),
        siteAssignments.firstSites(auth.tenantId, id, 50),
        repo.recentActivity(db, auth.tenantId, id, 20),
        rightsOf(auth.tenantId, row),
      ]);
      const manageable = mayManage(auth, rights);
      return {
        user: user as AdminUser,
        sessions: live.map((s) => ({
          id: s.id,
          createdAt: s.created_at.toISOString(),
          lastSeenAt: s.last_seen_at.toISOString(),
          ip: s.ip,
          userAgent: s.user_agent,
          loginMethod: s.login_method,
        })),
        sites,
        siteCount,
        activity: activity.map((a) => ({
          id: a.id,
          action: a.action,
          outcome: a.outcome,
          ip: a.ip,
          createdAt: a.created_at.toISOString(),
        })),
        can: {
          change: manageable && auth.permissions.has(USER_PERMISSIONS.change),
          delete: manageable && id !== auth.userId && auth.permissions.has(USER_PERMISSIONS.delete),
        },
      };
    },

    /** Users of the tenant by id as an administrator sees them, each with what the caller may do with them. */
    async withRights(auth: AuthContext, ids: number[]) {
      const rows = await repo.findAdminUsers(db, auth.tenantId, ids);
      const [users, groups] = await Promise.all([
        toAdminUsers(auth.tenantId, rows),
        repo.groupsById(db, auth.tenantId, [...new Set(rows.flatMap((r) => r.group_ids.slice(0, 1)))]),
      ]);
      return rows.map((row, i) => {
        const group = groups.find((g) => g.id === row.group_ids[0]);
        const manageable = mayManage(auth, { roles: row.roles, permissions: group?.permissions ?? [] });
        return {
          user: users[i] as AdminUser,
          roles: row.roles,
          can: {
            change: manageable && auth.permissions.has(USER_PERMISSIONS.change),
            delete: manageable && row.id !== auth.userId && auth.permissions.has(USER_PERMISSIONS.delete),
          },
        };
      });
    },

    async grantable(auth: AuthContext): Promise<Grantable> {
      if (!auth.permissions.has(USER_PERMISSIONS.add) && !auth.permissions.has(USER_PERMISSIONS.change)) throw forbidden();
      const groups = await repo.allGroups(db, auth.tenantId);
      return {
        roles: grantableRoles(auth.roles),
        groups: groups.filter((g) => holdsAll(auth.permissions, g.permissions)).map((g) => ({ id: g.id, name: g.name })),
      };
    },

    /** `within` runs in the user's transaction (a field profile is written with its user). */
    async create(
      request: FastifyRequest,
      auth: AuthContext,
      input: UserCreate,
      origin: string,
      within?: (trx: Db, userId: number) => Promise<void>,
    ) {
      const passwordHash = input.password ? await checkPassword(input.password, input.username) : `!unset:${randomToken(16)}`;
      const id = await this.createWithHash(request, auth, input, passwordHash, within);
      if (!input.password) await this.invite(auth.tenantId, { id, email: input.email, firstname: input.firstname }, origin);
      return current(auth, id);
    },

    /** A user created without a password: the placeholder hash that no password matches (then `invite`). */
    unsetPasswordHash: () => `!unset:${randomToken(16)}`,

    /** Sends the set-password e-mail of a user just created without a password. */
    invite: (tenantId: number, user: { id: number; email: string; firstname: string }, origin: string) =>
      sendSetPasswordMail(tenantId, { ...user, email: user.email.toLowerCase() }, origin),

    /**
     * Creates the user with a password hash already made (a set-password placeholder, or the one a registration
     * request carries); `within` runs in the same transaction (the registration request is marked approved there).
     */
    async createWithHash(
      request: FastifyRequest,
      auth: AuthContext,
      input: UserInput,
      passwordHash: string,
      within?: (trx: Db, userId: number) => Promise<void>,
    ) {
      need(auth, USER_PERMISSIONS.add);
      await assertGrantable(auth, input);
      const write = writeOf(input);
      try {
        return await db.transaction().execute(async (trx) => {
          if (await repo.findClash(trx, auth.tenantId, write)) throw conflict(USER_ADMIN_MESSAGES.exists);
          const newId = await repo.insertUser(trx, auth.tenantId, { ...write, passwordHash });
          await siteAssignments.replace(trx, auth.tenantId, newId, input.assetIds, auth.userId);
          await writeAudit(trx, request, {
            tenantId: auth.tenantId,
            userId: auth.userId,
            action: 'user.create',
            outcome: 'success',
            detail: {
              object: { type: 'user', id: newId },
              after: summaryOf({ ...write, roles: write.roles, group_ids: write.groupIds, is_active: true }),
            },
          });
          await within?.(trx, newId);
          return newId;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(USER_ADMIN_MESSAGES.exists);
        throw error;
      }
    },

    /** Whether a user of the tenant already has this username, e-mail or mobile number. */
    clashes: (tenantId: number, u: { username: string; email: string; mobile: string | null }) =>
      repo.findClash(db, tenantId, u).then(Boolean),

    async update(
      request: FastifyRequest,
      auth: AuthContext,
      id: number,
      input: UserInput,
      within?: (trx: Db, row: repo.AdminUserRow) => Promise<void>,
    ) {
      need(auth, USER_PERMISSIONS.change);
      const row = await targetOf(auth, id);
      await assertManageable(auth, row);
      await assertGrantable(auth, input);
      if (isAdmin(row.roles) && !isAdmin(input.userRole)) await assertNotLastAdmin(auth.tenantId, row);
      const write = writeOf(input);
      try {
        await db.transaction().execute(async (trx) => {
          if (await repo.findClash(trx, auth.tenantId, write, id)) throw conflict(USER_ADMIN_MESSAGES.exists);
          await repo.updateUser(trx, auth.tenantId, id, write);
          await siteAssignments.replace(trx, auth.tenantId, id, input.assetIds, auth.userId);
          await within?.(trx, row);
          await writeAudit(trx, request, {
            tenantId: auth.tenantId,
            userId: auth.userId,
            action: 'user.update',
            outcome: 'success',
            detail: {
              object: { type: 'user', id },
              before: summaryOf(row),
              after: summaryOf({ ...write, group_ids: write.groupIds, is_active: row.is_active }),
            },
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(USER_ADMIN_MESSAGES.exists);
        throw error;
      }
      sessions.refresh(id);
      return current(auth, id);
    },

    async setActive(request: FastifyRequest, auth: AuthContext, id: number, active: boolean) {
      need(auth, USER_PERMISSIONS.change);
      const row = await targetOf(auth, id);
      if (id === auth.userId) throw badRequest(USER_ADMIN_MESSAGES.self);
      await assertManageable(auth, row);
      if (!active) await assertNotLastAdmin(auth.tenantId, row);
      await db.transaction().execute(async (trx) => {
        await repo.setActive(trx, auth.tenantId, id, active);
        await writeAudit(trx, request, {
          tenantId: auth.tenantId,
          userId: auth.userId,
          action: active ? 'user.activate' : 'user.deactivate',
          outcome: 'success',
          detail: { object: { type: 'user', id }, before: { isActive: row.is_active }, after: { isActive: active } },
        });
      });
      if (!active) await sessions.endAll(auth.tenantId, id);
      return current(auth, id);
    },

    async remove(request: FastifyRequest, auth: AuthContext, id: number) {
      need(auth, USER_PERMISSIONS.delete);
      const row = await targetOf(auth, id);
      if (id === auth.userId) throw badRequest(USER_ADMIN_MESSAGES.self);
      await assertManageable(auth, row);
      await assertNotLastAdmin(auth.tenantId, row);
      await sessions.endAll(auth.tenantId, id);
      await db.transaction().execute(async (trx) => {
        await repo.deleteUser(trx, auth.tenantId, id);
        await writeAudit(trx, request, {
          tenantId: auth.tenantId,
          userId: auth.userId,
          action: 'user.delete',
          outcome: 'success',
          detail: { object: { type: 'user', id }, before: summaryOf(row) },
        });
      });
      await blobs.delete(avatarKey(auth.tenantId, id)).catch(() => undefined);
    },

    async resetPassword(request: FastifyRequest, auth: AuthContext, id: number, password: string) {
      need(auth, USER_PERMISSIONS.change);
      const row = await targetOf(auth, id);
      await assertManageable(auth, row);
      const hash = await checkPassword(password, row.username);
      await db.transaction().execute(async (trx) => {
        await repo.setPasswordHash(trx, auth.tenantId, id, hash);
        await writeAudit(trx, request, {
          tenantId: auth.tenantId,
          userId: auth.userId,
          action: 'user.password-reset',
          outcome: 'success',
          detail: { object: { type: 'user', id } },
        });
      });
      if (id !== auth.userId) await sessions.endAll(auth.tenantId, id);
      return { message: USER_ADMIN_MESSAGES.passwordReset };
    },

    async sendSetPassword(request: FastifyRequest, auth: AuthContext, id: number, origin: string) {
      need(auth, USER_PERMISSIONS.change);
      const row = await targetOf(auth, id);
      await assertManageable(auth, row);
      await sendSetPasswordMail(auth.tenantId, row, origin);
      await writeAudit(db, request, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        action: 'user.set-password-mail',
        outcome: 'success',
        detail: { object: { type: 'user', id } },
      });
      return { message: USER_ADMIN_MESSAGES.setPasswordSent };
    },

    /** The latest e-mails of the tenant as the built-in sender kept them (sysadmins check deliveries). */
    async mailOutbox(auth: AuthContext) {
      if (!auth.roles.includes('sysadmin')) throw forbidden();
      const rows = await repo.listMailOutbox(db, auth.tenantId, 50);
      return {
        contents: rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, body: r.body, createdAt: r.created_at.toISOString() })),
        totalCount: rows.length,
      };
    },

    /** Public: a set-password link from an e-mail. */
    async setPasswordWithToken(request: FastifyRequest, tenantId: number, token: string, password: string) {
      const spent = await repo.spendPasswordToken(db, tenantId, sha256(token));
      if (!spent) throw badRequest('This link is invalid or has expired', 'invalid_token');
      const row = await repo.findAdminUser(db, tenantId, spent.user_id);
      if (!row?.is_active) throw badRequest('This link is invalid or has expired', 'invalid_token');
      await repo.setPasswordHash(db, tenantId, row.id, await checkPassword(password, row.username));
      await sessions.endAll(tenantId, row.id);
      await writeAudit(db, request, { tenantId, userId: row.id, username: row.username, action: 'password.set', outcome: 'success' });
      return { message: USER_ADMIN_MESSAGES.passwordReset };
    },

    /** Refuses a caller who may not set this user's picture: their own, or one they manage with change_user. */
    async mayChangeAvatar(auth: AuthContext, id: number) {
      if (id === auth.userId) return;
      need(auth, USER_PERMISSIONS.change);
      await assertManageable(auth, await targetOf(auth, id));
    },

    async setAvatar(request: FastifyRequest, auth: AuthContext, id: number, dataUrl: string) {
      if (id !== auth.userId) need(auth, USER_PERMISSIONS.change);
      const row = await targetOf(auth, id);
      if (id !== auth.userId) await assertManageable(auth, row);
      const data = decodeDataUrl(dataUrl);
      if (!data || data.length > 1024 * 1024 || !sniffImage(data)) throw new HttpError(400, USER_ADMIN_MESSAGES.imageFailed, 'bad_image');
      const version = randomToken(6);
      await blobs.put(avatarKey(auth.tenantId, id), data);
      await repo.setAvatar(db, auth.tenantId, id, `/iotapp/users/${id}/avatar/?v=${version}`);
      sessions.refresh(id);
      await writeAudit(db, request, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        action: 'user.avatar',
        outcome: 'success',
        detail: { object: { type: 'user', id } },
      });
      return current(auth, id);
    },

    /** The avatar image of a user of the caller's tenant, with its sniffed content type. */
    async avatar(auth: AuthContext, id: number) {
      await targetOf(auth, id);
      const blob = await blobs.open(avatarKey(auth.tenantId, id));
      if (!blob) throw notFound();
      const chunks: Buffer[] = [];
      for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
      const data = Buffer.concat(chunks);
      const type = sniffImage(data);
      if (!type) throw notFound();
      return { data, type };
    },
  };
}
export type UserAdminService = ReturnType<typeof createUserAdminService>;

const avatarKey = (tenantId: number, userId: number) => `avatars/${tenantId}/${userId}`;

function decodeDataUrl(value: string): Buffer | null {
  const match = /^data:[\w/+.-]*;base64,([A-Za-z0-9+/=\s]+)$/.exec(value);
  return match?.[1] ? Buffer.from(match[1], 'base64') : null;
}
