/** The image type of an avatar upload, decided from its first bytes; anything but PNG, JPEG, GIF or WebP is null. */
export function sniffImage(data: Buffer): 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => data[i] === b);
  const ascii = (offset: number, text: string) => data.subarray(offset, offset + text.length).toString('latin1') === text;
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return null;
}
