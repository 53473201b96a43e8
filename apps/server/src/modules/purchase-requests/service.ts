import {
  PR_ACTION_PERMISSION,
  PR_MESSAGES,
  PR_STATES,
  PR_TRANSITIONS,
  type PrAction,
  type PrActionInput,
  type PrFromLowStock,
  type PrInput,
  type PrQuery,
  type PrState,
  PURCHASE_REQUEST_PERMISSIONS,
  type PurchaseRequest,
  type PurchaseRequestDetail,
} from '@sitewatch/contracts';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { TicketLinks } from '../helpdesk/index.ts';
import type { InventoryPurchasing } from '../inventory/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { type UserDirectory, usersById } from '../users/directory.ts';
import * as repo from './repository.ts';

export type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;
type Right = keyof typeof PURCHASE_REQUEST_PERMISSIONS;

export const can = (actor: Actor, right: Right) => actor.permissions.has(PURCHASE_REQUEST_PERMISSIONS[right]);
function need(actor: Actor, right: Right) {
  if (!can(actor, right)) throw forbidden();
}

export interface PurchaseRequestDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  directory: SiteDirectory;
  users: UserDirectory;
  tickets: TicketLinks;
  inventory: InventoryPurchasing;
}

const money = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
export const prNumber = (id: number) => `PR-${String(id).padStart(5, '0')}`;
const nameOf = (u: { firstname: string; lastname: string; username?: string } | undefined) =>
  u ? `${u.firstname} ${u.lastname}`.trim() || (u.username ?? '') : '';

/** The actions a state allows this actor (the screen shows only these). */
export function actionsFor(actor: Actor, state: PrState): PrAction[] {
  return (Object.keys(PR_TRANSITIONS) as PrAction[]).filter(
    (a) => PR_TRANSITIONS[a].from.includes(state) && can(actor, PR_ACTION_PERMISSION[a]),
  );
}

const PAST: Record<PrAction, string> = {
  submit: 'submitted',
  approve: 'approved',
  reject: 'rejected',
  order: 'ordered',
  receive: 'received',
  cancel: 'cancelled',
};

/**
 * Purchase requests for spare parts: raised by hand, from a ticket, or with one click from what is low in a store;
 * submitted, approved or rejected, ordered and received (receipt posts RECEIVE movements to the ledger in the same
 * transaction). A request belongs to its store: callers see the requests of the stores they see, 404 otherwise.
 */
export function createPurchaseRequestService(deps: PurchaseRequestDeps) {
  const { db, inventory } = deps;

  async function visible(actor: Actor, id: number) {
    need(actor, 'view');
    const scope = await inventory.storeScope(actor);
    const row = await repo.findRequest(db, actor.tenantId, id);
    if (!row || (scope !== 'all' && !scope.includes(row.store_id))) throw notFound(PR_MESSAGES.notFound);
    return row;
  }
  /** The row again inside the transaction, locked (its visibility was checked before the transaction). */
  async function locked(trx: Db, actor: Actor, id: number) {
    const row = await repo.findRequest(trx, actor.tenantId, id, { lock: true });
    if (!row) throw notFound(PR_MESSAGES.notFound);
    return row;
  }

  async function toRequests(actor: Actor, rows: repo.ListRow[]): Promise<PurchaseRequest[]> {
    const [names, stores, sites] = await Promise.all([
      usersById(
        deps.users,
        actor.tenantId,
        rows.flatMap((r) => [r.requester_id, r.decided_by]),
      ),
      inventory.storeNames(
        actor.tenantId,
        rows.map((r) => r.store_id),
      ),
      siteNames(
        actor.tenantId,
        rows.map((r) => r.asset_id),
      ),
    ]);
    const ref = (id: number | null) => (id === null ? null : { id, name: nameOf(names.get(id)) });
    return rows.map((r) => ({
      id: r.id,
      number: prNumber(r.id),
      title: r.title,
      state: r.state,
      source: r.source,
      store: { id: r.store_id, name: stores.get(r.store_id) ?? '' },
      site: r.asset_id === null ? null : { id: r.asset_id, name: sites.get(r.asset_id) ?? '' },
      ticket: r.ticket_id === null ? null : { id: r.ticket_id, ticketId: r.ticket_ref ?? String(r.ticket_id) },
      requester: ref(r.requester_id),
      decidedBy: ref(r.decided_by),
      note: r.note,
      reason: r.reason,
      total: money(r.total),
      lineCount: r.line_count,
      createdAt: iso(r.created_at) as string,
      updatedAt: iso(r.updated_at) as string,
      submittedAt: iso(r.submitted_at),
      decidedAt: iso(r.decided_at),
      receivedAt: iso(r.received_at),
    }));
  }

  async function siteNames(tenantId: number, ids: Array<number | null>) {
    const unique = [...new Set(ids.filter((id): id is number => id !== null))];
    return new Map(await Promise.all(unique.map(async (id) => [id, (await deps.directory.asset(tenantId, id))?.name ?? ''] as const)));
  }

  async function detail(actor: Actor, row: repo.RequestRow): Promise<PurchaseRequestDetail> {
    const lines = await repo.linesOf(db, actor.tenantId, [row.id]);
    const items = new Map(
      (
        await inventory.items(
          actor.tenantId,
          lines.map((l) => l.item_id),
        )
      ).map((i) => [i.id, i]),
    );
    const [base] = await toRequests(actor, [{ ...row, line_count: lines.length }]);
    return {
      ...(base as PurchaseRequest),
      lines: lines.map((l) => {
        const item = items.get(l.item_id);
        return {
          id: l.id,
          itemId: l.item_id,
          itemCode: item?.code ?? '',
          itemName: item?.name ?? '',
          unit: item?.unit ?? '',
          quantity: l.quantity,
          unitCost: money(l.unit_cost),
          total: money(l.quantity * Number(l.unit_cost)),
        };
      }),
      actions: actionsFor(actor, row.state),
    };
  }

  /** Items of the tenant named once each; the lines' total. */
  async function checkLines(actor: Actor, lines: PrInput['lines']) {
    const ids = lines.map((l) => l.itemId);
    if (new Set(ids).size !== ids.length) throw badRequest(PR_MESSAGES.itemTwice);
    const found = await inventory.items(actor.tenantId, ids);
    if (found.length !== new Set(ids).size) throw notFound('Item not found.');
    return money(lines.reduce((sum, l) => sum + l.quantity * l.unitCost, 0));
  }

  function announce(tenantId: number, prId: number, state: string, assetId: number | null) {
    deps.events.emit({ type: 'purchase-request.changed', tenantId, payload: { prId, state, assetId } });
  }

  async function insert(
    actor: Actor,
    input: { title: string; storeId: number; ticketId: number | null; note: string; lines: PrInput['lines']; submit: boolean },
    source: 'MANUAL' | 'TICKET' | 'LOW_STOCK',
    origin: AuditOrigin | null,
  ) {
    const store = await inventory.store(actor, input.storeId);
    const total = await checkLines(actor, input.lines);
    let ticket: { id: number; ticketId: string } | null = null;
    if (input.ticketId !== null) {
      const found = await deps.tickets.visible(actor, input.ticketId);
      if (!found) throw notFound('Ticket not found.');
      ticket = { id: found.id, ticketId: found.ticketId };
    }
    const now = deps.clock.now();
    const state: PrState = input.submit ? 'SUBMITTED' : 'DRAFT';
    const id = await db.transaction().execute(async (trx) => {
      const prId = await repo.insertRequest(trx, {
        tenant_id: actor.tenantId,
        title: input.title,
        state,
        source: ticket ? 'TICKET' : source,
        store_id: store.id,
        asset_id: store.asset_id,
        ticket_id: ticket?.id ?? null,
        ticket_ref: ticket?.ticketId ?? null,
        requester_id: actor.userId,
        note: input.note,
        total,
        created_at: now,
        updated_at: now,
        submitted_at: input.submit ? now : null,
      });
      await repo.replaceLines(trx, actor.tenantId, prId, input.lines);
      if (ticket)
        await deps.tickets.addHistory(trx, {
          tenantId: actor.tenantId,
          ticketId: ticket.id,
          actorId: actor.userId,
          note: `Purchase request ${prNumber(prId)} raised: ${input.title}`,
        });
      if (origin)
        await writeActivity(trx, origin, {
          action: 'purchase-request.create',
          object: { type: 'purchase-request', id: prId },
          after: {
            title: input.title,
            state,
            store: store.name,
            total,
            lines: input.lines.length,
            ...(ticket ? { ticket: ticket.ticketId } : {}),
          },
        });
      return prId;
    });
    announce(actor.tenantId, id, state, store.asset_id);
    return detail(actor, await visible(actor, id));
  }

  return {
    async list(actor: Actor, query: PrQuery) {
      need(actor, 'view');
      const scope = await inventory.storeScope(actor);
      const [rows, totals] = await Promise.all([
        repo.listRequests(db, actor.tenantId, scope, query, { offset: (query.page - 1) * query.limit, limit: query.limit }),
        repo.groupTotals(db, actor.tenantId, scope, query, 'state'),
      ]);
      const byState = new Map(totals.map((t) => [t.key, t]));
      return {
        contents: await toRequests(actor, rows),
        totalCount: totals.reduce((n, t) => n + t.count, 0),
        totals: PR_STATES.filter((s) => byState.has(s)).map((s) => ({
          state: s,
          count: byState.get(s)?.count ?? 0,
          total: byState.get(s)?.total ?? 0,
        })),
        grandTotal: money(totals.reduce((n, t) => n + t.total, 0)),
      };
    },

    /** The report's rows and totals per state or month (same filters as the list). */
    async report(actor: Actor, query: PrQuery & { groupBy: 'state' | 'month' }) {
      need(actor, 'view');
      const scope = await inventory.storeScope(actor);
      const [rows, groups] = await Promise.all([
        repo.listRequests(db, actor.tenantId, scope, query, { offset: (query.page - 1) * query.limit, limit: query.limit }),
        repo.groupTotals(db, actor.tenantId, scope, query, query.groupBy),
      ]);
      return { rows: await toRequests(actor, rows), groups, totalCount: groups.reduce((n, g) => n + g.count, 0) };
    },

    /** A page by keyset for exports. */
    async exportPage(actor: Actor, filter: Omit<PrQuery, 'page' | 'limit'>, before: number | undefined, limit: number) {
      need(actor, 'view');
      const scope = await inventory.storeScope(actor);
      return toRequests(actor, await repo.listRequests(db, actor.tenantId, scope, filter, { before, limit }));
    },

    async get(actor: Actor, id: number) {
      return detail(actor, await visible(actor, id));
    },

    async create(actor: Actor, input: PrInput, origin: AuditOrigin | null) {
      need(actor, 'add');
      return insert(actor, input, 'MANUAL', origin);
    },

    /** One click from low stock: every item of the store below its threshold, ordered up to twice the threshold. */
    async fromLowStock(actor: Actor, input: PrFromLowStock, origin: AuditOrigin | null) {
      need(actor, 'add');
      const store = await inventory.store(actor, input.storeId);
      const low = await inventory.lowInStore(actor.tenantId, store.id);
      if (low.length === 0) throw badRequest(PR_MESSAGES.nothingLow);
      const lines = low.map((l) => ({
        itemId: l.item_id,
        quantity: Math.max(1, l.low_threshold * 2 - l.on_hand),
        unitCost: money(l.unit_cost),
      }));
      return insert(
        actor,
        { title: `Restock ${store.name}`.slice(0, 200), storeId: store.id, ticketId: null, note: '', lines, submit: input.submit },
        'LOW_STOCK',
        origin,
      );
    },

    async update(actor: Actor, id: number, input: PrInput, origin: AuditOrigin | null) {
      need(actor, 'change');
      const current = await visible(actor, id);
      if (current.state !== 'DRAFT') throw conflict(PR_MESSAGES.onlyDraftEditable, 'not_draft');
      const store = await inventory.store(actor, input.storeId);
      const total = await checkLines(actor, input.lines);
      const now = deps.clock.now();
      await db.transaction().execute(async (trx) => {
        const row = await locked(trx, actor, id);
        if (row.state !== 'DRAFT') throw conflict(PR_MESSAGES.onlyDraftEditable, 'not_draft');
        await repo.updateRequest(trx, actor.tenantId, id, {
          title: input.title,
          store_id: store.id,
          asset_id: store.asset_id,
          note: input.note,
          total,
          updated_at: now,
          ...(input.submit ? { state: 'SUBMITTED', submitted_at: now } : {}),
        });
        await repo.replaceLines(trx, actor.tenantId, id, input.lines);
        if (origin)
          await writeActivity(trx, origin, {
            action: 'purchase-request.update',
            object: { type: 'purchase-request', id },
            before: { title: row.title, total: money(row.total), store: row.store_id },
            after: { title: input.title, total, store: store.id, ...(input.submit ? { state: 'SUBMITTED' } : {}) },
          });
      });
      announce(actor.tenantId, id, input.submit ? 'SUBMITTED' : 'DRAFT', store.asset_id);
      return detail(actor, await visible(actor, id));
    },

    async act(actor: Actor, id: number, input: PrActionInput, origin: AuditOrigin | null) {
      const { action } = input;
      need(actor, 'view');
      const first = await visible(actor, id);
      need(actor, PR_ACTION_PERMISSION[action]);
      const rule = PR_TRANSITIONS[action];
      if (!rule.from.includes(first.state)) throw conflict(PR_MESSAGES.notAllowed(PAST[action], first.state), 'bad_transition');
      if ((action === 'reject' || action === 'cancel') && input.reason.trim() === '') throw badRequest(PR_MESSAGES.reasonRequired);
      const now = deps.clock.now();
      const after: Array<() => void> = [];
      // A receipt is checked against the ledger's rules before the transaction, then written inside it.
      const receipts: Array<Awaited<ReturnType<InventoryPurchasing['prepareReceipt']>>> = [];
      if (action === 'receive') {
        const lines = await repo.linesOf(db, actor.tenantId, [id]);
        const items = new Map(
          (
            await inventory.items(
              actor.tenantId,
              lines.map((l) => l.item_id),
            )
          ).map((i) => [i.id, i]),
        );
        for (const line of lines) {
          const item = items.get(line.item_id);
          if (!item) throw notFound('Item not found.');
          const serials = input.serials[String(line.item_id)] ?? [];
          if (item.tracking === 'SERIAL' && serials.length !== line.quantity)
            throw badRequest(PR_MESSAGES.serialsNeeded(item.code, line.quantity));
          receipts.push(
            await inventory.prepareReceipt(actor, {
              kind: 'RECEIVE',
              itemId: line.item_id,
              storeId: first.store_id,
              ...(item.tracking === 'SERIAL' ? { serials } : { quantity: line.quantity }),
              note: `${prNumber(id)} ${first.title}`.slice(0, 500),
            }),
          );
        }
      }
      await db.transaction().execute(async (trx) => {
        const row = await locked(trx, actor, id);
        if (!rule.from.includes(row.state)) throw conflict(PR_MESSAGES.notAllowed(PAST[action], row.state), 'bad_transition');
        let movements = 0;
        if (action === 'receive') {
          for (const write of receipts) {
            const done = await write(trx, origin);
            movements += done.ids.length;
            after.push(done.announce);
          }
          const lines = await repo.linesOf(trx, actor.tenantId, [id]);
          await inventory.setUnitCosts(
            trx,
            actor.tenantId,
            lines.map((l) => ({ itemId: l.item_id, unitCost: money(l.unit_cost) })),
          );
        }
        const decided = action === 'approve' || action === 'reject';
        await repo.updateRequest(trx, actor.tenantId, id, {
          state: rule.to,
          updated_at: now,
          ...(action === 'submit' ? { submitted_at: now } : {}),
          ...(decided ? { decided_at: now, decided_by: actor.userId } : {}),
          ...(action === 'receive' ? { received_at: now } : {}),
          ...(input.reason ? { reason: input.reason } : {}),
        });
        if (row.ticket_id !== null && (action === 'approve' || action === 'reject' || action === 'receive'))
          await deps.tickets.addHistory(trx, {
            tenantId: actor.tenantId,
            ticketId: row.ticket_id,
            actorId: actor.userId,
            note: `Purchase request ${prNumber(id)} ${PAST[action]}${input.reason ? `: ${input.reason}` : ''}`,
          });
        if (origin)
          await writeActivity(trx, origin, {
            action: `purchase-request.${action}`,
            object: { type: 'purchase-request', id },
            before: { state: row.state },
            after: { state: rule.to, ...(input.reason ? { reason: input.reason } : {}), ...(movements ? { movements } : {}) },
          });
      });
      for (const fn of after) fn();
      announce(actor.tenantId, id, rule.to, first.asset_id);
      return { ...(await detail(actor, await visible(actor, id))), message: PR_MESSAGES.moved(PAST[action]) };
    },
  };
}
export type PurchaseRequestService = ReturnType<typeof createPurchaseRequestService>;
