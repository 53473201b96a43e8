/** A session still good for a request, with its user's current roles and permissions. */
export interface LiveSession {
  roles: string[];
  permissions: ReadonlySet<string>;
}

/**
 * Of the given sessions, those still good for a request (not revoked, not expired, not idle, user active), by
 * session id: an open socket is held to the same rule as an HTTP call. The auth module answers it (app.ts):
 * platform reads no module's tables.
 */
export type LiveSessionCheck = (sessionIds: string[]) => Promise<Map<string, LiveSession>>;
