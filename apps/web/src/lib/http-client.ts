import { ACCESS_TOKEN_REREAD_MS } from '@sitewatch/contracts/constants';
import { COMMON_MESSAGES } from '@sitewatch/contracts/messages';
import { jwtTimes } from './jwt.ts';
import { isLoginPath, loginUrl, type PageLocation, pathAndQuery } from './navigation.ts';
import { statusTextOf } from './status-text.ts';
import { clearStorageExceptKept, getLoginRole, type KeyValueStore, SESSION_KEYS } from './storage.ts';

/**
 * The one HTTP client of the web app (SPEC 7 and 8): bearer token, CSRF header, refresh-once, the interceptor
 * table of 8.2 and the generic error toasts of 8.1. Pages call it through `lib/http.ts`, never fetch.
 */

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
export const PATHS = {
  currentLogin: '/current-login/',
  refresh: '/api/token/refresh/',
  csrf: '/api/auth/csrf/',
  offline: '/offline.html',
  tenantNotFound: '/tenant-not-found',
  login: '/login',
} as const;

/** Calls of the sign-in screens: their 401/403 answers are wrong credentials, not an ended session. */
const SIGN_IN_CALLS = [
  '/api/auth/login/',
  '/api/auth/otp/send/',
  '/api/auth/otp/verify/',
  '/api/auth/totp/verify/',
  '/api/auth/totp/enrol/start/',
  '/api/auth/totp/enrol/',
  '/api/auth/captcha/',
  '/logout/',
];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const BAD_GATEWAY_STATUSES = new Set([500, 502, 503, 504]);
/** Refresh the access token this long before it expires (at most a quarter of its lifetime). */
export const REFRESH_MARGIN_MS = 60_000;
/** Never refresh more often than this, whatever the tokens say. */
export const MIN_REFRESH_INTERVAL_MS = 10_000;
const REFRESH_RETRY_MS = 30_000;
const REDIRECT_AFTER_502_MS = 1000;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  method?: Method;
  query?: Query;
  /** JSON-encoded unless it is FormData, Blob or a string. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The caller's message for the generic error toast (SPEC 8.1 "caller message"). */
  errorMessage?: string;
  /** false: no generic toast; the caller shows the error itself. The interceptors still run. */
  toast?: boolean;
  responseType?: 'json' | 'text' | 'blob';
  /** Told as the request body goes out (bytes sent, bytes in all), for uploads that show their progress. */
  onUploadProgress?(sent: number, total: number): void;
}

interface InternalOptions extends RequestOptions {
  /** The current-login call being retried after a refresh, or a call retried after a CSRF refresh. */
  retried?: boolean;
}

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface HttpEnv {
  fetch: typeof fetch;
  /** A request whose body's progress is reported (fetch reports none); fetch is used when absent. */
  upload?(url: string, init: RequestInit, onProgress: (sent: number, total: number) => void): Promise<Response>;
  store: KeyValueStore;
  getCookie(name: string): string | null;
  location(): PageLocation;
  /** A full page load (the session is gone, the tenant is unknown, the server is down). */
  navigate(url: string): void;
  notify(kind: ToastKind, message: string): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
  /** Serialises token refreshes across tabs (Web Locks); runs fn directly when absent. */
  withLock?<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Called when the session ended (storage already cleared), e.g. to drop cached queries. */
  onSessionEnd?(): void;
  /** Told whenever the tokens change, so the session store can notify React. */
  onTokens?(): void;
}

/** A failed call: `data` is the parsed body (the server sends {detail, code?, errors?}). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly data: unknown,
    readonly url: string,
    readonly bodyText = '',
  ) {
    super(detailOf(data) ?? statusText);
    this.name = 'HttpError';
  }

  /** The server's `detail` text, if any. */
  get detail(): string | undefined {
    return detailOf(this.data);
  }
}

export function detailOf(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'detail' in data) {
    const detail = (data as { detail: unknown }).detail;
    if (typeof detail === 'string' && detail) return detail;
  }
  return undefined;
}

export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError;

/** SPEC 8.1: what the generic handler shows for a failed call, or null for nothing. */
export function genericErrorMessage(status: number, statusText: string, data: unknown, callerMessage?: string): string | null {
  const text = statusTextOf(status, statusText);
  switch (status) {
    case 401:
      return callerMessage ?? null;
    case 409:
      return callerMessage ?? detailOf(data) ?? text;
    case 0:
    case 500:
      return callerMessage ?? COMMON_MESSAGES.failedToConnectServer;
    case 502:
      return text;
    case 504:
      return null;
    default:
      // 304, 400, 403, 404, 405, 406, 413, 415, 417, 501, 503, 511 and any other status.
      return callerMessage ?? text;
  }
}

export function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

const pathOf = (url: string) => url.split('?')[0] ?? url;
const isCurrentLoginCall = (url: string) => pathOf(url) === PATHS.currentLogin;
const isRefreshCall = (url: string) => pathOf(url) === PATHS.refresh;
const isSignInCall = (url: string) => SIGN_IN_CALLS.includes(pathOf(url));

/** A login page that carries ?next= (SPEC 8.2 "login-with-next URL"). */
/** How long before expiry a token is refreshed: a minute, or a quarter of its lifetime when that is shorter. */
function refreshMargin(times: { exp: number; iat: number | null }): number {
  const lifetimeMs = times.iat === null ? Number.POSITIVE_INFINITY : (times.exp - times.iat) * 1000;
  return Math.min(REFRESH_MARGIN_MS, lifetimeMs / 4);
}

export function isLoginWithNext(loc: PageLocation): boolean {
  return isLoginPath(loc.pathname) && new URLSearchParams(loc.search).has('next');
}

export interface Tokens {
  access: string;
  refresh: string;
}

export function createHttpClient(env: HttpEnv) {
  let tokenCache: { value: string | null; readAt: number } = { value: null, readAt: Number.NEGATIVE_INFINITY };
  let refreshing: Promise<Tokens> | null = null;
  let ending = false;
  let leaving = false;
  let refreshTimer: unknown = null;
  let lastRefreshAt = Number.NEGATIVE_INFINITY;

  /** SPEC 7: the bearer token is re-read from storage every second. */
  function accessToken(): string | null {
    const now = env.now();
    if (now - tokenCache.readAt >= ACCESS_TOKEN_REREAD_MS) tokenCache = { value: env.store.getItem(SESSION_KEYS.access), readAt: now };
    return tokenCache.value;
  }

  function storeTokens(tokens: Tokens) {
    env.store.setItem(SESSION_KEYS.access, tokens.access);
    env.store.setItem(SESSION_KEYS.refresh, tokens.refresh);
    tokenCache = { value: tokens.access, readAt: env.now() };
    ending = false;
    env.onTokens?.();
    scheduleRefresh();
  }

  async function ensureCsrfCookie(): Promise<string | null> {
    const existing = env.getCookie(CSRF_COOKIE);
    if (existing) return existing;
    try {
      const response = await env.fetch(PATHS.csrf, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      const body = (await response.json().catch(() => null)) as { csrfToken?: string } | null;
      return env.getCookie(CSRF_COOKIE) ?? body?.csrfToken ?? null;
    } catch {
      return null;
    }
  }

  async function send(url: string, options: InternalOptions): Promise<Response> {
    const method = options.method ?? 'GET';
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    const token = accessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const csrf = SAFE_METHODS.has(method) ? env.getCookie(CSRF_COOKIE) : await ensureCsrfCookie();
    if (csrf) headers[CSRF_HEADER] = csrf;
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      const raw = options.body;
      if (typeof FormData !== 'undefined' && raw instanceof FormData) body = raw;
      else if (typeof Blob !== 'undefined' && raw instanceof Blob) body = raw;
      else if (typeof raw === 'string') body = raw;
      else {
        body = JSON.stringify(raw);
        headers['Content-Type'] = 'application/json';
      }
    }
    const init: RequestInit = { method, headers, body, credentials: 'same-origin', signal: options.signal };
    if (options.onUploadProgress && env.upload && body !== undefined) return env.upload(url, init, options.onUploadProgress);
    return env.fetch(url, init);
  }

  async function readBody(response: Response, type: RequestOptions['responseType']): Promise<{ data: unknown; text: string }> {
    if (response.status === 204 || response.status === 205) return { data: null, text: '' };
    if (type === 'blob' && response.ok) return { data: await response.blob(), text: '' };
    const text = await response.text().catch(() => '');
    if (type === 'text' && response.ok) return { data: text, text };
    if (!text) return { data: null, text };
    try {
      return { data: JSON.parse(text), text };
    } catch {
      return { data: text, text };
    }
  }

  function goTo(url: string) {
    leaving = true;
    env.navigate(url);
  }

  /** SPEC 8.2: clear storage (but the kept keys), log out, go to login; once, however many calls fail together. */
  function endSession() {
    clearStorageExceptKept(env.store);
    tokenCache = { value: null, readAt: env.now() };
    cancelRefresh();
    env.onSessionEnd?.();
    if (ending) return;
    const loc = env.location();
    if (isLoginPath(loc.pathname)) return;
    ending = true;
    goTo(loginUrl(getLoginRole(env.store), pathAndQuery(loc)));
  }

  /** SPEC 8.2, 401 on the current-login call: refresh once, then retry; a failed refresh rejects with its data. */
  function refreshTokens(original?: HttpError, proactive = false): Promise<Tokens> {
    if (refreshing) return refreshing;
    const before = env.store.getItem(SESSION_KEYS.access);
    const run = async (): Promise<Tokens> => {
      const stored = env.store.getItem(SESSION_KEYS.access);
      // Another tab may have refreshed while this one waited for the lock (or, for the planned refresh, at all).
      const storedTimes = jwtTimes(stored);
      const fresh = Boolean(storedTimes && storedTimes.exp * 1000 - env.now() > refreshMargin(storedTimes));
      if (stored && fresh && (proactive || stored !== before)) {
        const refresh = env.store.getItem(SESSION_KEYS.refresh);
        if (refresh) {
          tokenCache = { value: stored, readAt: env.now() };
          return { access: stored, refresh };
        }
      }
      const refresh = env.store.getItem(SESSION_KEYS.refresh);
      if (!refresh) {
        throw original ?? new HttpError(401, statusTextOf(401), { detail: 'No refresh token' }, PATHS.refresh);
      }
      lastRefreshAt = env.now();
      const tokens = (await request<Tokens>(PATHS.refresh, { method: 'POST', body: { refresh }, toast: false })) as Tokens;
      storeTokens(tokens);
      return tokens;
    };
    const locked = env.withLock ? env.withLock('sitewatch-token-refresh', run) : run();
    refreshing = locked.finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function cancelRefresh() {
    if (refreshTimer !== null) env.clearTimeout(refreshTimer);
    refreshTimer = null;
  }

  /** Refreshes the access token shortly before it expires, so an active user is not signed out. */
  function scheduleRefresh() {
    cancelRefresh();
    const times = jwtTimes(env.store.getItem(SESSION_KEYS.access));
    if (!times || !env.store.getItem(SESSION_KEYS.refresh)) return;
    const sinceLast = env.now() - lastRefreshAt;
    const delay = Math.max(0, times.exp * 1000 - env.now() - refreshMargin(times), MIN_REFRESH_INTERVAL_MS - sinceLast);
    refreshTimer = env.setTimeout(() => {
      refreshTimer = null;
      refreshTokens(undefined, true).then(
        () => {
          // Skipped because another tab refreshed: plan from the token it stored.
          if (refreshTimer === null) scheduleRefresh();
        },
        (error: unknown) => {
          // A 401 already ended the session; anything else (offline, 5xx) is tried again later.
          if (!(isHttpError(error) && error.status === 401) && env.store.getItem(SESSION_KEYS.refresh)) {
            refreshTimer = env.setTimeout(scheduleRefresh, REFRESH_RETRY_MS);
          }
        },
      );
    }, delay);
  }

  /** SPEC 8.2, 511: check the current login without the interceptors; log out if that is 401 too. */
  async function recheckLogin() {
    try {
      const response = await send(PATHS.currentLogin, { method: 'GET' });
      if (response.status === 401) endSession();
    } catch {
      // offline: nothing to decide
    }
  }

  function showGenericToast(error: HttpError, options: InternalOptions) {
    if (options.toast === false) return;
    const message = genericErrorMessage(error.status, error.statusText, error.data, options.errorMessage);
    if (message) env.notify('error', message);
    if (error.status === 502) env.setTimeout(() => goTo(PATHS.login), REDIRECT_AFTER_502_MS);
  }

  /** The interceptor table of SPEC 8.2; returns a retried result or throws. */
  async function intercept<T>(error: HttpError, url: string, options: InternalOptions): Promise<T> {
    const { status } = error;
    const loc = env.location();

    if (BAD_GATEWAY_STATUSES.has(status) && error.bodyText.includes('502 Bad Gateway')) {
      goTo(`${PATHS.offline}?returnUrl=${encodeURIComponent(pathAndQuery(loc))}&reason=${status}`);
      throw error;
    }
    if (status === 421) {
      clearStorageExceptKept(env.store);
      env.onSessionEnd?.();
      if (loc.pathname !== PATHS.tenantNotFound) goTo(PATHS.tenantNotFound);
      throw error;
    }
    if (status === 401) {
      if (isCurrentLoginCall(url) && !options.retried) {
        // A failed refresh rejects with the refresh answer (its own 401 has ended the session already).
        await refreshTokens(error);
        return request<T>(url, { ...options, retried: true });
      }
      if (isRefreshCall(url) || (!isCurrentLoginCall(url) && !isSignInCall(url))) endSession();
      showGenericToast(error, options);
      throw error;
    }
    if (status === 511) {
      showGenericToast(error, options);
      await recheckLogin();
      throw error;
    }
    if (status === 400 && isLoginWithNext(loc)) {
      clearStorageExceptKept(env.store);
      // A sign-in form shows its own message (and a new captcha) instead of losing it to a reload.
      if (!isSignInCall(url)) goTo(loginUrl(getLoginRole(env.store)));
      showGenericToast(error, options);
      throw error;
    }
    if (status === 403 && !options.retried && (error.data as { code?: string } | null)?.code === 'csrf_failed') {
      // The CSRF cookie was rotated or lost: fetch a new one and try once more.
      await env.fetch(PATHS.csrf, { credentials: 'same-origin' }).catch(() => undefined);
      return request<T>(url, { ...options, retried: true });
    }
    showGenericToast(error, options);
    throw error;
  }

  async function request<T = unknown>(path: string, options: InternalOptions = {}): Promise<T> {
    const url = buildUrl(path, options.query);
    let response: Response;
    try {
      response = await send(url, options);
    } catch (cause) {
      if ((cause as { name?: string })?.name === 'AbortError') throw cause;
      const error = new HttpError(0, statusTextOf(0), null, url);
      showGenericToast(error, options);
      throw error;
    }
    const { data, text } = await readBody(response, options.responseType);
    if (response.ok) return data as T;
    return intercept<T>(new HttpError(response.status, statusTextOf(response.status, response.statusText), data, url, text), url, options);
  }

  return {
    request,
    get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'GET' }),
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'POST', body }),
    put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'PUT', body }),
    patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'PATCH', body }),
    del: <T>(path: string, options?: Omit<RequestOptions, 'method'>) => request<T>(path, { ...options, method: 'DELETE' }),
    /** Stores a fresh token pair (after sign-in) and plans the next refresh. */
    storeTokens,
    refreshTokens: () => refreshTokens(),
    scheduleRefresh,
    cancelRefresh,
    endSession,
    /**
     * The user logs out: a call still under way that the server now refuses (401) ends the session without sending
     * the browser to the login page with ?next=, since the logout itself chooses where to go.
     */
    beginSignOut: () => {
      ending = true;
    },
    /** True once the client has sent the browser to another page (login, offline, tenant-not-found). */
    isLeaving: () => leaving,
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
