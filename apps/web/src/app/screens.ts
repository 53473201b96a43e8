import type { User } from '@sitewatch/contracts/auth';
import { matchRoutes } from 'react-router';
import { APP_ROUTES } from './route-registry.ts';
import type { AppRoute } from './route-types.ts';

const screenRoutes = APP_ROUTES.filter((route) => route.screen !== false).map((route) => ({ path: route.path, route }));

const match = (to: string) => {
  const pathname = to.split(/[?#]/)[0] ?? to;
  if (!pathname.startsWith('/')) return null;
  return matchRoutes(screenRoutes, pathname)?.[0] ?? null;
};

/** Whether this app has a screen for a menu address (SPEC 2.5: the nav only offers what exists). */
export function hasScreen(to: string): boolean {
  return match(to) !== null;
}

/** Whether the user may open the screen at this address: it exists and its role and permission rules let them in. */
export function mayOpen(to: string, user: User | null): boolean {
  const found = match(to);
  if (!found || !user) return false;
  const route: AppRoute = found.route.route;
  if (route.roles?.length && !user.userRole.some((r) => (route.roles as readonly string[]).includes(r))) return false;
  return !route.allow || route.allow(user, found.params);
}
