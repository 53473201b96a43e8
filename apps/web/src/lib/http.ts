import { readCookie } from './cookies.ts';
import { createHttpClient, type HttpClient } from './http-client.ts';
import { currentLocation, hardNavigate } from './navigation.ts';
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

/** The app's client, bound to the browser. */
export const http: HttpClient = createHttpClient({
  fetch: (input, init) => fetch(input, init),
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
