import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunction, type RouteObject } from 'react-router';
import { PageLoader } from '../components/PageLoader.tsx';
import { setScreenPaths } from '../lib/screen-catalog.ts';
import { loaderFor } from './guards/loaders.ts';
import { RootShell } from './RootShell.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { APP_ROUTES } from './route-registry.ts';
import type { AppRoute, LayoutKind, RouteHandle } from './route-types.ts';

/** Layouts load lazily too, so the login page never loads MUI, the top bar or the navigation. */
const LAYOUTS: Record<Exclude<LayoutKind, 'plain'>, () => Promise<ComponentType>> = {
  main: () => import('./layouts/MainLayout.tsx').then((m) => m.MainLayout),
  bare: () => import('./layouts/BareLayout.tsx').then((m) => m.BareLayout),
  deviceTree: () => import('./layouts/DeviceTreeLayout.tsx').then((m) => m.DeviceTreeLayout),
  registration: () => import('./layouts/RegistrationLayout.tsx').then((m) => m.RegistrationLayout),
};

/** Shown while the first page's code and data load. */
function InitialLoader() {
  return <PageLoader fullScreen />;
}

function toRouteObject(route: AppRoute): RouteObject {
  const handle: RouteHandle = { title: route.title, crumbs: route.crumbs, hideNavigation: route.hideNavigation };
  return {
    path: route.path,
    loader: withPrefetch(loaderFor(route), route.prefetch),
    lazy: async () => ({ Component: await route.page() }),
    handle,
    ErrorBoundary: RouteErrorBoundary,
  };
}

/** The route's guard, then its data prefetch (not awaited: the page's code loads meanwhile). */
function withPrefetch(guard: LoaderFunction | undefined, prefetch: AppRoute['prefetch']): LoaderFunction | undefined {
  if (!prefetch) return guard;
  return async (args) => {
    const result = guard ? await guard(args) : null;
    prefetch(new URL(args.request.url));
    return result;
  };
}

/** SPEC 8.3: unknown routes go to the 404 page (inside the main layout, after the login check). */
const notFound: AppRoute = {
  path: '*',
  layout: 'main',
  title: 'errors.notFoundTitle',
  crumbs: () => [],
  page: () => import('../features/errors/NotFoundPage.tsx').then((m) => m.NotFoundPage),
};

export function buildRoutes(routes: readonly AppRoute[]): RouteObject[] {
  const of = (layout: LayoutKind) => routes.filter((r) => r.layout === layout).map(toRouteObject);
  const layoutRoutes = (Object.keys(LAYOUTS) as Array<keyof typeof LAYOUTS>).flatMap((layout): RouteObject[] => {
    const children = layout === 'main' ? [...of('main'), toRouteObject(notFound)] : of(layout);
    if (!children.length) return [];
    return [{ id: `layout-${layout}`, lazy: async () => ({ Component: await LAYOUTS[layout]() }), children }];
  });
  return [
    {
      id: 'root',
      Component: RootShell,
      ErrorBoundary: RouteErrorBoundary,
      HydrateFallback: InitialLoader,
      children: [...of('plain'), ...layoutRoutes],
    },
  ];
}

/** Screens a form can be bound to: signed-in pages of the main and device-tree layouts. */
setScreenPaths(
  APP_ROUTES.filter(
    (r) => (r.layout === 'main' || r.layout === 'deviceTree') && r.screen !== false && (r.access ?? 'login') === 'login',
  ).map((r) => r.path.replace(/:(\w+)/g, '{$1}')),
);

export const router = createBrowserRouter(buildRoutes(APP_ROUTES));
