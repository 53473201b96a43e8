import type { User } from '@sitewatch/contracts/auth';
import { DEFAULT_LOGIN_ROLE } from '@sitewatch/contracts/constants';
import { type LoaderFunction, redirect } from 'react-router';
import { api } from '../../lib/api.ts';
import { http } from '../../lib/http.ts';
import { loginUrl } from '../../lib/navigation.ts';
import { getUser, hasRole, logoutForRoleMismatch, saveLogin, violatesLoginRole } from '../../lib/session.ts';
import { getLoginRole } from '../../lib/storage.ts';
import type { AppRoute } from '../route-types.ts';

/** A promise that never settles: the http client is already taking the browser elsewhere. */
const never = () => new Promise<never>(() => undefined);

/**
 * SPEC 2.1 login check: with stored user info, go on. Otherwise ask GET /current-login/ (the session cookie may
 * still be valid); on success store user and tokens and continue, else go to /{role}/login/?next={path and query}.
 */
export async function ensureSignedIn(request: Request): Promise<User> {
  const url = new URL(request.url);
  const next = `${url.pathname}${url.search}`;
  const stored = getUser();
  if (stored && !violatesLoginRole(stored)) return stored;
  if (stored) {
    // SPEC 5: stored user info that does not hold the role used to log in is no session: reset the role, log out.
    await logoutForRoleMismatch();
    throw redirect(loginUrl(DEFAULT_LOGIN_ROLE, next));
  }
  try {
    const login = await api.get('/current-login/');
    if (violatesLoginRole(login.user)) {
      await logoutForRoleMismatch();
      throw redirect(loginUrl(DEFAULT_LOGIN_ROLE, next));
    }
    saveLogin(login);
    return login.user;
  } catch (error) {
    if (error instanceof Response) throw error;
    if (http.isLeaving()) return never();
    throw redirect(loginUrl(getLoginRole(), next));
  }
}

/** The loader a route gets from its access rule and roles. */
export function loaderFor(route: AppRoute): LoaderFunction | undefined {
  const access = route.access ?? 'login';
  if (access === 'guest') {
    return () => {
      if (getUser()) throw redirect('/');
      return null;
    };
  }
  if (access === 'public') return undefined;
  return async ({ request, params }) => {
    const user = await ensureSignedIn(request);
    if (route.roles?.length && !hasRole(user, ...route.roles)) throw redirect('/access-denied');
    if (route.allow && !route.allow(user, params)) throw redirect('/access-denied');
    return null;
  };
}
