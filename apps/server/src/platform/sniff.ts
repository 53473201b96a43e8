/**
 * The content type of an upload, decided from its first bytes (never from the name or the header the browser
 * sent). Only types on the allow-list pass; anything else is null and refused.
 */
export function sniffContentType(data: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => data[i] === b);
  const ascii = (offset: number, text: string) => data.subarray(offset, offset + text.length).toString('latin1') === text;
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, '%PDF-')) return 'application/pdf';
  if (ascii(4, 'ftyp')) return 'video/mp4';
  if (isPlainText(data)) return 'text/plain';
  return null;
}

/** UTF-8 without NUL or other control bytes besides tab, newline and carriage return: notes, logs and CSV. */
function isPlainText(data: Buffer) {
  for (const byte of data) {
    if (byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    if (byte < 0x20 || byte === 0x7f) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}
