/** Reads the time claims of a JWT without verifying it (the server does that); null when it has none. */
export function jwtTimes(token: string | null | undefined): { exp: number; iat: number | null } | null {
  if (!token) return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = JSON.parse(atob(base64)) as { exp?: unknown; iat?: unknown };
    if (typeof json.exp !== 'number') return null;
    return { exp: json.exp, iat: typeof json.iat === 'number' ? json.iat : null };
  } catch {
    return null;
  }
}

/** The `exp` claim (seconds since the epoch), or null. */
export const jwtExpiry = (token: string | null | undefined): number | null => jwtTimes(token)?.exp ?? null;
