import type { User } from '@sitewatch/contracts/auth';
import type { Role } from '@sitewatch/contracts/roles';
import type { CustomerSettings } from '@sitewatch/contracts/tenant-settings';
import type { ComponentType } from 'react';
import type { Params } from 'react-router';

/**
 * Which frame a screen is shown in (ARCHITECTURE: main, device-tree, registration). `bare` has no frame but MUI;
 * `plain` has neither, for the login page, which must stay small (plain HTML and CSS, no MUI).
 */
export type LayoutKind = 'main' | 'deviceTree' | 'registration' | 'bare' | 'plain';

/**
 * SPEC 2.1: `login` runs the login check first (the default); `public` has none (/settings, /sessions,
 * /cookie-policy, /tenant-not-found); `guest` is a sign-in screen that sends a signed-in user to /.
 */
export type RouteAccess = 'login' | 'public' | 'guest';

export interface Crumb {
  label: string;
  /** Where the crumb links to; the last crumb never links. */
  to?: string;
}

export interface CrumbContext {
  params: Params;
  user: User | null;
  settings: CustomerSettings | undefined;
  /** Translates a key of the resource file. */
  t(key: string, options?: Record<string, unknown>): string;
}

/** One screen of a feature. Features export a list of these from `features/<domain>/routes.ts`. */
export interface AppRoute {
  /** React Router path, absolute ('/tickets/:type'). */
  path: string;
  layout: LayoutKind;
  access?: RouteAccess;
  /** Only users holding one of these roles; others are sent to /access-denied. */
  roles?: readonly Role[];
  /**
   * Only users the server would let do what the screen is for (a permission rule of lib/access.ts); others are sent
   * to /access-denied before they fill a form that would be refused.
   */
  allow?: (user: User, params: Params) => boolean;
  /** Hide top bar, side nav and footer (SPEC 2.5: /extension; SPEC 2.1: /cookie-policy). */
  hideNavigation?: boolean;
  /** i18n key of the page title (document title and the default breadcrumb). */
  title?: string;
  /** The breadcrumb trail after Home; defaults to [title]. Return [] to show none. */
  crumbs?: (ctx: CrumbContext) => Crumb[];
  /** false for routes that only redirect: the navigation never offers them. Default true. */
  screen?: boolean;
  /** Loads the page component (a dynamic import, so each feature is its own chunk). */
  page: () => Promise<ComponentType>;
  /**
   * Starts the page's first data request on navigation, after the login check and beside the loading of its code.
   * It must not import what the login page does not load (it runs from the main bundle).
   */
  prefetch?: (url: URL) => void;
}

export interface RouteHandle {
  title?: string;
  crumbs?: AppRoute['crumbs'];
  hideNavigation?: boolean;
}
