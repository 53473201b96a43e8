import type { MenuItem } from '@sitewatch/contracts';
import { type Kysely, sql } from 'kysely';

/** A menu entry a new domain adds: under the group with this label (created at the end if missing), or at the top. */
export interface MenuAddition {
  item: MenuItem;
  /** Label of the top-level group the entry belongs to; omitted for a top-level entry. */
  group?: string;
  /** Icon of the group, when the group has to be created. */
  groupIcon?: string;
}

const hasValue = (items: readonly MenuItem[], value: string): boolean =>
  items.some((i) => (i.value !== '' && i.value === value) || hasValue(i.children ?? [], value));

/**
 * The menu with the additions a tenant does not have yet. An entry whose route (value) is anywhere in the menu is
 * left out, so the step is idempotent and keeps what a tenant administrator moved, renamed or removed from a group.
 */
export function withMenuEntries(menu: readonly MenuItem[], additions: readonly MenuAddition[]): MenuItem[] {
  const next = menu.map((i) => ({ ...i, ...(i.children ? { children: [...i.children] } : {}) }));
  for (const { item, group, groupIcon } of additions) {
    if (hasValue(next, item.value)) continue;
    if (!group) {
      next.push(item);
      continue;
    }
    let parent = next.find((i) => i.label === group && i.children);
    if (!parent) {
      parent = { label: group, value: '', ...(groupIcon ? { icon: groupIcon } : {}), children: [] };
      next.push(parent);
    }
    parent.children = [...(parent.children ?? []), item];
  }
  return next;
}

/**
 * For a migration of a new domain: adds its menu entries to every existing tenant's catalogue (tenants.settings.menu).
 * New tenants get them from the catalogue they are created with (demo/menu.ts); this reaches the tenants that exist.
 */
export async function addMenuEntries<DB>(db: Kysely<DB>, additions: readonly MenuAddition[]): Promise<number> {
  const { rows } = await sql<{ id: number; menu: MenuItem[] | null }>`select id, settings -> 'menu' as menu from tenants`.execute(db);
  let changed = 0;
  for (const row of rows) {
    const menu = Array.isArray(row.menu) ? row.menu : [];
    const next = withMenuEntries(menu, additions);
    if (JSON.stringify(next) === JSON.stringify(menu)) continue;
    await sql`update tenants set settings = jsonb_set(coalesce(settings, '{}'::jsonb), '{menu}', ${JSON.stringify(next)}::jsonb) where id = ${row.id}`.execute(
      db,
    );
    changed++;
  }
  return changed;
}
