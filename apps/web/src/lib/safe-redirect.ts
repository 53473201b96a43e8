/**
 * The login `next` (and other return addresses) may only lead inside the app: a path that starts with one '/',
 * never '//' or '/\' (protocol-relative), never a scheme, never control characters.
 */
export function isSafeInAppPath(value: string | null | undefined): value is string {
  if (!value || typeof value !== 'string') return false;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return false;
  // Control characters and backslashes let some browsers read a path as an origin.
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return false;
  }
  try {
    const base = 'http://in-app.invalid';
    const url = new URL(value, base);
    return url.origin === base;
  } catch {
    return false;
  }
}

/** The safe path, or the fallback. */
export function safeInAppPath(value: string | null | undefined, fallback = '/'): string {
  return isSafeInAppPath(value) ? value : fallback;
}
