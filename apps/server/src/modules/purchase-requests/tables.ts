import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
type Stamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** numeric columns come back as strings from pg and as numbers from PGlite. */
type Money = ColumnType<string | number, number | string | undefined, number | string>;

/** A purchase request for spare parts, received into one store. */
export interface PurchaseRequestsTable {
  id: Generated<number>;
  tenant_id: number;
  title: string;
  state: Generated<'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REJECTED' | 'ORDERED' | 'RECEIVED' | 'CANCELLED'>;
  source: Generated<'MANUAL' | 'TICKET' | 'LOW_STOCK'>;
  store_id: number;
  /** The store's site when the request was raised (site scoping of the lists and the report). */
  asset_id: number | null;
  ticket_id: number | null;
  /** The ticket's own id (TKT-…) as it was when the request was raised. */
  ticket_ref: string | null;
  requester_id: number | null;
  decided_by: number | null;
  note: Generated<string>;
  reason: Generated<string>;
  total: Money;
  created_at: Created;
  updated_at: Created;
  submitted_at: Stamp;
  decided_at: Stamp;
  received_at: Stamp;
}

export interface PurchaseRequestLinesTable {
  id: Generated<number>;
  tenant_id: number;
  request_id: number;
  item_id: number;
  quantity: number;
  unit_cost: Money;
}

export interface PurchaseRequestTables {
  purchase_requests: PurchaseRequestsTable;
  purchase_request_lines: PurchaseRequestLinesTable;
}
