import type { ColumnType } from 'kysely';

/**
 * One `Idempotency-Key` a user sent with a change: the request it named (method, URL and a hash of its body) and,
 * once answered, the status and JSON body to answer a repeat with. `status` is null while the first request runs.
 */
export interface IdempotencyKeysTable {
  tenant_id: number;
  user_id: number;
  key: string;
  request_hash: string;
  status: number | null;
  body: ColumnType<unknown, string | null, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
