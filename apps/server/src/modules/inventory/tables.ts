import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;

export interface InventoryStoresTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  asset_id: number | null;
  manager_ids: ColumnType<number[], number[] | undefined, number[]>;
  created_at: Created;
  updated_at: Created;
}

export interface InventoryItemsTable {
  id: Generated<number>;
  tenant_id: number;
  code: string;
  name: string;
  category: string;
  make: string;
  model: string;
  unit: string;
  tracking: 'SERIAL' | 'QUANTITY';
  low_threshold: number;
  /** The last purchase price (set when a purchase request is received); values the stock. */
  unit_cost: ColumnType<string | number, number | string | undefined, number | string>;
  created_at: Created;
  updated_at: Created;
}

/** A serial unit; its store, status and ticket are derived from its latest movement (same transaction). */
export interface InventorySerialsTable {
  id: Generated<number>;
  tenant_id: number;
  item_id: number;
  serial: string;
  store_id: number | null;
  status: 'IN_STORE' | 'ISSUED' | 'WRITTEN_OFF';
  ticket_id: number | null;
  created_at: Created;
}

/** The stock ledger: append-only (an update is refused by a trigger). */
export interface InventoryMovementsTable {
  id: Generated<string>;
  tenant_id: number;
  kind: 'RECEIVE' | 'TRANSFER' | 'ISSUE' | 'RETURN' | 'WRITE_OFF';
  item_id: number;
  quantity: number;
  from_store_id: number | null;
  to_store_id: number | null;
  serial_id: number | null;
  ticket_id: number | null;
  device_id: number | null;
  note: string;
  actor_id: number | null;
  created_at: Created;
  performed_at: ColumnType<Date | null, Date | null | undefined, never>;
}

/** On hand per item and store, derived from the ledger: each movement adds its quantities in its own transaction. */
export interface InventoryBalancesTable {
  tenant_id: number;
  item_id: number;
  store_id: number;
  on_hand: number;
}

export interface InventoryTables {
  inventory_stores: InventoryStoresTable;
  inventory_items: InventoryItemsTable;
  inventory_serials: InventorySerialsTable;
  inventory_movements: InventoryMovementsTable;
  inventory_balances: InventoryBalancesTable;
}
