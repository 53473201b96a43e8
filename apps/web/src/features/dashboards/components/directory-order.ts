/** Moves the item at `from` one place up (-1) or down (+1); the same array when it cannot move. */
export function moveInList<T>(items: readonly T[], from: number, step: -1 | 1): readonly T[] {
  const to = from + step;
  if (from < 0 || from >= items.length || to < 0 || to >= items.length) return items;
  const next = [...items];
  const [item] = next.splice(from, 1) as [T];
  next.splice(to, 0, item);
  return next;
}

/** Items in `index` order (ties by id, so the order is stable). */
export const byIndex = <T extends { index: number; id: number }>(items: readonly T[]) =>
  [...items].sort((a, b) => a.index - b.index || a.id - b.id);

/** Folders a folder may move into: not itself and none below it (the server refuses those). */
export function folderTargets<T extends { id: number; parentId: number | null }>(folders: readonly T[], moving: number | null): T[] {
  if (moving === null) return [...folders];
  const below = new Set<number>([moving]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const f of folders) {
      if (f.parentId !== null && below.has(f.parentId) && !below.has(f.id)) {
        below.add(f.id);
        grew = true;
      }
    }
  }
  return folders.filter((f) => !below.has(f.id));
}

/** Breadcrumb trail of a folder path: each folder linked, the last item (or the dashboard title) not. */
export function folderCrumbs(path: ReadonlyArray<{ id: number; name: string }>, last?: string): Array<{ label: string; to?: string }> {
  const seen = new Set<number>();
  const unique = path.filter((p) => !seen.has(p.id) && seen.add(p.id));
  const items: Array<{ label: string; to?: string }> = unique.map((p) => ({ label: p.name, to: `/folder/${p.id}` }));
  if (last) items.push({ label: last });
  return items;
}
