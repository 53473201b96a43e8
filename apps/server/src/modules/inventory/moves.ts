import {
  INVENTORY_MESSAGES,
  type InventoryLowStockPayload,
  MOVEMENT_LABELS,
  type Movement,
  type MovementInput,
  type ReplacementInput,
} from '@sitewatch/contracts';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { DeviceRecords } from '../devices/index.ts';
import type { TicketLinks } from '../helpdesk/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { type Actor, isAdmin, need, type StoreAccess } from './access.ts';
import * as repo from './repository.ts';
import { toMovements } from './service.ts';

export interface MoveDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  directory: SiteDirectory;
  users: UserDirectory;
  tickets: TicketLinks;
  devices: Pick<DeviceRecords, 'device' | 'replaceHardware'>;
  access: StoreAccess;
}

const ACTIONS = {
  RECEIVE: 'inventory.receive',
  TRANSFER: 'inventory.transfer',
  ISSUE: 'inventory.issue',
  RETURN: 'inventory.return',
  WRITE_OFF: 'inventory.write-off',
} as const;

/** What one movement request does to one item, checked and written in one transaction. */
interface Plan {
  input: MovementInput;
  item: repo.ItemRow;
  from: repo.StoreRow | null;
  to: repo.StoreRow | null;
  ticket: { id: number; ticketId: string } | null;
  deviceId: number | null;
}

interface Done {
  ids: number[];
  /** The rows written, as the movements list reads them (newest first). */
  rows: repo.MovementRow[];
  /** On hand in the source store before and after (a low-stock crossing is told once, here). */
  source: { store: repo.StoreRow; before: number; after: number } | null;
}

/** The stock ledger: receipts, transfers, issues to tickets, returns, write-offs and device replacements. */
export function createMoveService(deps: MoveDeps) {
  const { db, access } = deps;

  /** Checks the request against the item's tracking and the kind; returns the stores it takes from and puts into. */
  async function plan(actor: Actor, input: MovementInput): Promise<Plan> {
    need(actor, input.kind === 'RECEIVE' ? 'add' : input.kind === 'WRITE_OFF' ? 'delete' : 'change');
    const scope = await access.scopeOf(actor);
    const item = await repo.findItem(db, actor.tenantId, input.itemId);
    if (!item) throw notFound('Item not found.');
    const store = await access.visibleStore(actor, input.storeId, scope);
    if (item.tracking === 'SERIAL') {
      if (input.quantity !== undefined) throw badRequest(INVENTORY_MESSAGES.quantityForSerials);
      if (!input.serials || input.serials.length === 0) throw badRequest(INVENTORY_MESSAGES.serialsRequired);
      const unique = new Set(input.serials.map((s) => s.toUpperCase()));
      if (unique.size !== input.serials.length) throw badRequest('Name each serial number once');
    } else if (input.quantity === undefined) throw badRequest(INVENTORY_MESSAGES.quantityRequired);
    else if (input.serials && input.serials.length > 0) throw badRequest('A quantity-tracked item has no serial numbers');
    let ticket: Plan['ticket'] = null;
    if (input.kind === 'ISSUE' || input.kind === 'RETURN') {
      if (input.ticketId === undefined) throw badRequest(INVENTORY_MESSAGES.ticketRequired);
      const found = await deps.tickets.visible(actor, input.ticketId);
      if (!found) throw notFound('Ticket not found.');
      ticket = { id: found.id, ticketId: found.ticketId };
    }
    if (input.kind === 'WRITE_OFF' && input.note.trim() === '') throw badRequest(INVENTORY_MESSAGES.noteRequired);
    let from: repo.StoreRow | null = null;
    let to: repo.StoreRow | null = null;
    if (input.kind === 'RECEIVE' || input.kind === 'RETURN') to = store;
    else from = store;
    if (input.kind === 'TRANSFER') {
      if (input.toStoreId === undefined) throw badRequest('Choose the store to transfer to');
      if (input.toStoreId === input.storeId) throw badRequest(INVENTORY_MESSAGES.sameStore);
      to = await access.visibleStore(actor, input.toStoreId, scope);
    }
    return { input, item, from, to, ticket, deviceId: null };
  }

  /**
   * Writes the planned movement in `trx`: locks the balance rows (what the source store holds is read there),
   * checks, appends to the ledger and adds the movement to the derived rows.
   */
  async function apply(trx: Db, actor: Actor, p: Plan, origin: AuditOrigin | null): Promise<Done> {
    const { tenantId } = actor;
    const { input, item, from, to, ticket } = p;
    const stores = [from?.id, to?.id].filter((id): id is number => id !== undefined);
    const onHand = await repo.lockBalances(trx, tenantId, item.id, stores);
    const before = from ? (onHand.get(from.id) ?? 0) : 0;
    const now = deps.clock.now();
    const base = {
      kind: input.kind,
      item_id: item.id,
      from_store_id: from?.id ?? null,
      to_store_id: to?.id ?? null,
      ticket_id: ticket?.id ?? null,
      device_id: p.deviceId,
      note: input.note,
      actor_id: actor.userId,
      created_at: now,
      performed_at: origin?.performedAt ?? null,
    };
    let rows: repo.NewMovement[];
    let units: number;
    let serialIds: number[] = [];
    let serialNames = new Map<number, string>();
    if (item.tracking === 'SERIAL') {
      const names = input.serials ?? [];
      let serials = await repo.lockSerials(trx, tenantId, item.id, names);
      const byName = new Map(serials.map((s) => [s.serial.toUpperCase(), s]));
      const state = await repo.ledgerSerialState(
        trx,
        tenantId,
        serials.map((s) => s.id),
      );
      if (input.kind === 'RECEIVE') {
        for (const s of serials) {
          if (state.get(s.id)?.to_store_id) throw conflict(INVENTORY_MESSAGES.serialExists(s.serial), 'serial_exists');
        }
        const fresh = names.filter((n) => !byName.has(n.toUpperCase()));
        if (fresh.length > 0) serials = [...serials, ...(await repo.insertSerials(trx, tenantId, item.id, fresh))];
      } else {
        for (const name of names) {
          const s = byName.get(name.toUpperCase());
          const last = s ? state.get(s.id) : undefined;
          if (input.kind === 'RETURN') {
            if (!s || last?.kind !== 'ISSUE' || last.ticket_id !== ticket?.id)
              throw conflict(INVENTORY_MESSAGES.serialNotIssued(name), 'serial_not_issued');
          } else if (!s || !last || last.to_store_id !== from?.id) {
            throw conflict(INVENTORY_MESSAGES.serialNotInStore(name, from?.name ?? ''), 'serial_not_in_store');
          }
        }
      }
      serialIds = serials.map((s) => s.id);
      serialNames = new Map(serials.map((s) => [s.id, s.serial]));
      rows = serials.map((s) => ({ ...base, quantity: 1, serial_id: s.id }));
      units = serials.length;
    } else {
      units = input.quantity ?? 0;
      if (input.kind === 'RETURN' && ticket) {
        const open = await repo.issuedToTicket(trx, tenantId, item.id, ticket.id);
        if (units > open) throw conflict(INVENTORY_MESSAGES.notReturnable(Math.max(open, 0)), 'not_returnable');
      }
      rows = [{ ...base, quantity: units, serial_id: null }];
    }
    if (from && before < units) throw conflict(INVENTORY_MESSAGES.notEnough(before, item.unit, from.name), 'not_enough_stock');
    const inserted = await repo.insertMovements(trx, tenantId, rows);
    const changes = new Map<number, number>();
    if (from) changes.set(from.id, -units);
    if (to) changes.set(to.id, (changes.get(to.id) ?? 0) + units);
    await repo.addToBalances(trx, tenantId, item.id, changes);
    if (serialIds.length > 0) {
      const status = input.kind === 'ISSUE' ? 'ISSUED' : input.kind === 'WRITE_OFF' ? 'WRITTEN_OFF' : 'IN_STORE';
      await repo.setSerialState(trx, tenantId, serialIds, {
        store_id: to?.id ?? null,
        status,
        ticket_id: status === 'ISSUED' ? (ticket?.id ?? null) : null,
      });
    }
    if (ticket) {
      const what = `${units} ${item.unit} ${item.name} (${item.code})${input.serials?.length ? `, serial ${input.serials.join(', ')}` : ''}`;
      const line = input.kind === 'ISSUE' ? `Issued ${what} from ${from?.name}` : `Returned ${what} to ${to?.name}`;
      await deps.tickets.addHistory(trx, {
        tenantId,
        ticketId: ticket.id,
        actorId: actor.userId,
        note: input.note ? `${line}: ${input.note}` : line,
      });
    }
    if (origin) {
      await writeActivity(trx, origin, {
        action: ACTIONS[input.kind],
        object: { type: 'inventory-item', id: item.id },
        after: {
          kind: input.kind,
          quantity: units,
          ...(input.serials?.length ? { serials: input.serials } : {}),
          ...(from ? { fromStore: from.name } : {}),
          ...(to ? { toStore: to.name } : {}),
          ...(ticket ? { ticket: ticket.ticketId } : {}),
          ...(input.note ? { note: input.note } : {}),
        },
      });
    }
    const written: repo.MovementRow[] = inserted.map(({ id, serialId }) => ({
      id: String(id),
      kind: input.kind,
      item_id: item.id,
      item_code: item.code,
      item_name: item.name,
      quantity: serialId === null ? units : 1,
      from_store_id: from?.id ?? null,
      from_name: from?.name ?? null,
      to_store_id: to?.id ?? null,
      to_name: to?.name ?? null,
      serial: serialId === null ? null : (serialNames.get(serialId) ?? null),
      ticket_id: ticket?.id ?? null,
      note: input.note,
      actor_id: actor.userId,
      created_at: now,
      performed_at: base.performed_at,
    }));
    written.sort((a, b) => Number(b.id) - Number(a.id));
    return { ids: inserted.map((r) => r.id), rows: written, source: from ? { store: from, before, after: before - units } : null };
  }

  /** After the commit: screens refresh, and the store's managers hear once when the item falls below its threshold. */
  function announce(tenantId: number, p: Plan, done: Done) {
    for (const store of [p.from, p.to]) {
      if (store)
        deps.events.emit({
          type: 'inventory.moved',
          tenantId,
          payload: { itemIds: [p.item.id], storeId: store.id, assetId: store.asset_id },
        });
    }
    const s = done.source;
    const threshold = p.item.low_threshold;
    if (s && threshold > 0 && s.before >= threshold && s.after < threshold && s.store.manager_ids.length > 0) {
      const payload: InventoryLowStockPayload = {
        itemId: p.item.id,
        code: p.item.code,
        name: p.item.name,
        storeId: s.store.id,
        storeName: s.store.name,
        assetId: s.store.asset_id,
        onHand: s.after,
        threshold,
      };
      deps.events.emit({ type: 'inventory.low-stock', tenantId, userIds: s.store.manager_ids, payload });
    }
  }

  /** The movements written, as the movements list shows them (no read of the ledger after the commit). */
  const movementsOf = (actor: Actor, done: Done): Promise<Movement[]> => toMovements(deps.users, actor.tenantId, done.rows);

  return {
    async move(actor: Actor, input: MovementInput, origin: AuditOrigin | null) {
      const p = await plan(actor, input);
      const done = await db
        .transaction()
        .execute((trx) => apply(trx, actor, p, origin))
        .catch((error: unknown) => {
          // Two receipts of the same new serial at once: the second meets the first's row.
          if ((error as { code?: string } | null)?.code === '23505')
            throw conflict(INVENTORY_MESSAGES.serialExists(input.serials?.join(', ') ?? ''), 'serial_exists');
          throw error;
        });
      announce(actor.tenantId, p, done);
      return { movements: await movementsOf(actor, done), message: `${MOVEMENT_LABELS[input.kind]}: ${INVENTORY_MESSAGES.moved}` };
    },

    /**
     * A movement checked now and written later in the caller's transaction (a purchase request's receipt), so that
     * no read runs outside the transaction while it holds the connection; `announce` once it committed.
     */
    async prepare(actor: Actor, input: MovementInput) {
      const p = await plan(actor, input);
      return async (trx: Db, origin: AuditOrigin | null) => {
        const done = await apply(trx, actor, p, origin);
        return { ids: done.ids, announce: () => announce(actor.tenantId, p, done) };
      };
    },

    /**
     * Replaces a faulty device from a ticket: the serial spare is issued to the ticket and the device takes its
     * serial number, make and model, in one transaction with the ticket's history line and the activity entries.
     */
    async replace(actor: Actor, input: ReplacementInput, origin: AuditOrigin | null) {
      need(actor, 'change');
      const device = await deps.devices.device(actor.tenantId, input.deviceId);
      const sites = isAdmin(actor) ? 'all' : await deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
      if (!device || (sites !== 'all' && (device.assetId === null || !sites.includes(device.assetId)))) throw notFound('Device not found.');
      const p = await plan(actor, {
        kind: 'ISSUE',
        itemId: input.itemId,
        storeId: input.storeId,
        ticketId: input.ticketId,
        serials: [input.serial],
        note: input.note || `Replaced ${device.label}`,
      });
      if (p.item.tracking !== 'SERIAL') throw badRequest(INVENTORY_MESSAGES.deviceSerialItem);
      p.deviceId = device.id;
      const hardware = { serialNumber: input.serial, vendor: p.item.make, model: p.item.model };
      const done = await db.transaction().execute(async (trx) => {
        const result = await apply(trx, actor, p, origin);
        const previous = await deps.devices.replaceHardware(trx, actor.tenantId, device.id, hardware);
        if (!previous) throw notFound('Device not found.');
        if (origin) {
          await writeActivity(trx, origin, {
            action: 'inventory.replace-device',
            object: { type: 'device', id: device.id },
            before: previous,
            after: { ...hardware, item: p.item.code, ticket: p.ticket?.ticketId },
          });
        }
        return result;
      });
      announce(actor.tenantId, p, done);
      deps.events.emit({ type: 'device.changed', tenantId: actor.tenantId, payload: { deviceIds: [device.id] } });
      const [movement] = await movementsOf(actor, done);
      return { movement: movement as Movement, device: { id: device.id, ...hardware }, message: 'Device replaced' };
    },
  };
}
export type MoveService = ReturnType<typeof createMoveService>;
