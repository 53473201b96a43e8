import type { DownloadJob } from '@sitewatch/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.ts';

/** Who asked for an export: the export reads with exactly these rights, also when it runs later on a worker. */
export interface ExportScope {
  tenantId: number;
  userId: number;
  roles: string[];
  permissions: string[];
}

/**
 * What a column holds, which decides its cells in each format (`cells.ts`): text; integer or decimal numbers
 * (right-aligned, `decimals` places, 2 by default); datetime or date (Date or ISO string; printed and written in the
 * tenant's time zone); duration (a number of hours); boolean (true/false or 'Yes'/'No').
 */
export type ExportColumnType = 'text' | 'integer' | 'decimal' | 'datetime' | 'date' | 'duration' | 'boolean';

export interface ExportColumn {
  key: string;
  header: string;
  type: ExportColumnType;
  decimals?: number;
}

export interface ExportPage {
  rows: Array<Record<string, unknown>>;
  /** Keyset cursor of the next page; null after the last one. */
  nextCursor: string | null;
}

/**
 * Something a user can export as CSV in the background. A domain registers one from its exports.ts through the downloads port and
 * keeps its SQL in its own repository: the framework only asks for pages.
 */
export interface ExportSource<P = Record<string, unknown>> {
  kind: string;
  label: string;
  /** The columns users are shown for this export, and its header unless `columnsFor` decides it. */
  columns: readonly ExportColumn[];
  /**
   * Columns that depend on the filters or the caller (a form's fields): asked once per run, before the header line
   * is written, so every page is written under the same header. Without it the export has `columns`.
   */
  columnsFor?(scope: ExportScope, params: P): Promise<readonly ExportColumn[]>;
  /** Filters the caller may pass (validated before the job is created; a bad value is a 400). */
  params?: z.ZodType<P>;
  allowed(scope: ExportScope): boolean;
  /** Rows the export will have, for progress; optional. */
  count?(scope: ExportScope, params: P): Promise<number>;
  fetchPage(scope: ExportScope, params: P, cursor: string | null, limit: number): Promise<ExportPage>;
  /** Rows per page (default 1000). */
  pageSize?: number;
  /** Stops after this many rows (the spec's export limits). */
  maxRows?: number;
  /** A pause between pages, to spare the database (SPEC 9: the ticket export waits 500 ms). */
  pageDelayMs?: number;
}

/**
 * Another kind of download job shown in the same list (camera clips): the domain keeps its own jobs and files
 * and answers the list, mark-downloaded and delete calls for its kind.
 */
export interface DownloadProvider {
  kind: string;
  list(auth: AuthContext, limit: number): Promise<DownloadJob[]>;
  markDownloaded(auth: AuthContext, jobId: number, tid: string): Promise<DownloadJob>;
  /** Refuses a caller whose job this is not, before the body of a mark-downloaded call is read. */
  own?(auth: AuthContext, jobId: number): Promise<unknown>;
  remove(auth: AuthContext, jobId: number): Promise<unknown>;
}

export function createExportRegistry() {
  const sources = new Map<string, ExportSource>();
  const providers = new Map<string, DownloadProvider>();
  return {
    registerSource<P>(source: ExportSource<P>) {
      if (sources.has(source.kind) || providers.has(source.kind)) throw new Error(`export kind ${source.kind} registered twice`);
      sources.set(source.kind, source as unknown as ExportSource);
    },
    registerProvider(provider: DownloadProvider) {
      if (sources.has(provider.kind) || providers.has(provider.kind)) throw new Error(`download kind ${provider.kind} registered twice`);
      providers.set(provider.kind, provider);
    },
    source: (kind: string) => sources.get(kind),
    provider: (kind: string) => providers.get(kind),
    sources: () => [...sources.values()],
    providers: () => [...providers.values()],
  };
}
export type ExportRegistry = ReturnType<typeof createExportRegistry>;
