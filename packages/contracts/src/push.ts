/**
 * Close codes of /ws: the session ended (sign in again), or the server is going away (reconnect).
 * In a file of its own, free of zod, because the web app's realtime client loads with the login page.
 */
export const PUSH_CLOSE = { sessionEnded: 4401, goingAway: 1001 } as const;

/** At most this many devices one socket may watch for live values (`{ type: 'watch', deviceIds }`). */
export const PUSH_MAX_WATCHED = 200;
