import {
  INVENTORY_MESSAGES,
  type Item,
  type ItemDetail,
  type ItemInput,
  type ItemUpdate,
  type Movement,
  type MovementKind,
  type StockQuery,
  type Store,
  type StoreInput,
} from '@sitewatch/contracts';
import { type AuditOrigin, changedFields, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { type UserDirectory, usersById } from '../users/directory.ts';
import { type Actor, can, isAdmin, need, type StoreAccess } from './access.ts';
import * as repo from './repository.ts';

export interface CatalogDeps {
  db: Db;
  directory: SiteDirectory;
  users: UserDirectory;
  access: StoreAccess;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';
/** A concurrent save that took the same name or code first answers like the check before it. */
const unique = <T>(work: Promise<T>, message: string, code: string) =>
  work.catch((error: unknown) => {
    throw isUniqueViolation(error) ? conflict(message, code) : error;
  });

const nameOf = (u: { firstname: string; lastname: string; username?: string } | undefined) =>
  u ? `${u.firstname} ${u.lastname}`.trim() || (u.username ?? '') : '';

export function toItem(row: repo.ItemRow, onHand: number): Item {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    category: row.category,
    make: row.make,
    model: row.model,
    unit: row.unit,
    tracking: row.tracking,
    lowStockThreshold: row.low_threshold,
    onHand,
  };
}

const itemSnapshot = (row: repo.ItemRow) => ({ ...toItem(row, 0), onHand: undefined });

/** Movements as the API shows them, with the actors' names in one lookup. */
export async function toMovements(users: UserDirectory, tenantId: number, rows: repo.MovementRow[]): Promise<Movement[]> {
  const names = await usersById(
    users,
    tenantId,
    rows.map((r) => r.actor_id),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind as MovementKind,
    itemId: r.item_id,
    itemCode: r.item_code,
    itemName: r.item_name,
    quantity: r.quantity,
    fromStore: r.from_store_id !== null ? { id: r.from_store_id, name: r.from_name ?? '' } : null,
    toStore: r.to_store_id !== null ? { id: r.to_store_id, name: r.to_name ?? '' } : null,
    serial: r.serial ?? null,
    ticketId: r.ticket_id,
    note: r.note,
    actor: r.actor_id !== null ? { id: r.actor_id, name: nameOf(names.get(r.actor_id)) } : null,
    createdAt: new Date(r.created_at).toISOString(),
    performedAt: r.performed_at ? new Date(r.performed_at).toISOString() : null,
  }));
}

/** Stores, items and what is on hand: the inventory's lists and records. */
export function createCatalogService(deps: CatalogDeps) {
  const { db, access } = deps;

  async function toStores(actor: Actor, rows: repo.StoreRow[]): Promise<Store[]> {
    const [names, low, sites] = await Promise.all([
      usersById(
        deps.users,
        actor.tenantId,
        rows.flatMap((r) => r.manager_ids),
      ),
      repo.lowCounts(
        db,
        actor.tenantId,
        rows.map((r) => r.id),
      ),
      Promise.all(
        [...new Set(rows.map((r) => r.asset_id).filter((id): id is number => id !== null))].map(
          async (id) => [id, (await deps.directory.asset(actor.tenantId, id))?.name ?? null] as const,
        ),
      ),
    ]);
    const siteNames = new Map(sites);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      assetId: r.asset_id,
      siteName: r.asset_id === null ? null : (siteNames.get(r.asset_id) ?? null),
      managers: r.manager_ids.filter((id) => names.has(id)).map((id) => ({ id, name: nameOf(names.get(id)) })),
      lowCount: low.get(r.id) ?? 0,
      managed: r.manager_ids.includes(actor.userId),
    }));
  }

  /** Managers must be active users of the tenant with the store manager role. */
  async function checkManagers(actor: Actor, ids: number[]) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return unique;
    const found = await deps.users.byIds(actor.tenantId, unique);
    const ok = found.filter((u) => u.isActive && u.roles.includes('storemanager'));
    if (ok.length !== unique.length) throw badRequest(INVENTORY_MESSAGES.managerRole);
    return unique;
  }

  async function storeValues(actor: Actor, input: StoreInput, exceptId?: number) {
    await access.checkSite(actor, input.assetId);
    const managerIds = await checkManagers(actor, input.managerIds);
    if (await repo.storeNameTaken(db, actor.tenantId, input.name, exceptId)) throw conflict(INVENTORY_MESSAGES.storeExists, 'store_exists');
    return { name: input.name, assetId: input.assetId, managerIds };
  }

  const storeSnapshot = (r: repo.StoreRow) => ({ name: r.name, assetId: r.asset_id, managerIds: r.manager_ids });

  return {
    async listStores(actor: Actor, query: { search?: string; page: number; limit: number }) {
      need(actor, 'view');
      const scope = await access.scopeOf(actor);
      const [rows, total] = await repo.listStores(db, actor.tenantId, scope, {
        search: query.search,
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
      return { contents: await toStores(actor, rows), totalCount: total };
    },
    async getStore(actor: Actor, id: number) {
      need(actor, 'view');
      const [store] = await toStores(actor, [await access.visibleStore(actor, id)]);
      return store as Store;
    },
    async createStore(actor: Actor, input: StoreInput, origin: AuditOrigin) {
      need(actor, 'add');
      const values = await storeValues(actor, input);
      const row = await db.transaction().execute(async (trx) => {
        const created = await unique(repo.insertStore(trx, actor.tenantId, values), INVENTORY_MESSAGES.storeExists, 'store_exists');
        await writeActivity(trx, origin, {
          action: 'inventory-store.create',
          object: { type: 'inventory-store', id: created.id },
          after: values,
        });
        return created;
      });
      const [store] = await toStores(actor, [row]);
      return store as Store;
    },
    async updateStore(actor: Actor, id: number, input: StoreInput, origin: AuditOrigin) {
      need(actor, 'change');
      const before = await access.visibleStore(actor, id);
      const values = await storeValues(actor, input, id);
      const row = await db.transaction().execute(async (trx) => {
        const updated = await unique(repo.updateStore(trx, actor.tenantId, id, values), INVENTORY_MESSAGES.storeExists, 'store_exists');
        if (!updated) throw notFound('Store not found.');
        const diff = changedFields(storeSnapshot(before), values);
        await writeActivity(trx, origin, { action: 'inventory-store.update', object: { type: 'inventory-store', id }, ...diff });
        return updated;
      });
      const [store] = await toStores(actor, [row]);
      return store as Store;
    },
    async deleteStore(actor: Actor, id: number, origin: AuditOrigin) {
      need(actor, 'delete');
      const before = await access.visibleStore(actor, id);
      await db.transaction().execute(async (trx) => {
        if (await repo.storeHasMovements(trx, actor.tenantId, id)) throw conflict(INVENTORY_MESSAGES.storeInUse, 'store_in_use');
        await repo.deleteStore(trx, actor.tenantId, id);
        await writeActivity(trx, origin, {
          action: 'inventory-store.delete',
          object: { type: 'inventory-store', id },
          before: storeSnapshot(before),
        });
      });
    },
    async storeManagers(actor: Actor) {
      need(actor, 'view');
      const users = await deps.users.withRoles(actor.tenantId, ['storemanager']);
      return { contents: users.map((u) => ({ id: u.id, name: nameOf(u) || u.email })) };
    },

    async listItems(actor: Actor, query: { search?: string; code?: string; category?: string; page: number; limit: number }) {
      need(actor, 'view');
      const [rows, total] = await repo.listItems(db, actor.tenantId, { ...query, offset: (query.page - 1) * query.limit });
      const scope = await access.scopeOf(actor);
      const totals = await repo.totalsOf(
        db,
        actor.tenantId,
        rows.map((r) => r.id),
        scope,
      );
      return { contents: rows.map((r) => toItem(r, totals.get(r.id) ?? 0)), totalCount: total };
    },
    async getItem(actor: Actor, id: number): Promise<ItemDetail> {
      need(actor, 'view');
      const row = await repo.findItem(db, actor.tenantId, id);
      if (!row) throw notFound('Item not found.');
      const scope = await access.scopeOf(actor);
      const [stock, serials] = await Promise.all([
        repo.stockOfItem(db, actor.tenantId, id, scope),
        repo.serialsOfItem(db, actor.tenantId, id),
      ]);
      const visible = (storeId: number | null) => storeId === null || scope === 'all' || scope.includes(storeId);
      const onHand = stock.reduce((sum, s) => sum + s.on_hand, 0);
      return {
        item: toItem(row, onHand),
        stock: stock.map((s) => ({ storeId: s.store_id, storeName: s.store_name, onHand: s.on_hand, low: s.on_hand < row.low_threshold })),
        serials: serials
          .filter((s) => visible(s.store_id))
          .map((s) => ({
            id: s.id,
            serial: s.serial,
            storeId: s.store_id,
            storeName: s.store_name ?? null,
            status: s.status as 'IN_STORE' | 'ISSUED' | 'WRITTEN_OFF',
            ticketId: s.ticket_id,
          })),
        can: { change: can(actor, 'change'), delete: can(actor, 'delete'), move: can(actor, 'change') || can(actor, 'add') },
      };
    },
    async createItem(actor: Actor, input: ItemInput, origin: AuditOrigin) {
      need(actor, 'add');
      if (await repo.codeTaken(db, actor.tenantId, input.code)) throw conflict(INVENTORY_MESSAGES.codeExists, 'code_exists');
      const row = await db.transaction().execute(async (trx) => {
        const created = await unique(repo.insertItem(trx, actor.tenantId, input), INVENTORY_MESSAGES.codeExists, 'code_exists');
        await writeActivity(trx, origin, {
          action: 'inventory-item.create',
          object: { type: 'inventory-item', id: created.id },
          after: input,
        });
        return created;
      });
      return toItem(row, 0);
    },
    async updateItem(actor: Actor, id: number, input: ItemUpdate, origin: AuditOrigin) {
      need(actor, 'change');
      const before = await repo.findItem(db, actor.tenantId, id);
      if (!before) throw notFound('Item not found.');
      if (await repo.codeTaken(db, actor.tenantId, input.code, id)) throw conflict(INVENTORY_MESSAGES.codeExists, 'code_exists');
      const row = await db.transaction().execute(async (trx) => {
        const updated = await unique(repo.updateItem(trx, actor.tenantId, id, input), INVENTORY_MESSAGES.codeExists, 'code_exists');
        if (!updated) throw notFound('Item not found.');
        const diff = changedFields(itemSnapshot(before), itemSnapshot(updated));
        await writeActivity(trx, origin, { action: 'inventory-item.update', object: { type: 'inventory-item', id }, ...diff });
        return updated;
      });
      const scope = await access.scopeOf(actor);
      const totals = await repo.totalsOf(db, actor.tenantId, [id], scope);
      return toItem(row, totals.get(id) ?? 0);
    },
    async deleteItem(actor: Actor, id: number, origin: AuditOrigin) {
      need(actor, 'delete');
      const before = await repo.findItem(db, actor.tenantId, id);
      if (!before) throw notFound('Item not found.');
      await db.transaction().execute(async (trx) => {
        if (await repo.itemHasMovements(trx, actor.tenantId, id)) throw conflict(INVENTORY_MESSAGES.itemInUse, 'item_in_use');
        await repo.deleteItem(trx, actor.tenantId, id);
        await writeActivity(trx, origin, {
          action: 'inventory-item.delete',
          object: { type: 'inventory-item', id },
          before: itemSnapshot(before),
        });
      });
    },
    async categories(actor: Actor) {
      need(actor, 'view');
      return { contents: await repo.categories(db, actor.tenantId) };
    },

    async stock(actor: Actor, query: StockQuery) {
      need(actor, 'view');
      const scope = await access.scopeOf(actor);
      let storeIds: repo.StoreScope = scope;
      if (query.storeId !== undefined) {
        await access.visibleStore(actor, query.storeId, scope);
        storeIds = [query.storeId];
      }
      const [rows, total] = await repo.listStock(
        db,
        actor.tenantId,
        { storeIds, search: query.search, category: query.category, tracking: query.tracking, low: query.low === 'true' },
        { offset: (query.page - 1) * query.limit, limit: query.limit },
      );
      return {
        contents: rows.map((r) => ({
          itemId: r.item_id,
          code: r.code,
          name: r.name,
          category: r.category,
          unit: r.unit,
          tracking: r.tracking,
          lowStockThreshold: r.low_threshold,
          storeId: r.store_id,
          storeName: r.store_name,
          onHand: r.on_hand,
          low: r.on_hand < r.low_threshold,
        })),
        totalCount: total,
      };
    },

    async movements(
      actor: Actor,
      query: { itemId?: number; storeId?: number; ticketId?: number; kind?: MovementKind; page: number; limit: number },
    ) {
      need(actor, 'view');
      const scope = await access.scopeOf(actor);
      if (query.storeId !== undefined) await access.visibleStore(actor, query.storeId, scope);
      const [rows, total] = await repo.listMovements(
        db,
        actor.tenantId,
        { scope, itemId: query.itemId, storeId: query.storeId, ticketId: query.ticketId, kind: query.kind },
        { offset: (query.page - 1) * query.limit, limit: query.limit },
      );
      return { contents: await toMovements(deps.users, actor.tenantId, rows), totalCount: total };
    },
    isAdmin,
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
