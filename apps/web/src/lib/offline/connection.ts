/**
 * Whether the app can reach its server. The browser's online and offline events say whether the phone has a network;
 * a phone can also say it is online while nothing gets through (a weak signal, a network without internet): the
 * app's requests then fail without an answer, and the app is as offline as when the phone says so. While the server
 * answers nobody, a small request asks again every few seconds, so the app knows at once when it is back.
 */
type Listener = () => void;

/** Why the app cannot reach its server: the phone has no network, or the server answered none of its requests. */
export type OfflineReason = 'offline' | 'unreachable' | null;

export interface Connection {
  /** Null while the server can be reached. */
  reason(): OfflineReason;
  online(): boolean;
  /** The server answered a request (any status). */
  answered(): void;
  /** A request got no answer at all. */
  reachedNobody(): void;
  /** The browser's online and offline events. */
  browserOnline(online: boolean): void;
  /** Told on each change of `reason()`. */
  subscribe(listener: Listener): () => void;
  /** Told when the app can reach the server again after it could not. */
  onReturn(listener: Listener): () => void;
}

export interface ConnectionEnv {
  onLine: boolean;
  /** Asks the server for any answer; resolves when it answered, rejects when nobody did. */
  probe(): Promise<unknown>;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How often the server is asked again while it answers nobody and the phone says it is online. */
export const PROBE_EVERY_MS = 5_000;

export function createConnection(env: ConnectionEnv): Connection {
  let browser = env.onLine;
  let unreachable = false;
  let probeTimer: unknown;
  const listeners = new Set<Listener>();
  const returns = new Set<Listener>();
  const reason = (): OfflineReason => (!browser ? 'offline' : unreachable ? 'unreachable' : null);

  const change = (apply: () => void) => {
    const was = reason();
    apply();
    const now = reason();
    if (now === was) return;
    for (const listener of [...listeners]) listener();
    if (now === null) for (const listener of [...returns]) listener();
    scheduleProbe();
  };
  function scheduleProbe() {
    env.clearTimeout(probeTimer);
    probeTimer = undefined;
    if (reason() !== 'unreachable') return;
    probeTimer = env.setTimeout(() => {
      env.probe().then(
        () => change(() => (unreachable = false)),
        () => scheduleProbe(),
      );
    }, PROBE_EVERY_MS);
  }

  return {
    reason,
    online: () => reason() === null,
    answered: () => change(() => (unreachable = false)),
    reachedNobody: () => change(() => (unreachable = true)),
    // the network is back: the next request tells whether the server answers
    browserOnline: (online) =>
      change(() => {
        browser = online;
        if (online) unreachable = false;
      }),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    onReturn(listener) {
      returns.add(listener);
      return () => {
        returns.delete(listener);
      };
    },
  };
}

const isAbort = (error: unknown) => (error as { name?: string } | null)?.name === 'AbortError';

/** `fetch` that tells `connection` whether each request was answered. */
export function reportingTo(connection: Pick<Connection, 'answered' | 'reachedNobody'>, base: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      const response = await base(input, init);
      connection.answered();
      return response;
    } catch (error) {
      if (!isAbort(error)) connection.reachedNobody();
      throw error;
    }
  };
}

const inBrowser = typeof window !== 'undefined';

/** The app's one connection. */
export const connection: Connection = createConnection({
  onLine: inBrowser ? navigator.onLine : true,
  probe: () => fetch('/health', { cache: 'no-store' }),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});
if (inBrowser) {
  window.addEventListener('online', () => connection.browserOnline(true));
  window.addEventListener('offline', () => connection.browserOnline(false));
}
