import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** SQL of bulk imports: one row per uploaded file, its progress written with each batch of created tickets. */

const columns = [
  'id',
  'tenant_id',
  'user_id',
  'file_name',
  'blob_key',
  'status',
  'total_rows',
  'processed_rows',
  'created_count',
  'error_count',
  'errors',
  'created_at',
  'finished_at',
] as const;

export const insertImport = (db: Db, v: { tenantId: number; userId: number; fileName: string; blobKey: string; totalRows: number }) =>
  db
    .insertInto('ticket_imports')
    .values({ tenant_id: v.tenantId, user_id: v.userId, file_name: v.fileName, blob_key: v.blobKey, total_rows: v.totalRows, errors: '[]' })
    .returning(columns)
    .executeTakeFirstOrThrow();

export const findImport = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('ticket_imports').select(columns).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
export type ImportRow = NonNullable<Awaited<ReturnType<typeof findImport>>>;

export async function listImports(db: Db, tenantId: number, userId: number | null, page: { offset: number; limit: number }) {
  let q = db.selectFrom('ticket_imports').where('tenant_id', '=', tenantId);
  if (userId !== null) q = q.where('user_id', '=', userId);
  const [rows, total] = await Promise.all([
    q.select(columns).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Records a processed batch; the row count only moves forward, so a batch replayed after a crash is not counted twice. */
export const recordBatch = (
  trx: Db,
  id: number,
  v: { processedRows: number; created: number; errorCount: number; errors: { row: number; field: string | null; message: string }[] },
) =>
  trx
    .updateTable('ticket_imports')
    .set({
      status: 'running',
      processed_rows: v.processedRows,
      created_count: sql`created_count + ${v.created}`,
      error_count: sql`error_count + ${v.errorCount}`,
      errors: sql`(errors || ${JSON.stringify(v.errors)}::jsonb)`,
    })
    .where('id', '=', id)
    .execute();

export const finishImport = (db: Db, id: number, status: 'completed' | 'failed', message?: string) =>
  db
    .updateTable('ticket_imports')
    .set({
      status,
      finished_at: sql`now()`,
      ...(message
        ? { errors: sql`(errors || ${JSON.stringify([{ row: 0, field: null, message }])}::jsonb)`, error_count: sql`error_count + 1` }
        : {}),
    })
    .where('id', '=', id)
    .execute();
