import {
  EMPTY_FIELD_PROFILE,
  FIELD_STAFF_MESSAGES,
  FIELD_STAFF_ROLES,
  type FieldProfile,
  type FieldProfileInput,
  type FieldStaff,
  type FieldStaffCreate,
  type FieldStaffInput,
  type FieldStaffListQuery,
  type FieldStaffRole,
  type Role,
  roleSchema,
  USER_PERMISSIONS,
} from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { changedFields, writeAudit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { TicketAssignees } from '../helpdesk/index.ts';
import type { SiteAssignments } from '../sites/index.ts';
import type { UserAdminService } from './admin-service.ts';
import * as repo from './field-staff-repository.ts';

const profileOf = (row: repo.ProfileRow | undefined): FieldProfile =>
  row
    ? {
        employeeCode: row.employee_code,
        designation: row.designation,
        area: row.area,
        territory: row.territory,
        joinedOn: row.joined_on,
        notes: row.notes,
      }
    : { ...EMPTY_FIELD_PROFILE };

/**
 * The directories of field executives, store managers and infra admins: a person is a user of the role (created,
 * changed and removed through user administration and its rules) with a field profile written in the same transaction.
 */
export function createFieldStaffService(deps: {
  db: Db;
  admin: UserAdminService;
  siteAssignments: SiteAssignments;
  tickets: TicketAssignees;
}) {
  const { db, admin, siteAssignments, tickets } = deps;
  const need = (auth: AuthContext, codename: string) => {
    if (!auth.permissions.has(codename)) throw forbidden();
  };

  async function people(auth: AuthContext, ids: number[]): Promise<(FieldStaff & { roles: string[] })[]> {
    const [users, profiles, open] = await Promise.all([
      admin.withRights(auth, ids),
      repo.profilesOf(db, auth.tenantId, ids),
      tickets.openCounts(auth.tenantId, ids),
    ]);
    const byUser = new Map(profiles.map((p) => [p.user_id, p]));
    const byId = new Map(users.map((u) => [u.user.id, u]));
    return ids
      .map((id) => byId.get(id))
      .filter((u) => u !== undefined)
      .map(({ user, roles, can }) => ({
        ...user,
        roles,
        fieldProfile: profileOf(byUser.get(user.id)),
        siteCount: user.assetIds.length,
        openTickets: open.get(user.id) ?? 0,
        can,
      }));
  }

  /** The person of the directory (any of the three without a role), or 404: a user without the role is not in it. */
  async function personOf(auth: AuthContext, role: FieldStaffRole | undefined, id: number) {
    const [person] = await people(auth, [id]);
    const roles = role ? [role] : FIELD_STAFF_ROLES;
    if (!person?.roles.some((r) => (roles as readonly string[]).includes(r))) throw notFound(FIELD_STAFF_MESSAGES.notFound);
    return person;
  }

  const strip = ({ roles: _roles, ...person }: FieldStaff & { roles: string[] }): FieldStaff => person;

  async function assertCode(tenantId: number, profile: FieldProfileInput, exceptUserId?: number) {
    if (profile.employeeCode && (await repo.codeTaken(db, tenantId, profile.employeeCode, exceptUserId)))
      throw conflict(FIELD_STAFF_MESSAGES.codeExists);
  }

  const auditProfile = (
    trx: Db,
    request: FastifyRequest,
    auth: AuthContext,
    userId: number,
    before: FieldProfile | null,
    after: FieldProfileInput,
  ) => {
    const diff = before ? changedFields(before, after) : { before: undefined, after };
    if (before && Object.keys(diff.after).length === 0) return Promise.resolve();
    return writeAudit(trx, request, {
      tenantId: auth.tenantId,
      userId: auth.userId,
      action: before ? 'field-profile.update' : 'field-profile.create',
      outcome: 'success',
      detail: { object: { type: 'user', id: userId }, ...(diff.before ? { before: diff.before } : {}), after: diff.after },
    });
  };

  return {
    async list(auth: AuthContext, q: FieldStaffListQuery) {
      need(auth, USER_PERMISSIONS.view);
      const { ids, total } = await repo.listStaff(db, auth.tenantId, q.role, q);
      return { contents: (await people(auth, ids)).map(strip), totalCount: total };
    },

    async areas(auth: AuthContext, role: FieldStaffRole) {
      need(auth, USER_PERMISSIONS.view);
      return { contents: await repo.areasOf(db, auth.tenantId, role) };
    },

    async get(auth: AuthContext, role: FieldStaffRole | undefined, id: number) {
      need(auth, USER_PERMISSIONS.view);
      return strip(await personOf(auth, role, id));
    },

    async create(request: FastifyRequest, auth: AuthContext, input: FieldStaffCreate, origin: string) {
      need(auth, USER_PERMISSIONS.add);
      await assertCode(auth.tenantId, input.fieldProfile);
      const { fieldProfile, role, ...user } = input;
      const created = await admin.create(request, auth, { ...user, userRole: [role] }, origin, async (trx, userId) => {
        await repo.upsertProfile(trx, auth.tenantId, userId, fieldProfile);
        await auditProfile(trx, request, auth, userId, null, fieldProfile);
      });
      return strip(await personOf(auth, role, created.id));
    },

    async update(request: FastifyRequest, auth: AuthContext, role: FieldStaffRole | undefined, id: number, input: FieldStaffInput) {
      need(auth, USER_PERMISSIONS.change);
      const person = await personOf(auth, role, id);
      await assertCode(auth.tenantId, input.fieldProfile, id);
      const { fieldProfile, ...user } = input;
      const roles = person.roles.filter((r): r is Role => roleSchema.safeParse(r).success);
      await admin.update(request, auth, id, { ...user, userRole: roles }, async (trx) => {
        await repo.upsertProfile(trx, auth.tenantId, id, fieldProfile);
        await auditProfile(trx, request, auth, id, person.fieldProfile, fieldProfile);
      });
      return strip(await personOf(auth, role, id));
    },

    async remove(request: FastifyRequest, auth: AuthContext, role: FieldStaffRole | undefined, id: number) {
      need(auth, USER_PERMISSIONS.delete);
      await personOf(auth, role, id);
      await admin.remove(request, auth, id);
    },

    /** The person's open tickets, or the open tickets at their sites the caller may see and may assign to them. */
    async tickets(
      auth: AuthContext,
      role: FieldStaffRole | undefined,
      id: number,
      q: { scope: 'assigned' | 'assignable'; searchText?: string; limit: number },
    ) {
      need(auth, USER_PERMISSIONS.view);
      await personOf(auth, role, id);
      const search = q.searchText || undefined;
      if (q.scope === 'assigned') {
        const { rows, total } = await tickets.openTickets(auth, { assignedTo: id, search, limit: q.limit });
        return { contents: rows, totalCount: total };
      }
      const sites = (await siteAssignments.siteIdsByUser(auth.tenantId, [id])).get(id) ?? [];
      const { rows, total } = await tickets.openTickets(auth, { atSites: sites, notAssignedTo: id, search, limit: q.limit });
      return { contents: rows, totalCount: total };
    },
  };
}
export type FieldStaffService = ReturnType<typeof createFieldStaffService>;
