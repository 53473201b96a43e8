import type { CurrentLogin, User } from '@sitewatch/contracts/auth';
import { DEFAULT_LOGIN_ROLE } from '@sitewatch/contracts/constants';
import { useSyncExternalStore } from 'react';
import { api } from './api.ts';
import { http, onSessionEnd, onTokensChanged } from './http.ts';
import { hardNavigate, loginUrl } from './navigation.ts';
import { isSafeInAppPath } from './safe-redirect.ts';
import { clearStorageExceptKept, getLoginRole, readJson, readString, SESSION_KEYS, setLoginRole, writeJson } from './storage.ts';

/** The signed-in user as stored in localStorage (SPEC 2.1 "stored user info"), readable from React. */

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; user: User | null } = { raw: null, user: null };

function notify() {
  for (const fn of listeners) fn();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getUser(): User | null {
  const raw = readString(SESSION_KEYS.user);
  if (raw !== cache.raw) cache = { raw, user: raw ? readJson<User>(SESSION_KEYS.user) : null };
  return cache.user;
}

export function setUser(user: User) {
  writeJson(SESSION_KEYS.user, user);
  notify();
}

/** Stores user, access and refresh after a sign-in or a current-login check. */
export function saveLogin(login: Pick<CurrentLogin, 'user' | 'access' | 'refresh'>) {
  writeJson(SESSION_KEYS.user, login.user);
  http.storeTokens({ access: login.access, refresh: login.refresh });
  notify();
}

/** Clears the session locally (the kept keys stay). */
export function clearSession() {
  clearStorageExceptKept();
  http.cancelRefresh();
  notify();
}

/** SPEC 5: a role-specific login is only valid for users holding that role. */
export function violatesLoginRole(user: Pick<User, 'userRole'>, loginRole: string = getLoginRole()): boolean {
  return loginRole !== DEFAULT_LOGIN_ROLE && !user.userRole.includes(loginRole as User['userRole'][number]);
}

/** Logout of the profile menu: GET /logout/, clear storage but the kept keys, go to the address the server gives. */
export async function logout(): Promise<void> {
  let target = loginUrl(getLoginRole());
  http.beginSignOut();
  try {
    const result = await api.get('/logout/', { toast: false });
    if (isSafeInAppPath(result?.redirectURL)) target = result.redirectURL;
  } catch {
    // the local session ends anyway
  }
  clearSession();
  hardNavigate(target);
}

/** SPEC 5: reset the login role to auth and sign out. */
export async function logoutForRoleMismatch(): Promise<void> {
  setLoginRole(DEFAULT_LOGIN_ROLE);
  try {
    await api.get('/logout/', { toast: false });
  } catch {
    // ignore
  }
  clearSession();
}

export function useUser(): User | null {
  return useSyncExternalStore(subscribeSession, getUser, () => null);
}

export function permissionsOf(user: User | null): Set<string> {
  return new Set(user?.groups[0]?.permissions.map((p) => p.codename) ?? []);
}

export const hasRole = (user: User | null, ...roles: string[]) => Boolean(user?.userRole.some((r) => roles.includes(r)));

export const fullName = (user: Pick<User, 'firstname' | 'lastname' | 'username'>) =>
  [user.firstname, user.lastname].filter(Boolean).join(' ') || user.username;

if (typeof window !== 'undefined') {
  // Another tab signed in or out.
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === SESSION_KEYS.user || event.key === SESSION_KEYS.access) {
      http.scheduleRefresh();
      notify();
    }
  });
  // Timers sleep in background tabs: re-plan the refresh when the tab is seen again.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') http.scheduleRefresh();
  });
  onSessionEnd(notify);
  onTokensChanged(notify);
  http.scheduleRefresh();
}
