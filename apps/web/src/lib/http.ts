import { readCookie } from './cookies.ts';
import { createHttpClient, type HttpClient } from './http-client.ts';
import { currentLocation, hardNavigate } from './navigation.ts';
import { connection, reportingTo } from './offline/connection.ts';
import { withOfflineCopies } from './offline/read-cache.ts';
import { localStore } from './storage.ts';
import { showToast } from './toasts.ts';

export { detailOf, HttpError, isHttpError, type RequestOptions } from './http-client.ts';

type Listener = () => void;
const sessionEndListeners = new Set<Listener>();
const tokenListeners = new Set<Listener>();

/** Runs when the http client ends the session (401, 421): the query cache and the session store listen. */
export function onSessionEnd(listener: Listener): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}
export function onTokensChanged(listener: Listener): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** A request through XMLHttpRequest, the one browser API that reports how much of a body has been sent. */
function uploadWithProgress(url: string, init: RequestInit, onProgress: (sent: number, total: number) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? 'POST', url);
    xhr.responseType = 'blob';
    xhr.withCredentials = init.credentials === 'include';
    for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const body = NULL_BODY_STATUSES.has(xhr.status) ? null : (xhr.response as Blob);
      resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers }));
    };
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

/** The app's client, bound to the browser. */
export const http: HttpClient = createHttpClient({
  // The reads a field executive needs at a site are kept, and answer when the network does not; a request that gets
  // no answer tells the app it cannot reach the server, even when the phone says it is online.
  fetch: withOfflineCopies(reportingTo(connection, (input, init) => fetch(input, init))),
  upload: typeof XMLHttpRequest === 'undefined' ? undefined : uploadWithProgress,
  store: localStore(),
  getCookie: (name) => readCookie(name),
  location: currentLocation,
  navigate: (url) => hardNavigate(url),
  notify: showToast,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
  withLock:
    typeof navigator !== 'undefined' && navigator.locks
      ? (name, fn) => navigator.locks.request(name, fn) as Promise<Awaited<ReturnType<typeof fn>>>
      : undefined,
  onSessionEnd: () => {
    for (const fn of sessionEndListeners) fn();
  },
  onTokens: () => {
    for (const fn of tokenListeners) fn();
  },
});
