import { type ImportColumnType, TICKET_COLUMNS, TICKET_IMPORT_COLUMNS } from '@sitewatch/contracts';

/** The SPEC 5 value coercion of imported cells; the CSV reading is platform's (`platform/csv.ts`). */
export { parseCsv } from '../../platform/csv.ts';

export type Coerced = string | number | Record<string, unknown> | unknown[] | null;

/** Trims, then coerces by the declared type: '' is null; a number that is not one is an error; invalid JSON is null. */
export function coerce(raw: string | undefined, type: ImportColumnType): { value: Coerced; error?: string } {
  const value = (raw ?? '').trim();
  if (value === '') return { value: null };
  if (type === 'text') return { value };
  if (type === 'number') {
    const n = Number(value);
    return Number.isFinite(n) ? { value: n } : { value: null, error: 'Input Value is not a Number' };
  }
  try {
    const parsed = JSON.parse(value);
    return { value: parsed && typeof parsed === 'object' ? parsed : null };
  } catch {
    return { value: null };
  }
}

const normalise = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');
const HEADER_ALIASES: Record<string, keyof typeof TICKET_IMPORT_COLUMNS> = {
  summary: 'title',
  issuetype: 'event',
  issuesubtype: 'subEvent',
  location: 'locationId',
  site: 'locationId',
  entity: 'entityId',
  device: 'entityId',
  assignee: 'assignedTo',
  ticketype: 'type',
  tickettype: 'type',
};

/** Which import column a header names: the field key, or the header of the ticket table (so an export re-imports). */
export function columnOf(header: string): keyof typeof TICKET_IMPORT_COLUMNS | null {
  const h = normalise(header);
  for (const key of Object.keys(TICKET_IMPORT_COLUMNS) as (keyof typeof TICKET_IMPORT_COLUMNS)[]) if (normalise(key) === h) return key;
  for (const [key, label] of Object.entries(TICKET_COLUMNS)) {
    if (normalise(label) === h && key in TICKET_IMPORT_COLUMNS) return key as keyof typeof TICKET_IMPORT_COLUMNS;
  }
  return HEADER_ALIASES[h] ?? null;
}
