import { type ImportColumnType, TICKET_COLUMNS, TICKET_IMPORT_COLUMNS } from '@sitewatch/contracts';

/** CSV reading (RFC 4180: quotes, doubled quotes, CRLF or LF, a leading BOM) and the SPEC 5 value coercion. */
export function parseCsv(text: string, maxRows: number): { rows: string[][]; truncated: boolean } {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < input.length) {
    const ch = input[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      if (ch === '\r' && input[i + 1] === '\n') i++;
      if (rows.length > maxRows) return { rows: rows.slice(0, maxRows + 1), truncated: true };
    } else field += ch;
    i++;
  }
  if (field !== '' || row.length > 0) endRow();
  return { rows, truncated: false };
}

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
