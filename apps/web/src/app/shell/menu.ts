import type { MenuItem } from '@sitewatch/contracts/tenant-settings';

export interface MenuContext {
  roles: readonly string[];
  permissions: ReadonlySet<string>;
  /** Whether the app has a screen for the address (app/screens.ts). */
  hasScreen(to: string): boolean;
}

/**
 * SPEC 2.5 / 6: the side navigation offers an entry only when the user holds its permission (codename of the
 * first group) and one of its roles, and when this app has a screen for it. A group is kept while any child is.
 */
export function visibleMenu(items: readonly MenuItem[], ctx: MenuContext): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (item.permission && !ctx.permissions.has(item.permission)) continue;
    if (item.roles?.length && !item.roles.some((role) => ctx.roles.includes(role))) continue;
    const children = item.children?.length ? visibleMenu(item.children, ctx) : [];
    if (children.length) {
      out.push({ ...item, children });
      continue;
    }
    if (item.value && ctx.hasScreen(item.value)) out.push({ ...item, children: undefined });
  }
  return out;
}

const pathOf = (to: string) => to.split(/[?#]/)[0] ?? to;

/** Segment-aware prefix: /tickets/all is below /tickets/, /ticketsx is not. */
function isBelow(pathname: string, prefix: string): boolean {
  const base = prefix.replace(/\/+$/, '');
  if (!base) return false;
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** The entry of the current page: its own address, an address below it, or one of its childUrls. */
export function isItemActive(item: MenuItem, pathname: string): boolean {
  const own = pathOf(item.value).replace(/\/+$/, '') || '/';
  const here = pathname.replace(/\/+$/, '') || '/';
  if (own === '/') return here === '/';
  if (here === own || here.startsWith(`${own}/`)) return true;
  if (item.childUrls?.some((prefix) => isBelow(here, prefix))) return true;
  return Boolean(item.children?.some((child) => isItemActive(child, pathname)));
}

/** Flattens a menu to its leaf entries (the home page shows them as cards). */
export function leafItems(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((item) => (item.children?.length ? leafItems(item.children) : [item]));
}
