/**
 * CSV reading (RFC 4180: quotes, doubled quotes, CRLF or LF, a leading BOM) for every import. Stops after
 * `maxRows` + 1 rows (the header and `maxRows` records) and says so, so a huge file is never read whole.
 */
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

/**
 * The text of an uploaded CSV file, decided from its content: at most `maxBytes` bytes of UTF-8 without NUL or
 * other control bytes (tab, line breaks excepted). Null when it is not such a text.
 */
export function csvText(data: Buffer | string, maxBytes: number): { text: string } | { error: 'too_large' | 'not_text' } {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length > maxBytes) return { error: 'too_large' };
  for (const byte of bytes) {
    if (byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    if (byte < 0x20 || byte === 0x7f) return { error: 'not_text' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { error: 'not_text' };
  }
}
