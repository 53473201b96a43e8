import {
  type ConsumptionReportFilter,
  consumptionReportFilterSchema,
  MOVEMENT_LABELS,
  type MovementReportFilter,
  movementReportFilterSchema,
  PR_STATE_LABELS,
  type PrReportFilter,
  prReportFilterSchema,
  REPORT_KIND_LABELS,
  type ReportKind,
  type StockReportFilter,
  stockReportFilterSchema,
} from '@sitewatch/contracts';
import type { ExportScope, ExportSource } from '../downloads/index.ts';
import type { InventoryReports } from '../inventory/index.ts';
import type { PurchaseRequestService } from '../purchase-requests/index.ts';

/**
 * The registry of report kinds: each report is an export source of the downloads module (CSV, XLSX or PDF in the
 * background) with the filters of its screen, and any of them can be scheduled. A new report adds its source here.
 */
export interface ReportSources {
  sources: Record<ReportKind, ExportSource<Record<string, unknown>>>;
}

const actorOf = (scope: ExportScope) => ({ ...scope, permissions: new Set(scope.permissions) });
const PAGE = 1000;
const offsetOf = (cursor: string | null) => (cursor ? Number(cursor) : 0);
const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

export function createReportSources(deps: { inventory: InventoryReports; requests: PurchaseRequestService }): ReportSources {
  const { inventory, requests } = deps;
  const viewsInventory = (scope: ExportScope) => scope.permissions.includes('view_inventory');

  const stock: ExportSource<StockReportFilter> = {
    kind: 'inventory-stock',
    label: REPORT_KIND_LABELS['inventory-stock'],
    params: stockReportFilterSchema,
    columns: [
      { key: 'code', header: 'Code' },
      { key: 'name', header: 'Item' },
      { key: 'category', header: 'Category' },
      { key: 'storeName', header: 'Store' },
      { key: 'siteName', header: 'Site' },
      { key: 'onHand', header: 'On hand' },
      { key: 'unit', header: 'Unit' },
      { key: 'threshold', header: 'Low-stock threshold' },
      { key: 'low', header: 'Low' },
      { key: 'unitCost', header: 'Unit cost' },
      { key: 'value', header: 'Value' },
    ],
    allowed: viewsInventory,
    pageSize: PAGE,
    async count(scope, params) {
      return (await inventory.stock(actorOf(scope), params, { offset: 0, limit: 1 })).totalCount;
    },
    async fetchPage(scope, params, cursor, limit) {
      const offset = offsetOf(cursor);
      const page = await inventory.stock(actorOf(scope), params, { offset, limit });
      return {
        rows: page.contents.map((r) => ({ ...r, low: yesNo(r.low) })),
        nextCursor: page.contents.length === limit ? String(offset + limit) : null,
      };
    },
  };

  const movements: ExportSource<MovementReportFilter> = {
    kind: 'inventory-movements',
    label: REPORT_KIND_LABELS['inventory-movements'],
    params: movementReportFilterSchema,
    columns: [
      { key: 'createdAt', header: 'Date' },
      { key: 'kind', header: 'Type' },
      { key: 'itemCode', header: 'Code' },
      { key: 'itemName', header: 'Item' },
      { key: 'quantity', header: 'Quantity' },
      { key: 'fromStore', header: 'From store' },
      { key: 'toStore', header: 'To store' },
      { key: 'ticketId', header: 'Ticket' },
      { key: 'note', header: 'Note' },
    ],
    allowed: viewsInventory,
    pageSize: PAGE,
    async count(scope, params) {
      return (await inventory.movements(actorOf(scope), params, { offset: 0, limit: 1 })).totalCount;
    },
    async fetchPage(scope, params, cursor, limit) {
      const rows = await inventory.movementsAfter(actorOf(scope), params, cursor ? Number(cursor) : undefined, limit);
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => ({ ...r, kind: MOVEMENT_LABELS[r.kind] })),
        nextCursor: rows.length === limit && last ? String(last.id) : null,
      };
    },
  };

  const consumption: ExportSource<ConsumptionReportFilter> = {
    kind: 'inventory-consumption',
    label: REPORT_KIND_LABELS['inventory-consumption'],
    params: consumptionReportFilterSchema,
    columns: [
      { key: 'period', header: 'Period' },
      { key: 'siteName', header: 'Site' },
      { key: 'itemCode', header: 'Code' },
      { key: 'itemName', header: 'Item' },
      { key: 'unit', header: 'Unit' },
      { key: 'issued', header: 'Issued' },
      { key: 'returned', header: 'Returned' },
      { key: 'consumed', header: 'Consumed' },
      { key: 'value', header: 'Value' },
    ],
    allowed: viewsInventory,
    pageSize: PAGE,
    async fetchPage(scope, params, cursor, limit) {
      const offset = offsetOf(cursor);
      const page = await inventory.consumption(actorOf(scope), params, { offset, limit });
      return { rows: page.contents, nextCursor: page.contents.length === limit ? String(offset + limit) : null };
    },
  };

  const purchaseRequests: ExportSource<PrReportFilter> = {
    kind: 'purchase-requests',
    label: REPORT_KIND_LABELS['purchase-requests'],
    params: prReportFilterSchema,
    columns: [
      { key: 'number', header: 'Number' },
      { key: 'title', header: 'Title' },
      { key: 'state', header: 'State' },
      { key: 'source', header: 'Raised from' },
      { key: 'store', header: 'Store' },
      { key: 'site', header: 'Site' },
      { key: 'ticket', header: 'Ticket' },
      { key: 'requester', header: 'Requester' },
      { key: 'createdAt', header: 'Created' },
      { key: 'total', header: 'Total' },
    ],
    allowed: (scope) => scope.permissions.includes('view_purchaserequest'),
    pageSize: PAGE,
    async fetchPage(scope, params, cursor, limit) {
      const rows = await requests.exportPage(actorOf(scope), params, cursor ? Number(cursor) : undefined, limit);
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => ({
          number: r.number,
          title: r.title,
          state: PR_STATE_LABELS[r.state],
          source: r.source === 'LOW_STOCK' ? 'Low stock' : r.source === 'TICKET' ? 'Ticket' : 'Manual',
          store: r.store.name,
          site: r.site?.name ?? '',
          ticket: r.ticket?.ticketId ?? '',
          requester: r.requester?.name ?? '',
          createdAt: r.createdAt,
          total: r.total,
        })),
        nextCursor: rows.length === limit && last ? String(last.id) : null,
      };
    },
  };

  return {
    sources: {
      'inventory-stock': stock as unknown as ExportSource<Record<string, unknown>>,
      'inventory-movements': movements as unknown as ExportSource<Record<string, unknown>>,
      'inventory-consumption': consumption as unknown as ExportSource<Record<string, unknown>>,
      'purchase-requests': purchaseRequests as unknown as ExportSource<Record<string, unknown>>,
    },
  };
}
