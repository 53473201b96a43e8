import {
  consumptionReportFilterSchema,
  MOVEMENT_LABELS,
  movementReportFilterSchema,
  PR_STATE_LABELS,
  prReportFilterSchema,
  REPORT_KIND_LABELS,
  type ReportKind,
  stockReportFilterSchema,
} from '@sitewatch/contracts';
import type { ZodType } from 'zod';
import type { ExportColumnType, ExportScope, ExportSource } from '../downloads/index.ts';
import type { InventoryReports } from '../inventory/index.ts';
import type { PurchaseRequestService } from '../purchase-requests/index.ts';

/**
 * The registry of report kinds: each report is an export source of the downloads module (CSV, XLSX or PDF in the
 * background) with the filters of its screen, and any of them can be scheduled. A new report adds its source here.
 */
export interface ReportSources {
  sources: Record<ReportKind, ExportSource<Record<string, unknown>>>;
}

const PAGE = 1000;
const actorOf = (scope: ExportScope) => ({ ...scope, permissions: new Set(scope.permissions) });
type Actor = ReturnType<typeof actorOf>;
type Row = Record<string, unknown>;
const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

/**
 * One report as an export source: its filters, its columns (key and header, in file order), the permission that
 * shows it, and how a page of rows is read. Pages are read either by offset (reports grouped or sorted on computed
 * values) or after the last row's id (ledgers that grow while they are exported); `row` turns a stored row into the
 * cells of the file.
 */
function reportSource<P, R extends Row>(
  kind: ReportKind,
  spec: {
    params: ZodType<P>;
    columns: ReadonlyArray<readonly [key: string, header: string, type: ExportColumnType]>;
    permission: string;
    count?(actor: Actor, params: P): Promise<number>;
    paging: 'offset' | 'id';
    page(actor: Actor, params: P, cursor: number | undefined, limit: number): Promise<R[]>;
    row?(row: R): Row;
  },
): ExportSource<Row> {
  const { count, page, row = (r: R) => r } = spec;
  const source: ExportSource<P> = {
    kind,
    label: REPORT_KIND_LABELS[kind],
    params: spec.params,
    columns: spec.columns.map(([key, header, type]) => ({ key, header, type })),
    allowed: (scope) => scope.permissions.includes(spec.permission),
    pageSize: PAGE,
    count: count && ((scope, params) => count(actorOf(scope), params)),
    async fetchPage(scope, params, cursor, limit) {
      const at = cursor ? Number(cursor) : undefined;
      const rows = await page(actorOf(scope), params, at, limit);
      const last = rows.at(-1);
      const next = spec.paging === 'offset' ? (at ?? 0) + limit : Number(last?.id);
      return { rows: rows.map(row), nextCursor: rows.length === limit && last ? String(next) : null };
    },
  };
  return source as unknown as ExportSource<Row>;
}

export function createReportSources(deps: { inventory: InventoryReports; requests: PurchaseRequestService }): ReportSources {
  const { inventory, requests } = deps;
  return {
    sources: {
      'inventory-stock': reportSource('inventory-stock', {
        params: stockReportFilterSchema,
        columns: [
          ['code', 'Code', 'text'],
          ['name', 'Item', 'text'],
          ['category', 'Category', 'text'],
          ['storeName', 'Store', 'text'],
          ['siteName', 'Site', 'text'],
          ['onHand', 'On hand', 'integer'],
          ['unit', 'Unit', 'text'],
          ['threshold', 'Low-stock threshold', 'integer'],
          ['low', 'Low', 'boolean'],
          ['unitCost', 'Unit cost', 'decimal'],
          ['value', 'Value', 'decimal'],
        ],
        permission: 'view_inventory',
        count: async (actor, params) => (await inventory.stock(actor, params, { offset: 0, limit: 1 })).totalCount,
        paging: 'offset',
        page: async (actor, params, offset = 0, limit) => (await inventory.stock(actor, params, { offset, limit })).contents,
        row: (r) => ({ ...r, low: yesNo(r.low) }),
      }),
      'inventory-movements': reportSource('inventory-movements', {
        params: movementReportFilterSchema,
        columns: [
          ['createdAt', 'Date', 'datetime'],
          ['kind', 'Type', 'text'],
          ['itemCode', 'Code', 'text'],
          ['itemName', 'Item', 'text'],
          ['quantity', 'Quantity', 'integer'],
          ['fromStore', 'From store', 'text'],
          ['toStore', 'To store', 'text'],
          ['ticketId', 'Ticket', 'text'],
          ['note', 'Note', 'text'],
        ],
        permission: 'view_inventory',
        count: async (actor, params) => (await inventory.movements(actor, params, { offset: 0, limit: 1 })).totalCount,
        paging: 'id',
        page: (actor, params, afterId, limit) => inventory.movementsAfter(actor, params, afterId, limit),
        row: (r) => ({ ...r, kind: MOVEMENT_LABELS[r.kind] }),
      }),
      'inventory-consumption': reportSource('inventory-consumption', {
        params: consumptionReportFilterSchema,
        columns: [
          ['period', 'Period', 'text'],
          ['siteName', 'Site', 'text'],
          ['itemCode', 'Code', 'text'],
          ['itemName', 'Item', 'text'],
          ['unit', 'Unit', 'text'],
          ['issued', 'Issued', 'integer'],
          ['returned', 'Returned', 'integer'],
          ['consumed', 'Consumed', 'integer'],
          ['value', 'Value', 'decimal'],
        ],
        permission: 'view_inventory',
        paging: 'offset',
        page: async (actor, params, offset = 0, limit) => (await inventory.consumption(actor, params, { offset, limit })).contents,
      }),
      'purchase-requests': reportSource('purchase-requests', {
        params: prReportFilterSchema,
        columns: [
          ['number', 'Number', 'text'],
          ['title', 'Title', 'text'],
          ['state', 'State', 'text'],
          ['source', 'Raised from', 'text'],
          ['store', 'Store', 'text'],
          ['site', 'Site', 'text'],
          ['ticket', 'Ticket', 'text'],
          ['requester', 'Requester', 'text'],
          ['createdAt', 'Created', 'datetime'],
          ['total', 'Total', 'decimal'],
        ],
        permission: 'view_purchaserequest',
        paging: 'id',
        page: (actor, params, afterId, limit) => requests.exportPage(actor, params, afterId, limit),
        row: (r) => ({
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
        }),
      }),
    },
  };
}
