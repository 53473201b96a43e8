import { isSafeInAppPath } from './safe-redirect.ts';

export interface PageLocation {
  pathname: string;
  search: string;
  hash: string;
}

/** The address bar as the http client sees it (a function so tests can fake it). */
export function currentLocation(): PageLocation {
  if (typeof window === 'undefined') return { pathname: '/', search: '', hash: '' };
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash };
}

export const pathAndQuery = (loc: PageLocation) => `${loc.pathname}${loc.search}`;

/** A full page load: used when the session ends so no state of the signed-in user survives in memory. */
export function hardNavigate(url: string, replace = false) {
  if (typeof window === 'undefined') return;
  if (replace) window.location.replace(url);
  else window.location.assign(url);
}

const LOGIN_PATH = /^\/([a-z]+)\/login\/?$/;

/** True for /auth/login and /{role}/login (with or without the trailing slash). */
export const isLoginPath = (pathname: string) => LOGIN_PATH.test(pathname);

/** /{role}/login/ with an in-app `next`, as SPEC 2.1 builds it. */
export function loginUrl(role: string, next?: string | null): string {
  const base = `/${role}/login/`;
  if (!next || !isSafeInAppPath(next) || isLoginPath(next.split('?')[0] ?? '')) return base;
  return `${base}?next=${encodeURIComponent(next)}`;
}
