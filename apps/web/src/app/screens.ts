import { matchRoutes } from 'react-router';
import { APP_ROUTES } from './route-registry.ts';

const screenRoutes = APP_ROUTES.filter((route) => route.screen !== false).map((route) => ({ path: route.path }));

/** Whether this app has a screen for a menu address (SPEC 2.5: the nav only offers what exists). */
export function hasScreen(to: string): boolean {
  const pathname = to.split(/[?#]/)[0] ?? to;
  if (!pathname.startsWith('/')) return false;
  return (matchRoutes(screenRoutes, pathname)?.length ?? 0) > 0;
}
