import { TICKET_COLUMNS, type TicketColumn } from '@sitewatch/contracts/helpdesk/admin';
import { HELPDESK_MESSAGES, TICKET_LIMITS, type TicketSummary } from '@sitewatch/contracts/helpdesk/tickets';
import { columnText } from './model.ts';

/**
 * The ticket CSV export of SPEC 9, in the browser: pages of 100 rows fetched 500 ms apart with the list's
 * filters, at most 10,000 rows, each page retried up to 3 times 2 s apart before giving up with the spec's
 * error; cancellable at any point; progress through the spec's messages.
 */

export type ExportPhase = 'fetching' | 'processing' | 'empty' | 'done' | 'cancelled' | 'failed';
export const PHASE_MESSAGE: Record<ExportPhase, string> = {
  fetching: HELPDESK_MESSAGES.exportFetching,
  processing: HELPDESK_MESSAGES.exportProcessing,
  empty: HELPDESK_MESSAGES.exportEmpty,
  done: 'Export finished',
  cancelled: HELPDESK_MESSAGES.downloadCancelled,
  failed: HELPDESK_MESSAGES.exportError,
};

export interface ExportDeps {
  fetchPage(page: number, limit: number, signal: AbortSignal): Promise<{ contents: TicketSummary[]; totalCount: number }>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  onProgress(p: { phase: ExportPhase; fetched: number; total: number }): void;
  /** Called once when more rows match than may be exported. */
  onLimit?(max: number, total: number): void;
}

export interface ExportOptions {
  columns: TicketColumn[];
  pageSize?: number;
  pageDelayMs?: number;
  maxRows?: number;
  retries?: number;
  retryDelayMs?: number;
}

export class ExportCancelled extends Error {
  constructor() {
    super(HELPDESK_MESSAGES.downloadCancelled);
  }
}
export class ExportFailed extends Error {
  constructor() {
    super(HELPDESK_MESSAGES.exportError);
  }
}

/** A CSV cell a spreadsheet will not run as a formula (= + - @ tab CR prefixes are neutralised). */
export function csvCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: TicketSummary[], columns: TicketColumn[]): string {
  const lines = [columns.map((c) => csvCell(TICKET_COLUMNS[c])).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(columnText(c, row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Fetches every page (up to the maximum) and returns the CSV text, or null when nothing matched. */
export async function exportTickets(deps: ExportDeps, options: ExportOptions, signal: AbortSignal): Promise<string | null> {
  const pageSize = options.pageSize ?? TICKET_LIMITS.exportPageSize;
  const pageDelay = options.pageDelayMs ?? TICKET_LIMITS.exportPageDelayMs;
  const maxRows = options.maxRows ?? TICKET_LIMITS.exportMaxRows;
  const retries = options.retries ?? TICKET_LIMITS.exportRetries;
  const retryDelay = options.retryDelayMs ?? TICKET_LIMITS.exportRetryDelayMs;
  const rows: TicketSummary[] = [];
  let total = 0;
  let wanted = maxRows;
  const check = () => {
    if (signal.aborted) throw new ExportCancelled();
  };

  async function fetchWithRetry(page: number) {
    for (let attempt = 0; ; attempt++) {
      check();
      try {
        return await deps.fetchPage(page, pageSize, signal);
      } catch {
        check();
        if (attempt >= retries) throw new ExportFailed();
        await deps.sleep(retryDelay, signal);
      }
    }
  }

  deps.onProgress({ phase: 'fetching', fetched: 0, total: 0 });
  for (let page = 1; rows.length < wanted; page++) {
    if (page > 1) await deps.sleep(pageDelay, signal);
    const result = await fetchWithRetry(page);
    if (page === 1) {
      total = result.totalCount;
      if (total > maxRows) deps.onLimit?.(maxRows, total);
      wanted = Math.min(maxRows, total);
    }
    rows.push(...result.contents.slice(0, wanted - rows.length));
    deps.onProgress({ phase: 'fetching', fetched: rows.length, total: wanted });
    if (result.contents.length < pageSize) break;
  }
  check();
  if (rows.length === 0) {
    deps.onProgress({ phase: 'empty', fetched: 0, total: 0 });
    return null;
  }
  deps.onProgress({ phase: 'processing', fetched: rows.length, total: wanted });
  const csv = toCsv(rows, options.columns);
  deps.onProgress({ phase: 'done', fetched: rows.length, total: wanted });
  return csv;
}

/** Waits, or rejects as cancelled when the signal aborts first. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ExportCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ExportCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
