import {
  isCustomerAdmin,
  ROLES_SEEING_ALL_SITES,
  type TicketList,
  VENDOR_MESSAGES,
  VENDOR_PERMISSIONS,
  type Vendor,
  type VendorInput,
  type VendorList,
  type VendorListQuery,
  type VendorSummary,
} from '@sitewatch/contracts';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { HelpdeskForVendors } from '../helpdesk/index.ts';
import type { Viewer } from '../sites/scope.ts';
import type { UserDirectory } from '../users/directory.ts';
import * as repo from './repository.ts';

export type VendorActor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;

export interface VendorServiceDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  users: UserDirectory;
  helpdesk: HelpdeskForVendors;
}

/** Admins of the tenant see every vendor; everyone else the vendors that serve one of their sites. */
const isAdmin = (actor: VendorActor) =>
  actor.roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r)) || isCustomerAdmin(actor.roles);
const viewerOf = (actor: VendorActor): Viewer => ({ tenantId: actor.tenantId, userId: actor.userId, allSites: isAdmin(actor) });
const has = (actor: VendorActor, codename: string) => actor.permissions.has(codename);
/** The vendor picker of the ticket view lists vendors to those who may assign tickets. */
const mayList = (actor: VendorActor) => has(actor, VENDOR_PERMISSIONS.view) || isAdmin(actor) || has(actor, 'change_ticket');
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
const iso = (d: Date | string) => new Date(d).toISOString();

/** The vendors directory: rules and access checks first, then the repository. */
export function createVendorService(deps: VendorServiceDeps) {
  const { db } = deps;

  async function summaries(actor: VendorActor, rows: repo.VendorRow[]): Promise<VendorSummary[]> {
    const ids = rows.map((r) => r.id);
    const [sites, typeLinks, counts] = await Promise.all([
      repo.visibleSitesOf(db, viewerOf(actor), ids),
      repo.issueTypeIdsOf(db, actor.tenantId, ids),
      deps.helpdesk.openTicketCounts(actor.tenantId, ids),
    ]);
    const types = await deps.helpdesk.issueTypes(actor.tenantId, [...new Set(typeLinks.map((l) => l.issue_type_id))]);
    const typeName = new Map(types.map((t) => [t.id, t.name]));
    return rows.map((r) => ({
      id: r.id,
      company: r.company,
      contactPerson: r.contact_person,
      email: r.email,
      phone: r.phone,
      active: r.active,
      sites: sites.filter((s) => s.vendor_id === r.id).map((s) => ({ id: s.asset_id, name: s.name ?? '' })),
      issueTypes: typeLinks
        .filter((l) => l.vendor_id === r.id && typeName.has(l.issue_type_id))
        .map((l) => ({ id: l.issue_type_id, name: typeName.get(l.issue_type_id) ?? '' }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      openTickets: counts.get(r.id) ?? 0,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    }));
  }

  async function detail(actor: VendorActor, row: repo.VendorRow): Promise<Vendor> {
    const [[summary], links] = await Promise.all([summaries(actor, [row]), repo.userIdsOf(db, actor.tenantId, [row.id])]);
    const users = links.length
      ? await deps.users.byIds(
          actor.tenantId,
          links.map((l) => l.user_id),
        )
      : [];
    if (!summary) throw notFound(VENDOR_MESSAGES.notFound);
    return {
      ...summary,
      address: row.address,
      notes: row.notes,
      users: users.map((u) => ({
        id: u.id,
        name: `${u.firstname} ${u.lastname}`.trim() || u.username,
        username: u.username,
        email: u.email,
        isActive: u.isActive,
      })),
      can: { change: has(actor, VENDOR_PERMISSIONS.change), delete: has(actor, VENDOR_PERMISSIONS.delete) },
    };
  }

  /** A vendor the actor may see, or 404 (another tenant's, or one serving none of the actor's sites). */
  async function visible(actor: VendorActor, id: number) {
    const row = await repo.visibleVendor(db, viewerOf(actor), id);
    if (!row) throw notFound(VENDOR_MESSAGES.notFound);
    return row;
  }

  /** Checks the links of a vendor to write; `current` is the vendor being changed (its sites the actor cannot see stay). */
  async function checkLinks(actor: VendorActor, input: VendorInput, current: number | null) {
    const viewer = viewerOf(actor);
    if (!viewer.allSites && input.assetIds.length === 0) throw badRequest(VENDOR_MESSAGES.siteRequired);
    if ((await repo.countVisible(db, viewer, input.assetIds)) !== input.assetIds.length) throw badRequest(VENDOR_MESSAGES.unknownSite);
    let assetIds = input.assetIds;
    if (current !== null && !viewer.allSites) {
      const [all, seen] = await Promise.all([repo.siteIdsOf(db, actor.tenantId, current), repo.visibleSitesOf(db, viewer, [current])]);
      const seenIds = new Set(seen.map((s) => s.asset_id));
      assetIds = [...new Set([...assetIds, ...all.filter((id) => !seenIds.has(id))])];
    }
    const types = await deps.helpdesk.issueTypes(actor.tenantId, input.issueTypeIds);
    if (types.length !== input.issueTypeIds.length) throw badRequest(VENDOR_MESSAGES.unknownIssueType);
    const users = input.userIds.length ? await deps.users.byIds(actor.tenantId, input.userIds) : [];
    if (users.length !== input.userIds.length || users.some((u) => !u.roles.includes('vendor')))
      throw badRequest(VENDOR_MESSAGES.unknownUser);
    if ((await repo.usersOfOtherVendors(db, actor.tenantId, input.userIds, current)).length) throw conflict(VENDOR_MESSAGES.userTaken);
    return { assetIds, issueTypeIds: input.issueTypeIds, userIds: input.userIds };
  }

  const valuesOf = (input: VendorInput): repo.VendorValues => ({
    company: input.company,
    contact_person: input.contactPerson,
    email: input.email,
    phone: input.phone,
    address: input.address,
    notes: input.notes,
    active: input.active,
  });

  /** A vendor's fields as the activity log keeps them. */
  const logged = (v: repo.VendorValues, links: { assetIds: number[]; issueTypeIds: number[]; userIds: number[] }) => ({
    company: v.company,
    contactPerson: v.contact_person,
    email: v.email,
    phone: v.phone,
    address: v.address,
    notes: v.notes,
    active: v.active,
    assetIds: [...links.assetIds].sort((a, b) => a - b),
    issueTypeIds: [...links.issueTypeIds].sort((a, b) => a - b),
    userIds: [...links.userIds].sort((a, b) => a - b),
  });

  const changed = (tenantId: number, vendorId: number) => deps.events.emit({ type: 'vendor.changed', tenantId, payload: { vendorId } });

  return {
    async list(actor: VendorActor, query: VendorListQuery): Promise<VendorList> {
      if (!mayList(actor)) throw forbidden();
      const { rows, total } = await repo.listVendors(db, viewerOf(actor), query, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
      return { contents: await summaries(actor, rows), totalCount: total };
    },

    async get(actor: VendorActor, id: number) {
      if (!has(actor, VENDOR_PERMISSIONS.view)) throw forbidden();
      return detail(actor, await visible(actor, id));
    },

    async tickets(actor: VendorActor, id: number, page: { page: number; limit: number }): Promise<TicketList> {
      if (!has(actor, VENDOR_PERMISSIONS.view)) throw forbidden();
      await visible(actor, id);
      return deps.helpdesk.openTickets(actor, id, page);
    },

    async create(actor: VendorActor, input: VendorInput, origin: AuditOrigin) {
      if (!has(actor, VENDOR_PERMISSIONS.add)) throw forbidden();
      if (await repo.companyTaken(db, actor.tenantId, input.company, null)) throw conflict(VENDOR_MESSAGES.exists);
      const links = await checkLinks(actor, input, null);
      const values = valuesOf(input);
      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          const created = await repo.insertVendor(trx, actor.tenantId, values, deps.clock.now());
          await repo.replaceLinks(trx, actor.tenantId, created, links);
          await writeActivity(trx, origin, {
            action: 'vendor.create',
            object: { type: 'vendor', id: created },
            after: logged(values, links),
          });
          return created;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(VENDOR_MESSAGES.exists);
        throw error;
      }
      changed(actor.tenantId, id);
      return detail(actor, await visible(actor, id));
    },

    async update(actor: VendorActor, id: number, input: VendorInput, origin: AuditOrigin) {
      if (!has(actor, VENDOR_PERMISSIONS.change)) throw forbidden();
      const before = await visible(actor, id);
      if (await repo.companyTaken(db, actor.tenantId, input.company, id)) throw conflict(VENDOR_MESSAGES.exists);
      const links = await checkLinks(actor, input, id);
      const values = valuesOf(input);
      try {
        await db.transaction().execute(async (trx) => {
          if (!(await repo.lockVendor(trx, actor.tenantId, id))) throw notFound(VENDOR_MESSAGES.notFound);
          const [sites, types, users] = await Promise.all([
            repo.siteIdsOf(trx, actor.tenantId, id),
            repo.issueTypeIdsOf(trx, actor.tenantId, [id]),
            repo.userIdsOf(trx, actor.tenantId, [id]),
          ]);
          const old = logged(before, {
            assetIds: sites,
            issueTypeIds: types.map((t) => t.issue_type_id),
            userIds: users.map((u) => u.user_id),
          });
          await repo.updateVendor(trx, actor.tenantId, id, values, deps.clock.now());
          await repo.replaceLinks(trx, actor.tenantId, id, links);
          const diff = changedFields(old, logged(values, links));
          if (Object.keys(diff.after).length)
            await writeActivity(trx, origin, { action: 'vendor.update', object: { type: 'vendor', id }, ...diff });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(VENDOR_MESSAGES.exists);
        throw error;
      }
      changed(actor.tenantId, id);
      return detail(actor, await visible(actor, id));
    },

    async remove(actor: VendorActor, id: number, origin: AuditOrigin) {
      if (!has(actor, VENDOR_PERMISSIONS.delete)) throw forbidden();
      const row = await visible(actor, id);
      if (((await deps.helpdesk.openTicketCounts(actor.tenantId, [id])).get(id) ?? 0) > 0)
        throw conflict(VENDOR_MESSAGES.hasOpenTickets, 'vendor_has_open_tickets');
      await db.transaction().execute(async (trx) => {
        if (!(await repo.lockVendor(trx, actor.tenantId, id))) throw notFound(VENDOR_MESSAGES.notFound);
        const sites = await repo.siteIdsOf(trx, actor.tenantId, id);
        await repo.deleteVendor(trx, actor.tenantId, id);
        await writeActivity(trx, origin, {
          action: 'vendor.delete',
          object: { type: 'vendor', id },
          before: { company: row.company, contactPerson: row.contact_person, email: row.email, phone: row.phone, assetIds: sites },
        });
      });
      changed(actor.tenantId, id);
    },
  };
}
export type VendorService = ReturnType<typeof createVendorService>;
