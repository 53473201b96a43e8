import type {
  ConsumptionReportFilter,
  ConsumptionReportRow,
  MovementInput,
  MovementReportFilter,
  MovementReportRow,
  StockReportFilter,
  StockReportRow,
} from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { type Actor, need, type StoreAccess } from './access.ts';
import type { MoveService } from './moves.ts';
import * as rr from './report-repository.ts';
import type { StoreScope } from './repository.ts';

const money = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;
const iso = (d: Date | string) => new Date(d).toISOString();
const NO_SITE = 'No site';

/** Site names of a page, one lookup per distinct site. */
async function siteNames(directory: SiteDirectory, tenantId: number, ids: Array<number | null>) {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  const found = await Promise.all(unique.map(async (id) => [id, (await directory.asset(tenantId, id))?.name ?? null] as const));
  return new Map(found);
}

/**
 * /inventory-report: stock on hand with its value, the ledger by date, and consumption per site, each over the
 * stores the caller sees (the same scope as /inventory-management). The export sources read the same pages.
 */
export function createInventoryReports(deps: { db: Db; directory: SiteDirectory; access: StoreAccess; moves: MoveService }) {
  const { db, directory, access } = deps;

  async function scopeFor(actor: Actor): Promise<StoreScope> {
    need(actor, 'view');
    return access.scopeOf(actor);
  }

  async function stock(actor: Actor, f: StockReportFilter, page: { offset: number; limit: number }) {
    const scope = await scopeFor(actor);
    const r = await rr.stockReport(db, actor.tenantId, scope, f, page);
    const names = await siteNames(
      directory,
      actor.tenantId,
      r.rows.map((x) => x.asset_id),
    );
    const contents: StockReportRow[] = r.rows.map((x) => ({
      itemId: x.item_id,
      code: x.code,
      name: x.name,
      category: x.category,
      unit: x.unit,
      storeId: x.store_id,
      storeName: x.store_name,
      siteName: x.asset_id === null ? null : (names.get(x.asset_id) ?? null),
      onHand: x.on_hand,
      threshold: x.low_threshold,
      low: x.low_threshold > 0 && x.on_hand < x.low_threshold,
      unitCost: money(x.unit_cost),
      value: money(Number(x.unit_cost) * x.on_hand),
    }));
    return { contents, totalCount: r.totalCount, totals: r.totals };
  }

  const toMovement = (x: rr.MovementReportRowDb): MovementReportRow => ({
    id: Number(x.id),
    createdAt: iso(x.created_at),
    kind: x.kind,
    itemCode: x.code,
    itemName: x.name,
    quantity: x.quantity,
    fromStore: x.from_name,
    toStore: x.to_name,
    ticketId: x.ticket_id,
    note: x.note,
  });

  async function movements(actor: Actor, f: MovementReportFilter, page: { offset: number; limit: number }) {
    const scope = await scopeFor(actor);
    const [rows, totals] = await Promise.all([
      rr.movementPage(db, actor.tenantId, scope, f, page),
      rr.movementTotals(db, actor.tenantId, scope, f),
    ]);
    return { contents: rows.map(toMovement), totalCount: totals.reduce((n, t) => n + t.count, 0), totals };
  }

  /** A page of the ledger by keyset, for exports of any size. */
  async function movementsAfter(actor: Actor, f: MovementReportFilter, before: number | undefined, limit: number) {
    const scope = await scopeFor(actor);
    const rows = await rr.movementPage(db, actor.tenantId, scope, f, { before, limit });
    return rows.map(toMovement);
  }

  async function consumption(actor: Actor, f: ConsumptionReportFilter, page: { offset: number; limit: number }) {
    const scope = await scopeFor(actor);
    const r = await rr.consumptionReport(db, actor.tenantId, scope, f, page);
    const names = await siteNames(
      directory,
      actor.tenantId,
      r.rows.map((x) => x.asset_id),
    );
    const contents: ConsumptionReportRow[] = r.rows.map((x) => {
      const issued = Number(x.issued);
      const returned = Number(x.returned);
      return {
        period: iso(x.period).slice(0, f.period === 'month' ? 7 : 10),
        assetId: x.asset_id,
        siteName: x.asset_id === null ? NO_SITE : (names.get(x.asset_id) ?? NO_SITE),
        itemCode: x.code,
        itemName: x.name,
        unit: x.unit,
        issued,
        returned,
        consumed: issued - returned,
        value: money((issued - returned) * Number(x.unit_cost)),
      };
    });
    return { contents, totalCount: r.totalCount, totals: r.totals };
  }

  return { stock, movements, movementsAfter, consumption };
}
export type InventoryReports = ReturnType<typeof createInventoryReports>;

/**
 * What purchase requests ask of the inventory: the stores a caller sees, items, what is low in a store, and the
 * receipt of a request's lines into the ledger inside the request's own transaction.
 */
export function createPurchasing(deps: { db: Db; access: StoreAccess; moves: MoveService }) {
  const { db, access } = deps;
  return {
    /** Store ids the actor sees ('all' for admins). */
    storeScope: (actor: Actor) => access.scopeOf(actor),
    /** A store the actor sees, or 404 ('Store not found.'). */
    store: (actor: Actor, storeId: number) => access.visibleStore(actor, storeId),
    items: (tenantId: number, ids: number[]) => rr.itemsByIds(db, tenantId, ids),
    storeNames: async (tenantId: number, ids: number[]) =>
      new Map((await rr.storesByIds(db, tenantId, [...new Set(ids)])).map((s) => [s.id, s.name] as const)),
    lowInStore: (tenantId: number, storeId: number) => rr.lowInStore(db, tenantId, storeId),
    /** Checks a receipt now; the function it returns writes it in a transaction (then call `announce`). */
    prepareReceipt: (actor: Actor, input: MovementInput) => deps.moves.prepare(actor, input),
    setUnitCosts: (trx: Db, tenantId: number, costs: Array<{ itemId: number; unitCost: number }>) => rr.setUnitCosts(trx, tenantId, costs),
  };
}
export type InventoryPurchasing = ReturnType<typeof createPurchasing>;
