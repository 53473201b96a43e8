import { connection } from './connection.ts';

/**
 * How old what the screens show is while the connection is gone: the time of the oldest kept copy served instead of
 * the server since the connection went ("as of 09:12"). Kept here, not in the banner: a page opened without a
 * connection reads its kept copies before the banner (loaded apart from the login bundle) is mounted, and the banner
 * reads the time when it mounts. Cleared when the connection returns.
 */
type Listener = () => void;

export interface OfflineAsOf {
  /** The oldest kept copy's time served since the connection went, or null. */
  get(): number | null;
  /** A kept copy read at `savedAt` answered instead of the server. */
  served(savedAt: number): void;
  /** The connection is back: the screens read from the server again. */
  clear(): void;
  /** Told on each change of `get()`; returns the unsubscribe. */
  subscribe(listener: Listener): () => void;
}

export function createOfflineAsOf(): OfflineAsOf {
  let asOf: number | null = null;
  const listeners = new Set<Listener>();
  const set = (next: number | null) => {
    if (next === asOf) return;
    asOf = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    get: () => asOf,
    served: (savedAt) => set(asOf === null ? savedAt : Math.min(asOf, savedAt)),
    clear: () => set(null),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The app's one record, cleared when the server can be reached again. */
export const offlineAsOf = createOfflineAsOf();
connection.onReturn(() => offlineAsOf.clear());
