import {
  type CustomerSettings,
  canTransition,
  EVENT_TYPES,
  HELPDESK_MESSAGES,
  type HelpdeskConfig,
  nameWithSite,
  TICKET_NUMBER_PREFIX,
  TICKET_STATUS_COLOURS,
  TICKET_STATUSES,
  TICKET_TYPES,
  type Ticket,
  type TicketCreate,
  type TicketDays,
  type TicketDaysQuery,
  type TicketEventType,
  type TicketFilter,
  type TicketList,
  type TicketListQuery,
  type TicketStats,
  type TicketStatus,
  type TicketType,
  type TicketUpdate,
  transitionRefusal,
  VENDOR_MESSAGES,
} from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type InsertObject, sql, type Updateable } from 'kysely';
import type { Database } from '../../db/types.ts';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import { createCoalescer } from '../../platform/coalesce.ts';
import { statementIdentity } from '../../platform/compiled-statements.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import { sharedResponse } from '../../platform/validation.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import {
  type Actor,
  allowedStatuses,
  canAssign,
  canChange,
  canEdit,
  canRaise,
  canRate,
  canSee,
  isAdmin,
  isAssignee,
  mayMoveTo,
} from './access.ts';
import * as activity from './activity-repository.ts';
import * as adminRepo from './admin-repository.ts';
import type { AdminService } from './admin-service.ts';
import { scheduleWakeUp } from './escalation-repository.ts';
import { displayName, eventPayload, iso, isoOrNull, toAttachment, toSummary, userRef } from './mapper.ts';
import type { SystemTicketInput, TicketVendors } from './ports.ts';
import type { StoredChange, TicketsTable } from './tables.ts';
import * as repo from './ticket-repository.ts';
import { actionOf, isTerminal, matchPolicy, mergeChecklist, stopReached, track } from './ticket-rules.ts';
import { nameOf, withUserNames } from './user-names.ts';

export interface HelpdeskDeps {
  db: Db;
  events: EventBus;
  customers: { settings(tenantId: number): Promise<CustomerSettings> };
  directory: SiteDirectory;
  /** Names, assignees and watchers are users of the tenant (the users module's directory). */
  users: UserDirectory;
  admin: AdminService;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Due dates, escalation timers and the SLA sweep read this clock. */
  clock: Clock;
  /** The vendors a ticket may be assigned to (the vendors module's directory). */
  vendors: TicketVendors;
}

/** What a system caller (alarms, the devices module, imports) gives to raise a ticket. */
export type { SystemTicketInput } from './ports.ts';

type NotifyKind = 'created' | 'assigned' | 'updated' | 'escalated';
const EVENT_OF: Record<NotifyKind, TicketEventType> = {
  created: EVENT_TYPES.ticketCreated,
  assigned: EVENT_TYPES.ticketAssigned,
  updated: EVENT_TYPES.ticketUpdated,
  escalated: EVENT_TYPES.ticketEscalated,
};

export const staleVersion = () => conflict(HELPDESK_MESSAGES.staleVersion, 'stale_version');

/** Raising, reading, listing and changing tickets. Every change is one transaction with its history entry. */
export function createTicketService(deps: HelpdeskDeps) {
  const { db, admin } = deps;
  // the list's reads, each run once for the callers that ask for the same statement together
  const lists = createCoalescer<TicketList>(sharedResponse);
  const statusCounts = createCoalescer<TicketStats>(sharedResponse);
  const dayCounts = createCoalescer<TicketDays>(sharedResponse);

  async function sitesOf(actor: Actor): Promise<number[] | 'all'> {
    if (isAdmin(actor)) return 'all';
    return deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
  }

  /**
   * The actor's sites for placing tickets, looked up once per actor object (one request, or one import job of many
   * rows), not once per row.
   */
  const placeSites = new WeakMap<Actor, Promise<number[] | 'all'>>();
  function placeSitesOf(actor: Actor) {
    let sites = placeSites.get(actor);
    if (!sites) {
      sites = sitesOf(actor);
      placeSites.set(actor, sites);
    }
    return sites;
  }

  /** The vendor a user works for: with view_ticket, they see the tickets assigned to it. */
  async function vendorOf(actor: Actor) {
    if (isAdmin(actor) || !actor.permissions.has('view_ticket')) return null;
    return deps.vendors.vendorOfUser(actor.tenantId, actor.userId);
  }

  /**
   * Which tickets the actor sees (lists, counts, exports, dashboard widgets): admins all of them; others those at
   * their sites, the ones they take part in and their vendor's, and of a type with the createdBy setting only the
   * ones they raised.
   */
  async function scopeOf(actor: Actor, config: HelpdeskConfig): Promise<repo.TicketScope> {
    const [sites, vendorId] = await Promise.all([sitesOf(actor), vendorOf(actor)]);
    const ownOnlyTypes = isAdmin(actor) ? [] : TICKET_TYPES.filter((type) => config.types[type].createdBy);
    return {
      userId: actor.userId,
      allSites: sites === 'all',
      assetIds: sites === 'all' ? [] : sites,
      ownOnlyTypes,
      ...(vendorId !== null ? { vendorId } : {}),
    };
  }

  /** The frequent words of ticket texts, read from the database's statistics at most every 10 minutes. */
  let frequent: { at: number; words: Promise<string[]> } | undefined;
  function frequentWords() {
    if (!frequent || Date.now() - frequent.at > 600_000) {
      const words = repo.frequentWords(db).catch((error: unknown) => {
        deps.log.warn({ err: error }, 'the statistics of ticket words could not be read; every search asks the word index');
        return [];
      });
      frequent = { at: Date.now(), words };
    }
    return frequent.words;
  }

  async function resolveFilter(actor: Actor, f: TicketFilter): Promise<repo.ResolvedFilter> {
    if (f.from && f.to && new Date(f.from) > new Date(f.to)) throw badRequest('Please choose an end date greater than the start date');
    return {
      type: f.type,
      status: f.status,
      priority: f.priority,
      event: f.event,
      subEvent: f.subEvent,
      assignedTo: f.assignedTo === 'me' ? actor.userId : f.assignedTo,
      createdBy: f.createdBy === 'me' ? actor.userId : f.createdBy,
      vendor: f.vendor,
      mineOf: f.mine ? actor.userId : undefined,
      locationId: f.locationId,
      entityId: f.entityId,
      onHold: f.onHold,
      acknowledged: f.acknowledged,
      overdue: f.overdue,
      search: f.search,
      wordCandidates: f.search ? await repo.wordCandidates(db, actor.tenantId, f.search, await frequentWords()) : undefined,
      from: f.from,
      to: f.to,
      dateField: f.dateField,
    };
  }

  /** Loads a ticket the actor may see, or 404 (another tenant's or an unseen ticket is not revealed). */
  async function visibleTicket(actor: Actor, id: number) {
    const row = await repo.findTicket(db, actor.tenantId, id);
    if (!row) throw notFound();
    if (!canSee(actor, row, await sitesOf(actor)) && (row.vendor_id === null || row.vendor_id !== (await vendorOf(actor))))
      throw notFound();
    return row;
  }

  /**
   * Sends a ticket event to those it concerns: the owner, the assignee, the watchers and any others named. Whether
   * each of them gets an inbox item is the notifications module's decision (it applies their notification config).
   */
  function emit(
    row: repo.TicketRow,
    kind: NotifyKind,
    extra: { changes?: string[]; historyId?: number | null; actorId?: number | null; userIds?: number[] },
  ) {
    const userIds = [
      ...new Set(
        [row.created_by, row.assigned_to, ...(row.watchers ?? []), ...(extra.userIds ?? [])].filter(
          (id): id is number => typeof id === 'number',
        ),
      ),
    ];
    // An event naming nobody would reach every user of the tenant who may see tickets.
    if (userIds.length === 0) return;
    deps.events.emit({ type: EVENT_OF[kind], tenantId: row.tenant_id, userIds, payload: eventPayload(row, extra) });
  }

  async function checkAssignee(tenantId: number, userId: number | null | undefined) {
    if (userId === null || userId === undefined) return;
    const [user] = await deps.users.byIds(tenantId, [userId]);
    if (!user?.isActive) throw badRequest(HELPDESK_MESSAGES.unknownAssignee);
  }

  /** A vendor a ticket may be assigned to: one of the tenant's, active, serving the ticket's site. */
  async function checkVendor(tenantId: number, vendorId: number, siteId: number | null) {
    const vendor = await deps.vendors.vendorFor(tenantId, vendorId, siteId);
    if (!vendor) throw badRequest(VENDOR_MESSAGES.unknownVendor);
    if (!vendor.active) throw badRequest(VENDOR_MESSAGES.inactiveVendor);
    if (!vendor.servesSite) throw badRequest(VENDOR_MESSAGES.vendorNotAtSite);
    return vendor;
  }

  /** Tells the vendor's users that a ticket was assigned to their company (the assigned notice of the helpdesk). */
  async function announceVendor(row: repo.TicketRow, historyId: number | null, actorId: number | null) {
    if (row.vendor_id === null) return;
    const userIds = (await deps.vendors.userIds(row.tenant_id, row.vendor_id)).filter((id) => id !== actorId);
    if (userIds.length === 0) return;
    deps.events.emit({
      type: EVENT_OF.assigned,
      tenantId: row.tenant_id,
      userIds,
      payload: eventPayload(row, { changes: ['vendorId'], historyId, actorId }),
    });
  }

  async function vendorNames(tenantId: number, rows: readonly Pick<repo.TicketRow, 'vendor_id'>[]) {
    const ids = [...new Set(rows.map((r) => r.vendor_id).filter((id): id is number => id !== null))];
    return ids.length === 0 ? new Map<number, string>() : deps.vendors.names(tenantId, ids);
  }

  async function checkWatchers(tenantId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    const found = await deps.users.byIds(tenantId, unique);
    if (found.length !== unique.length) throw badRequest('A watcher is not a user of this customer');
    return unique;
  }

  async function checkPriority(tenantId: number, priority: string) {
    const { priorities } = await admin.config(tenantId);
    if (!priorities.some((p) => p.name === priority)) throw badRequest(`${HELPDESK_MESSAGES.unknownPriority}: ${priority}`);
  }

  /** Issue type rules: when the tenant defines issue types, the event must be one of them for this kind of ticket. */
  async function checkIssueType(tenantId: number, type: string, event: string, subEvent: string | null | undefined) {
    const issueType = await admin.findIssueTypeByName(tenantId, event);
    if (!issueType) {
      if ((await admin.countIssueTypes(tenantId)) > 0) throw badRequest(`${HELPDESK_MESSAGES.unknownIssueType}: ${event}`);
      return null;
    }
    if (!issueType.active || !issueType.ticket_types.includes(type)) throw badRequest(`${HELPDESK_MESSAGES.unknownIssueType}: ${event}`);
    if (subEvent && issueType.sub_types.length && !issueType.sub_types.some((s) => s.toLowerCase() === subEvent.toLowerCase())) {
      throw badRequest(`${HELPDESK_MESSAGES.unknownSubType}: ${subEvent}`);
    }
    return issueType;
  }

  /**
   * Checks that the site and device are the tenant's, on a site the actor sees (system callers: null), and that
   * the device is at that site; fills their labels (SPEC 3 additionalInformation). A site or device the actor
   * cannot see gets the same answer as one that does not exist, so that no name or id can be probed.
   */
  async function placeOf(
    actor: Actor | null,
    tenantId: number,
    locationId: number | null | undefined,
    entityId: number | null | undefined,
  ) {
    const { directory } = deps;
    const sites = actor && (locationId || entityId) ? await placeSitesOf(actor) : 'all';
    const visible = (assetId: number | null) => sites === 'all' || (assetId !== null && sites.includes(assetId));
    const place: {
      locationId: number | null;
      entityId: number | null;
      assetLabel: string | null;
      deviceLabel: string | null;
      parentLabel: string | null;
      city: string | null;
      deviceName: string | null;
      entityProfileType: string | null;
    } = {
      locationId: locationId ?? null,
      entityId: entityId ?? null,
      assetLabel: null,
      deviceLabel: null,
      parentLabel: null,
      city: null,
      deviceName: null,
      entityProfileType: null,
    };
    const location = place.locationId ? await directory.asset(tenantId, place.locationId) : null;
    if (place.locationId && (!location || !visible(location.id))) throw badRequest(HELPDESK_MESSAGES.unknownLocation);
    if (entityId) {
      const device = await directory.device(tenantId, entityId);
      if (!device || !visible(device.assetId)) throw badRequest(HELPDESK_MESSAGES.unknownEntity);
      if (location && device.assetId !== null && device.assetId !== location.id)
        throw badRequest(HELPDESK_MESSAGES.deviceAtOtherSite(nameWithSite(device.label, device.siteName), location.name));
      place.deviceLabel = device.label;
      place.parentLabel = device.parentLabel;
      place.deviceName = device.name;
      place.entityProfileType = device.type;
      if (!place.locationId) place.locationId = device.assetId;
    }
    if (place.locationId) {
      const asset = location ?? (await directory.asset(tenantId, place.locationId));
      if (!asset || !visible(asset.id)) throw badRequest(HELPDESK_MESSAGES.unknownLocation);
      place.assetLabel = asset.name;
      place.city = asset.city;
    }
    return place;
  }

  async function detail(actor: Actor, row: repo.TicketRow, settings?: HelpdeskConfig): Promise<Ticket> {
    const config = settings ?? (await admin.config(actor.tenantId));
    const view = config.types[row.type as TicketType].ticketViewConfigs;
    const [attachments, ticketPeople, linked, attendance, policy, vendors] = await Promise.all([
      activity.listAttachments(db, actor.tenantId, row.id),
      withUserNames(deps.users, actor.tenantId, [row.assigned_to, row.created_by, ...(row.watchers ?? []), row.rated_by]),
      repo.findLinked(db, actor.tenantId, { parentId: row.parent_id, childrenOf: row.id }),
      activity.listAttendance(db, actor.tenantId, row.id),
      row.escalation_policy_id ? adminRepo.findPolicy(db, actor.tenantId, row.escalation_policy_id) : Promise.resolve(undefined),
      vendorNames(actor.tenantId, [row]),
    ]);
    // Uploaders and attendees the ticket does not name already: one more lookup, only when there are any.
    const names = await withUserNames(
      deps.users,
      actor.tenantId,
      [...attachments.map((a) => a.uploaded_by), ...attendance.map((a) => a.user_id)],
      ticketPeople,
    );
    const person = (id: number) => {
      const user = names.get(id);
      return user ? { id, ...user } : undefined;
    };
    const watchers = (row.watchers ?? []).map(person).filter((u) => u !== undefined);
    const rater = row.rated_by === null ? undefined : person(row.rated_by);
    const link = (l: (typeof linked)[number]) => ({
      id: l.id,
      ticketId: l.ticket_no,
      type: l.type as TicketType,
      status: l.status as TicketStatus,
      title: l.title,
    });
    const parent = linked.find((l) => l.id === row.parent_id);
    const ref = (u: { id: number; firstname: string; lastname: string; email: string }) => ({
      id: u.id,
      name: displayName(u),
      email: u.email,
    });
    const mayChange = canChange(actor);
    const mayEdit = canEdit(actor, row);
    return {
      ...toSummary(row, names, vendors),
      attachments: attachments.map((a) => toAttachment(a, names)),
      metadata: row.metadata ?? {},
      statusAgeing: row.status_ageing ?? {},
      watchers: watchers.map(ref),
      ratingDetail:
        row.rating === null
          ? null
          : {
              value: row.rating,
              comment: row.rating_comment ?? '',
              ratedBy: rater ? ref(rater) : null,
              ratedAt: iso(row.rated_at ?? row.updated_at),
              raisedTicketId: row.rating_ticket_id,
            },
      costIncurred: row.cost_incurred,
      checklist: (row.checklist ?? []).map((i) => ({ ...i })),
      parent: parent ? link(parent) : null,
      workOrders: linked.filter((l) => l.parent_id === row.id && l.type === 'WORKORDERTICKET').map(link),
      attendance: attendance.map((a) => ({
        id: a.id,
        user: userRef(a.user_id, nameOf(names, a.user_id)),
        note: a.note,
        latitude: a.latitude,
        longitude: a.longitude,
        createdAt: iso(a.created_at),
      })),
      escalation: policy
        ? {
            policyId: policy.id,
            policyName: policy.name,
            level: row.escalation_level,
            levels: policy.levels.length,
            nextAt: isoOrNull(row.escalation_due_at),
          }
        : null,
      can: {
        edit: mayEdit,
        assign: canAssign(actor),
        statuses: allowedStatuses(actor, row),
        rate: view.rating && canRate(actor, row, view.ratingOwnerOnly) && isTerminal(row.status),
        comment: true,
        attach: mayEdit,
        watch: view.watchers,
        manageWatchers: view.watchers && mayChange,
        workOrder: view.workOrder && row.type !== 'WORKORDERTICKET' && (mayChange || actor.permissions.has('add_ticket')),
        attendance: view.markAttendance && (mayChange || isAssignee(actor, row)),
      },
    };
  }

  /**
   * Checks a ticket to raise and works out every column: the rules of raising without the writing, so that an
   * import can check all its rows first. `actor` is null for system callers (alarms, follow-ups).
   */
  async function prepare(
    actor: Actor | null,
    tenantId: number,
    input: SystemTicketInput,
    opts: { history?: string; skipIssueCheck?: boolean } = {},
  ) {
    const [settings, config] = await Promise.all([deps.customers.settings(tenantId), admin.config(tenantId)]);
    const type = (input.type ?? settings.ticket.type) as TicketType;
    if (actor && !canRaise(actor, type)) throw forbidden();
    if (actor && input.status && !canChange(actor)) throw forbidden('Only users who may change tickets can raise one in another status');
    if (input.status && isTerminal(input.status)) throw badRequest('A new ticket cannot start resolved or closed');
    const status = input.status ?? (settings.ticket.newTicketStatus as TicketStatus);
    const issueType = opts.skipIssueCheck ? null : await checkIssueType(tenantId, type, input.event, input.subEvent);
    const priority = input.priority ?? issueType?.default_priority ?? settings.ticket.priority;
    if (input.priority) await checkPriority(tenantId, input.priority);
    if (actor && input.assignedTo !== undefined && input.assignedTo !== null && input.assignedTo !== actor.userId && !canAssign(actor))
      throw forbidden();
    await checkAssignee(tenantId, input.assignedTo);
    const watchers = input.watchers ? await checkWatchers(tenantId, input.watchers) : [];
    const place = await placeOf(actor, tenantId, input.locationId, input.entityId);
    if (input.vendorId) {
      if (actor && !canAssign(actor)) throw forbidden();
      await checkVendor(tenantId, input.vendorId, place.locationId);
    }
    if (input.parentId) {
      const parent = actor ? await visibleTicket(actor, input.parentId) : await repo.findTicket(db, tenantId, input.parentId);
      if (!parent) throw badRequest('The linked ticket does not exist');
    }
    const policies = await adminRepo.activePolicies(db, tenantId);
    const policy = matchPolicy(policies, { type, priority, event: input.event });
    const ownerId = actor?.userId ?? input.ownerId ?? null;
    const [owner] = ownerId ? await deps.users.byIds(tenantId, [ownerId]) : [];
    const now = deps.clock.now();
    const eventDate = input.eventDate ? new Date(input.eventDate) : now;
    const dueHours = issueType?.sla_hours ?? config.defaultDueHours;
    const dueDate =
      input.dueDate !== undefined
        ? input.dueDate
          ? new Date(input.dueDate)
          : null
        : dueHours
          ? new Date(now.getTime() + dueHours * 3600_000)
          : null;
    const firstWait = policy?.levels[0]?.waitMinutes;
    const escalationDue = policy && firstWait && !stopReached(policy.stop_at, status) ? new Date(now.getTime() + firstWait * 60_000) : null;
    const checklist = actor ? mergeChecklist([], input.checklist ?? [], actor.userId, now.toISOString()) : [];
    const values: Omit<InsertObject<Database, 'tickets'>, 'ticket_no'> = {
      tenant_id: tenantId,
      type,
      status,
      priority,
      event: issueType?.name ?? input.event,
      sub_event: input.subEvent ?? null,
      title: input.title,
      description: input.description ?? '',
      assigned_to: input.assignedTo ?? null,
      assigned_date: input.assignedTo ? now : null,
      vendor_id: input.vendorId ?? null,
      created_by: owner?.id ?? null,
      created_by_email: owner?.email ?? null,
      location_id: place.locationId,
      entity_id: place.entityId,
      entity_profile_type: input.entityProfileType ?? place.entityProfileType,
      on_hold: input.onHold ?? false,
      acknowledged: false,
      event_date: eventDate,
      due_date: dueDate,
      city: input.city ?? place.city,
      asset_type: input.assetType ?? null,
      device_name: input.deviceName ?? place.deviceName,
      metadata: JSON.stringify(input.metadata ?? {}),
      additional_information: JSON.stringify({
        assetLabel: place.assetLabel,
        deviceLabel: place.deviceLabel,
        parentLabel: place.parentLabel,
        ...(input.additionalInformation?.formId !== undefined ? { formId: input.additionalInformation.formId } : {}),
      }),
      status_ageing: sql<string>`helpdesk_ageing('{}'::jsonb, null, ${status}, now())`,
      watchers,
      checklist: JSON.stringify(checklist),
      parent_id: input.parentId ?? null,
      escalation_policy_id: policy?.id ?? null,
      escalation_due_at: escalationDue,
      created_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    };
    return { values, type, status, escalationDue, actorId: actor?.userId ?? null, note: opts.history ?? null };
  }
  type Prepared = Awaited<ReturnType<typeof prepare>>;

  /** Writes prepared tickets in the caller's transaction: numbers, rows, their first history entries and timers. */
  async function persist(trx: Db, tenantId: number, prepared: Prepared[]) {
    if (prepared.length === 0) return [];
    const first = await repo.nextTicketNumbers(trx, tenantId, prepared.length);
    const out: { id: number; ticketId: string; historyId: number }[] = [];
    for (const [i, p] of prepared.entries()) {
      const inserted = await repo.insertTicket(trx, { ...p.values, ticket_no: `${TICKET_NUMBER_PREFIX[p.type]}-${first + i}` });
      const historyId = await repo.insertHistory(trx, {
        tenantId,
        ticketId: inserted.id,
        actorId: p.actorId,
        action: 'created',
        changes: [{ field: 'status', from: null, to: p.status }],
        note: p.note,
      });
      if (p.escalationDue) await scheduleWakeUp(trx, p.escalationDue);
      out.push({ id: inserted.id, ticketId: inserted.ticket_no, historyId });
    }
    return out;
  }

  /** Sends the created (and assigned) events of freshly written tickets. */
  async function announceCreated(tenantId: number, created: { id: number; historyId: number }[], actorId: number | null) {
    const rows = await repo.ticketsByIds(
      db,
      tenantId,
      created.map((c) => c.id),
    );
    for (const row of rows) {
      const historyId = created.find((c) => c.id === row.id)?.historyId ?? null;
      emit(row, 'created', { historyId, actorId });
      if (row.assigned_to) emit(row, 'assigned', { historyId, actorId, changes: ['assignedTo'] });
      await announceVendor(row, historyId, actorId);
    }
  }

  /** Raises one ticket. */
  /** `opts.origin`: who raises it, for the activity log (system callers give none and are not recorded). */
  async function create(
    actor: Actor | null,
    tenantId: number,
    input: SystemTicketInput,
    opts: { history?: string; skipIssueCheck?: boolean; origin?: AuditOrigin } = {},
  ) {
    if (input.reuseOpen && input.entityId) {
      const open = await repo.findOpenDuplicate(db, tenantId, input.type ?? 'AlarmTicket', input.entityId, input.event);
      if (open) return { id: open.id, ticketId: open.ticket_no, reused: true };
    }
    const prepared = await prepare(actor, tenantId, input, opts);
    const [created] = await db.transaction().execute(async (trx) => {
      const out = await persist(trx, tenantId, [prepared]);
      const first = out[0];
      if (opts.origin && first) {
        const v = prepared.values;
        await writeActivity(trx, opts.origin, {
          action: 'ticket.create',
          object: { type: 'ticket', id: first.id },
          after: {
            ticketId: first.ticketId,
            type: v.type,
            status: v.status,
            title: v.title,
            priority: v.priority,
            event: v.event,
            subEvent: v.sub_event,
            locationId: v.location_id,
            entityId: v.entity_id,
            assignedTo: v.assigned_to,
            vendorId: v.vendor_id ?? null,
          },
        });
      }
      return out;
    });
    if (!created) throw new Error('ticket not written');
    await announceCreated(tenantId, [created], actor?.userId ?? null);
    return { id: created.id, ticketId: created.ticketId, reused: false };
  }

  /**
   * Applies a change read at `patch.version`. Checks run first on what the caller saw, then again under the row
   * lock; a stale version is refused with 409 so that no update is lost.
   */
  /** `origin`: who changes it, for the activity log (null: not recorded). */
  async function update(actor: Actor, id: number, patch: TicketUpdate, origin: AuditOrigin | null) {
    const { fresh, config, historyId } = await applyUpdate(actor, id, patch, origin);
    return { ticket: await detail(actor, fresh, config), historyId };
  }

  /** The update without the ticket's detail view (callers that only need the change made). */
  async function applyUpdate(actor: Actor, id: number, patch: TicketUpdate, origin: AuditOrigin | null) {
    const seen = await visibleTicket(actor, id);
    const [settings, config] = await Promise.all([deps.customers.settings(actor.tenantId), admin.config(actor.tenantId)]);
    if (patch.priority !== undefined && patch.priority !== seen.priority) await checkPriority(actor.tenantId, patch.priority);
    if (patch.assignedTo !== undefined && patch.assignedTo !== seen.assigned_to) await checkAssignee(actor.tenantId, patch.assignedTo);
    const watchers = patch.watchers ? await checkWatchers(actor.tenantId, patch.watchers) : undefined;
    if ((patch.event !== undefined && patch.event !== seen.event) || (patch.subEvent !== undefined && patch.subEvent !== seen.sub_event)) {
      await checkIssueType(
        actor.tenantId,
        seen.type,
        patch.event ?? seen.event,
        patch.subEvent === undefined ? seen.sub_event : patch.subEvent,
      );
    }
    const placeChanged =
      (patch.locationId !== undefined && patch.locationId !== seen.location_id) ||
      (patch.entityId !== undefined && patch.entityId !== seen.entity_id);
    const place = placeChanged
      ? await placeOf(
          actor,
          actor.tenantId,
          patch.locationId === undefined ? seen.location_id : patch.locationId,
          patch.entityId === undefined ? seen.entity_id : patch.entityId,
        )
      : null;
    const vendorChanged = patch.vendorId !== undefined && patch.vendorId !== seen.vendor_id;
    const nextVendor = patch.vendorId === undefined ? seen.vendor_id : patch.vendorId;
    if (vendorChanged && !canAssign(actor)) throw new HttpError(403, 'You may not change the vendor of this ticket');
    if (nextVendor && (vendorChanged || place)) await checkVendor(actor.tenantId, nextVendor, place ? place.locationId : seen.location_id);
    const policy = seen.escalation_policy_id ? await adminRepo.findPolicy(db, actor.tenantId, seen.escalation_policy_id) : undefined;
    const reopenPolicy =
      patch.status === 'RE-OPENED'
        ? matchPolicy(await adminRepo.activePolicies(db, actor.tenantId), {
            type: seen.type,
            priority: patch.priority ?? seen.priority,
            event: patch.event ?? seen.event,
          })
        : null;

    const result = await db.transaction().execute(async (trx) => {
      const row = await repo.lockTicket(trx, actor.tenantId, id);
      if (!row) throw notFound();
      if (row.version !== patch.version) throw staleVersion();
      const changes: StoredChange[] = [];
      const set: Updateable<TicketsTable> = {};
      const now = deps.clock.now();
      const deny = (what: string) => new HttpError(403, `You may not change the ${what} of this ticket`);
      const editable = canEdit(actor, row);
      const text = (field: string, column: keyof TicketsTable, value: unknown, current: unknown) => {
        if (value === undefined || JSON.stringify(value) === JSON.stringify(current)) return;
        if (!editable) throw deny(field);
        track(changes, field, current, value);
        (set as Record<string, unknown>)[column] = value;
      };
      text('title', 'title', patch.title, row.title);
      text('description', 'description', patch.description, row.description);
      text('event', 'event', patch.event, row.event);
      text('subEvent', 'sub_event', patch.subEvent, row.sub_event);
      text('priority', 'priority', patch.priority, row.priority);
      text('onHold', 'on_hold', patch.onHold, row.on_hold);
      text('entityProfileType', 'entity_profile_type', patch.entityProfileType, row.entity_profile_type);
      text('city', 'city', patch.city, row.city);
      text('assetType', 'asset_type', patch.assetType, row.asset_type);
      text('deviceName', 'device_name', patch.deviceName, row.device_name);
      if (patch.eventDate !== undefined && new Date(patch.eventDate).getTime() !== row.event_date.getTime()) {
        if (!editable) throw deny('event date');
        track(changes, 'eventDate', iso(row.event_date), iso(patch.eventDate));
        set.event_date = new Date(patch.eventDate);
      }
      if (patch.dueDate !== undefined && (patch.dueDate ? new Date(patch.dueDate).getTime() : null) !== (row.due_date?.getTime() ?? null)) {
        if (!editable) throw deny('due date');
        track(changes, 'dueDate', isoOrNull(row.due_date), patch.dueDate ? iso(patch.dueDate) : null);
        set.due_date = patch.dueDate ? new Date(patch.dueDate) : null;
        set.sla_breached = false;
      }
      if (patch.metadata !== undefined && JSON.stringify(patch.metadata) !== JSON.stringify(row.metadata)) {
        if (!editable) throw deny('metadata');
        track(changes, 'metadata', row.metadata, patch.metadata);
        set.metadata = JSON.stringify(patch.metadata);
      }
      const info = { ...(row.additional_information ?? {}) } as Record<string, unknown>;
      let infoChanged = false;
      if (patch.additionalInformation?.formId !== undefined && patch.additionalInformation.formId !== info.formId) {
        if (!editable) throw deny('form');
        track(changes, 'formId', info.formId, patch.additionalInformation.formId);
        info.formId = patch.additionalInformation.formId;
        infoChanged = true;
      }
      if (place) {
        if (!editable) throw deny('location');
        track(changes, 'locationId', row.location_id, place.locationId);
        track(changes, 'entityId', row.entity_id, place.entityId);
        set.location_id = place.locationId;
        set.entity_id = place.entityId;
        Object.assign(info, { assetLabel: place.assetLabel, deviceLabel: place.deviceLabel, parentLabel: place.parentLabel });
        set.device_name = patch.deviceName ?? place.deviceName;
        set.entity_profile_type = patch.entityProfileType ?? place.entityProfileType;
        set.city = patch.city ?? place.city;
        infoChanged = true;
      }
      if (infoChanged) set.additional_information = JSON.stringify(info);
      if (patch.checklist !== undefined) {
        // An item ticked at the site without a connection is stamped with the time it was ticked.
        const merged = mergeChecklist(row.checklist ?? [], patch.checklist, actor.userId, (origin?.performedAt ?? now).toISOString());
        if (JSON.stringify(merged) !== JSON.stringify(row.checklist ?? [])) {
          if (!editable) throw deny('checklist');
          track(changes, 'checklist', row.checklist, merged);
          set.checklist = JSON.stringify(merged);
        }
      }
      if (patch.costIncurred !== undefined && JSON.stringify(patch.costIncurred) !== JSON.stringify(row.cost_incurred)) {
        if (!editable) throw deny('cost incurred');
        track(changes, 'costIncurred', row.cost_incurred, patch.costIncurred);
        set.cost_incurred = patch.costIncurred === null ? null : JSON.stringify(patch.costIncurred);
      }
      if (watchers !== undefined && JSON.stringify([...watchers].sort()) !== JSON.stringify([...(row.watchers ?? [])].sort())) {
        if (!canChange(actor)) throw deny('watchers');
        track(changes, 'watchers', row.watchers, watchers);
        set.watchers = watchers;
      }
      if (patch.acknowledged !== undefined && patch.acknowledged !== row.acknowledged) {
        if (!isAssignee(actor, row) && !canChange(actor)) throw deny('acknowledgement');
        track(changes, 'acknowledged', row.acknowledged, patch.acknowledged);
        set.acknowledged = patch.acknowledged;
      }
      let previousAssignee: number | null = null;
      if (patch.assignedTo !== undefined && patch.assignedTo !== row.assigned_to) {
        if (!canAssign(actor)) throw deny('assignee');
        track(changes, 'assignedTo', row.assigned_to, patch.assignedTo);
        previousAssignee = row.assigned_to;
        set.assigned_to = patch.assignedTo;
        set.assigned_date = patch.assignedTo ? now : null;
        set.acknowledged = false;
      }
      if (patch.vendorId !== undefined && patch.vendorId !== row.vendor_id) {
        if (!canAssign(actor)) throw deny('vendor');
        track(changes, 'vendorId', row.vendor_id, patch.vendorId);
        set.vendor_id = patch.vendorId;
      }
      let newStatus: TicketStatus | null = null;
      if (patch.status !== undefined && patch.status !== row.status) {
        const from = row.status as TicketStatus;
        if (!canTransition(from, patch.status)) throw conflict(transitionRefusal(from, patch.status), 'transition_refused');
        if (!mayMoveTo(actor, row, patch.status)) throw forbidden(`You may not move this ticket to ${patch.status}`);
        if (patch.status === 'INREVIEW' && settings.ticket.requireAttachmentForReview && row.attachment_count === 0) {
          throw conflict(HELPDESK_MESSAGES.attachmentRequiredForReview, 'attachment_required');
        }
        newStatus = patch.status;
        track(changes, 'status', from, newStatus);
        set.status = newStatus;
        if (newStatus === 'RESOLVED') set.resolved_date = sql`now()` as unknown as Date;
        if (newStatus === 'RE-OPENED') {
          set.resolved_date = null;
          set.sla_breached = false;
          set.escalation_cycle = row.escalation_cycle + 1;
          set.escalation_level = 0;
          set.escalation_policy_id = reopenPolicy?.id ?? null;
          const wait = reopenPolicy?.levels[0]?.waitMinutes;
          set.escalation_due_at = wait ? new Date(now.getTime() + wait * 60_000) : null;
        } else if (policy && stopReached(policy.stop_at, newStatus)) {
          set.escalation_due_at = null;
        }
      }
      if (changes.length === 0) return { row, historyId: null, changes, previousAssignee };
      if (!(await repo.updateTicket(trx, actor.tenantId, id, row.version, set, newStatus))) throw staleVersion();
      const historyId = await repo.insertHistory(trx, {
        tenantId: actor.tenantId,
        ticketId: id,
        actorId: actor.userId,
        action: actionOf(changes),
        changes,
        note: patch.note ?? null,
        performedAt: origin?.performedAt ?? null,
      });
      if (origin) {
        await writeActivity(trx, origin, {
          action: 'ticket.update',
          object: { type: 'ticket', id },
          before: Object.fromEntries(changes.map((c) => [c.field, c.from])),
          after: Object.fromEntries(changes.map((c) => [c.field, c.to])),
        });
      }
      if (newStatus === 'RE-OPENED' && set.escalation_due_at instanceof Date) {
        await scheduleWakeUp(trx, set.escalation_due_at);
      }
      return { row, historyId, changes, previousAssignee };
    });

    const fresh = await repo.findTicket(db, actor.tenantId, id);
    if (!fresh) throw notFound();
    if (result.historyId) {
      const fields = result.changes.map((c) => c.field);
      emit(fresh, 'updated', {
        changes: fields,
        historyId: result.historyId,
        actorId: actor.userId,
        userIds: result.previousAssignee ? [result.previousAssignee] : [],
      });
      if (fields.includes('assignedTo') && fresh.assigned_to) {
        emit(fresh, 'assigned', { changes: ['assignedTo'], historyId: result.historyId, actorId: actor.userId });
      }
      if (fields.includes('vendorId')) await announceVendor(fresh, result.historyId, actor.userId);
    }
    return { fresh, config, historyId: result.historyId };
  }

  return {
    sitesOf,
    visibleTicket,
    detail,
    prepare,
    persist,
    announceCreated,
    create,
    update,
    /** The update without the detail view: the version after the change. */
    async change(actor: Actor, id: number, patch: TicketUpdate, origin: AuditOrigin | null) {
      const { fresh, historyId } = await applyUpdate(actor, id, patch, origin);
      return { id: fresh.id, version: fresh.version, historyId };
    },
    /** Status, place, assignee and version of a ticket the actor may see, else 404 (no detail view). */
    async brief(actor: Actor, id: number) {
      const row = await visibleTicket(actor, id);
      return { id: row.id, status: row.status, version: row.version, locationId: row.location_id, assignedTo: row.assigned_to };
    },
    /** The newest tickets in these statuses assigned to the actor at one site (the actor sees those they are assigned). */
    assignedToMeAt: (actor: Actor, siteId: number, statuses: readonly string[], limit: number) =>
      repo.assignedAtSite(db, actor.tenantId, actor.userId, siteId, statuses, limit),
    emit,
    /** The tickets the actor sees, as the list applies it (dashboard widgets read through the same scope). */
    visibility: async (actor: Actor) => scopeOf(actor, await admin.config(actor.tenantId)),
    /**
     * A page of the list. Screens that ask for the same page together (every open one, after a pushed change) are
     * answered by one read begun after their calls (`createCoalescer`), encoded once. The answer is the statement's
     * rows with the tenant's names, so callers whose statements are the same (the same tenant, filter, page and
     * visible tickets) share it whoever they are.
     */
    async list(actor: Actor, query: TicketListQuery) {
      const config = await admin.config(actor.tenantId);
      const scope = await scopeOf(actor, config);
      const filter = await resolveFilter(actor, query);
      const statement = repo.listStatementOf(db, actor.tenantId, filter, scope, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
        orderBy: query.orderBy,
        priorities: config.priorities.map((p) => p.name),
      });
      return lists.run(statementIdentity(statement), async () => {
        const { rows, count } = await repo.listTickets(db, actor.tenantId, filter, scope, statement);
        const [names, vendors] = await Promise.all([
          withUserNames(
            deps.users,
            actor.tenantId,
            rows.flatMap((r) => [r.assigned_to, r.created_by]),
          ),
          vendorNames(actor.tenantId, rows),
        ]);
        return { contents: rows.map((r) => toSummary(r, names, vendors)), totalCount: count.count, totalExact: count.exact };
      });
    },
    async stats(actor: Actor, query: TicketFilter) {
      const config = await admin.config(actor.tenantId);
      const scope = await scopeOf(actor, config);
      const statement = repo.statusCountStatementOf(db, actor.tenantId, await resolveFilter(actor, query), scope);
      return statusCounts.run(statementIdentity(statement), async () => {
        const rows = await repo.countByStatus(db, statement);
        const counts = new Map(rows.map((r) => [r.status, Number(r.count)]));
        return {
          contents: TICKET_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0, color: TICKET_STATUS_COLOURS[status] })),
          total: [...counts.values()].reduce((a, b) => a + b, 0),
        };
      });
    },
    /** Group by day: the true count of each day over the whole filtered list, not just the page shown. */
    async days(actor: Actor, query: TicketDaysQuery) {
      const config = await admin.config(actor.tenantId);
      const scope = await scopeOf(actor, config);
      const statement = repo.dayCountStatementOf(db, actor.tenantId, await resolveFilter(actor, query), scope, query.timeZone);
      return dayCounts.run(statementIdentity(statement), async () => ({ contents: await repo.countByDay(db, statement) }));
    },
    async get(actor: Actor, id: number) {
      return detail(actor, await visibleTicket(actor, id));
    },
    async raise(actor: Actor, input: TicketCreate, origin: AuditOrigin | null) {
      const created = await create(actor, actor.tenantId, input, origin ? { origin } : {});
      const row = await repo.findTicket(db, actor.tenantId, created.id);
      if (!row) throw notFound();
      return detail(actor, row);
    },
  };
}
export type TicketService = ReturnType<typeof createTicketService>;
