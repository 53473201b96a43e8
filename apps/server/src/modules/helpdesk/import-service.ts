import { randomUUID } from 'node:crypto';
import {
  type BulkImport,
  HELPDESK_MESSAGES,
  IMPORT_LIMITS,
  type ImportResult,
  TICKET_IMPORT_COLUMNS,
  TICKET_TYPES,
  ticketCreateSchema,
} from '@sitewatch/contracts';
import { type BlobStore, blobKey } from '../../platform/blobs.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import type { JobContext } from '../../platform/jobs/worker.ts';
import { issueMessage } from '../../platform/validation-messages.ts';
import { type Actor, isAdmin } from './access.ts';
import { type Coerced, coerce, columnOf, parseCsv } from './csv.ts';
import * as repo from './import-repository.ts';
import { iso, isoOrNull } from './mapper.ts';
import type { HelpdeskDeps, TicketService } from './ticket-service.ts';

export const IMPORT_QUEUE = 'helpdesk.import';
const BULK_BATCH = 200;
const STORED_ERRORS = 500;

type RowError = { row: number; field: string | null; message: string };
type Column = keyof typeof TICKET_IMPORT_COLUMNS;

export const mayImport = (actor: Actor) => isAdmin(actor) || actor.permissions.has('add_ticket');

const DATE_CELL = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A date or date-time cell (YYYY-MM-DD, YYYY-MM-DD HH:mm[:ss], ISO; UTC unless an offset is given) as an ISO string. */
function dateCell(value: string): string | null {
  const m = DATE_CELL.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', sec = '00', zone = 'Z'] = m;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${sec}${zone}`);
  // Reject dates the calendar does not have (2031-02-30 would roll over).
  if (Number.isNaN(date.getTime()) || (zone === 'Z' && date.getUTCDate() !== Number(d))) return null;
  return date.toISOString();
}

/**
 * CSV import of tickets (SPEC 5: values trimmed, coerced by declared type, invalid JSON null). The interactive
 * import checks every row, then creates the valid ones in one transaction; the bulk import does the same in a
 * background job, batch by batch, resuming where it stopped.
 */
export function createImportService(deps: HelpdeskDeps & { tickets: TicketService; blobs: BlobStore }) {
  const { db, tickets } = deps;

  function read(data: Buffer, maxRows: number) {
    const text = data.toString('utf8');
    const { rows, truncated } = parseCsv(text, maxRows);
    if (truncated) throw badRequest(`A file may hold at most ${maxRows} rows; use the bulk import for more`);
    const [header, ...records] = rows;
    if (!header || records.length === 0) throw badRequest(HELPDESK_MESSAGES.noValidImportData);
    const mapping = header.map(columnOf);
    const columns = [...new Set(mapping.filter((c): c is Column => c !== null))];
    if (!columns.includes('title') || !columns.includes('event')) {
      throw badRequest(`${HELPDESK_MESSAGES.noValidImportData}: the columns title (Summary) and event (Issue Type) are required`);
    }
    const ignored = header.filter((_h, i) => mapping[i] === null);
    return { mapping, columns, ignored, records };
  }

  /** One CSV row to a ticket to raise, or the reasons it cannot be. Row numbers count the header as row 1. */
  async function checkRow(actor: Actor, mapping: (Column | null)[], cells: string[], rowNumber: number) {
    const errors: RowError[] = [];
    const record: Record<string, Coerced> = {};
    mapping.forEach((column, i) => {
      if (!column) return;
      const { value, error } = coerce(cells[i], TICKET_IMPORT_COLUMNS[column]);
      if (error) errors.push({ row: rowNumber, field: column, message: error });
      record[column] = value;
    });
    for (const field of ['eventDate', 'dueDate'] as const) {
      if (typeof record[field] === 'string') {
        const date = dateCell(record[field] as string);
        if (!date) errors.push({ row: rowNumber, field, message: 'DateTime validation failed' });
        record[field] = date;
      }
    }
    if (typeof record.type === 'string') {
      const type = TICKET_TYPES.find((t) => t.toLowerCase() === (record.type as string).toLowerCase());
      if (!type) errors.push({ row: rowNumber, field: 'type', message: `type must be one of ${TICKET_TYPES.join(', ')}` });
      record.type = type ?? null;
    }
    if (typeof record.status === 'string') record.status = (record.status as string).toUpperCase();
    if (typeof record.priority === 'string') record.priority = (record.priority as string).toUpperCase();
    if (errors.length) return { errors, prepared: null, preview: record };
    const input = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null));
    const parsed = ticketCreateSchema.safeParse(input);
    if (!parsed.success) {
      return {
        errors: parsed.error.issues.map((i) => ({ row: rowNumber, field: i.path.join('.') || null, message: issueMessage(i) })),
        prepared: null,
        preview: record,
      };
    }
    try {
      const prepared = await tickets.prepare(actor, actor.tenantId, parsed.data, { history: 'Imported from a CSV file' });
      return {
        errors: [],
        prepared,
        preview: { ...record, type: prepared.type, status: prepared.status, priority: prepared.values.priority },
      };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return { errors: [{ row: rowNumber, field: null, message: error.message }], prepared: null, preview: record };
    }
  }

  function toBulk(r: repo.ImportRow): BulkImport {
    return {
      id: r.id,
      fileName: r.file_name,
      status: r.status as BulkImport['status'],
      totalRows: r.total_rows,
      processedRows: r.processed_rows,
      createdCount: r.created_count,
      errorCount: r.error_count,
      errors: r.errors ?? [],
      createdAt: iso(r.created_at),
      finishedAt: isoOrNull(r.finished_at),
    };
  }

  return {
    async interactive(actor: Actor, file: { name: string; data: Buffer }, dryRun: boolean): Promise<ImportResult> {
      if (!mayImport(actor)) throw forbidden();
      const { mapping, columns, ignored, records } = read(file.data, IMPORT_LIMITS.interactiveRows);
      const errors: RowError[] = [];
      const valid: NonNullable<Awaited<ReturnType<typeof checkRow>>['prepared']>[] = [];
      const preview: Record<string, unknown>[] = [];
      for (const [i, cells] of records.entries()) {
        const checked = await checkRow(actor, mapping, cells, i + 2);
        errors.push(...checked.errors);
        if (checked.prepared) valid.push(checked.prepared);
        if (preview.length < 20) preview.push({ row: i + 2, valid: checked.errors.length === 0, ...checked.preview });
      }
      let created: { id: number; ticketId: string; historyId: number }[] = [];
      if (!dryRun && valid.length > 0) {
        created = await db.transaction().execute((trx) => tickets.persist(trx, actor.tenantId, valid));
        await tickets.announceCreated(actor.tenantId, created, actor.userId);
      }
      return {
        dryRun,
        totalRows: records.length,
        validRows: valid.length,
        created: created.map((c) => ({ id: c.id, ticketId: c.ticketId })),
        errors: errors.slice(0, STORED_ERRORS),
        preview,
        columns,
        ignoredColumns: ignored,
      };
    },

    async startBulk(actor: Actor, file: { name: string; data: Buffer }) {
      if (!mayImport(actor)) throw forbidden();
      const { records } = read(file.data, IMPORT_LIMITS.bulkRows);
      const key = blobKey('imports', actor.tenantId, randomUUID());
      await deps.blobs.put(key, file.data);
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await repo.insertImport(trx, {
          tenantId: actor.tenantId,
          userId: actor.userId,
          fileName: file.name.slice(0, 200) || 'tickets.csv',
          blobKey: key,
          totalRows: records.length,
        });
        await enqueueJob(trx, {
          tenantId: actor.tenantId,
          queue: IMPORT_QUEUE,
          payload: { importId: inserted.id },
          dedupeKey: `import:${inserted.id}`,
        });
        return inserted;
      });
      return toBulk(row);
    },

    async listBulk(actor: Actor, q: { page: number; limit: number }) {
      if (!mayImport(actor)) throw forbidden();
      const { rows, total } = await repo.listImports(db, actor.tenantId, isAdmin(actor) ? null : actor.userId, {
        offset: (q.page - 1) * q.limit,
        limit: q.limit,
      });
      return { contents: rows.map(toBulk), totalCount: total };
    },

    async getBulk(actor: Actor, id: number) {
      const row = await repo.findImport(db, actor.tenantId, id);
      if (!row || (!isAdmin(actor) && row.user_id !== actor.userId)) throw notFound();
      return toBulk(row);
    },

    /** The job: resumes after the rows already processed, checks and writes a batch per transaction. */
    async runBulk(job: JobContext, actorOf: (tenantId: number, userId: number) => Promise<Actor | null>) {
      const importId = Number(job.payload.importId);
      if (job.tenantId === null) return { skipped: true };
      const row = await repo.findImport(db, job.tenantId, importId);
      if (!row || row.status === 'completed' || row.status === 'failed') return { skipped: true };
      const actor = row.user_id ? await actorOf(job.tenantId, row.user_id) : null;
      if (!actor || !mayImport(actor)) {
        await repo.finishImport(db, importId, 'failed', 'The user who started the import may no longer import tickets');
        return { failed: true };
      }
      const blob = await deps.blobs.open(row.blob_key);
      if (!blob) {
        await repo.finishImport(db, importId, 'failed', 'The uploaded file is gone');
        return { failed: true };
      }
      const chunks: Buffer[] = [];
      for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
      const { mapping, records } = read(Buffer.concat(chunks), IMPORT_LIMITS.bulkRows);
      let processed = row.processed_rows;
      let storedErrors = (row.errors ?? []).length;
      while (processed < records.length) {
        if (job.signal.aborted) throw new Error('cancelled');
        const batch = records.slice(processed, processed + BULK_BATCH);
        const errors: RowError[] = [];
        const valid: NonNullable<Awaited<ReturnType<typeof checkRow>>['prepared']>[] = [];
        for (const [i, cells] of batch.entries()) {
          const checked = await checkRow(actor, mapping, cells, processed + i + 2);
          errors.push(...checked.errors);
          if (checked.prepared) valid.push(checked.prepared);
        }
        const end = processed + batch.length;
        const keep = errors.slice(0, Math.max(0, STORED_ERRORS - storedErrors));
        const created = await db.transaction().execute(async (trx) => {
          const written = await tickets.persist(trx, job.tenantId as number, valid);
          await repo.recordBatch(trx, importId, { processedRows: end, created: written.length, errorCount: errors.length, errors: keep });
          return written;
        });
        storedErrors += keep.length;
        await tickets.announceCreated(job.tenantId, created, actor.userId);
        processed = end;
        await job.progress((processed / records.length) * 100);
      }
      await repo.finishImport(db, importId, 'completed');
      return { processed };
    },
  };
}
export type ImportService = ReturnType<typeof createImportService>;
