import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

/**
 * What a page names itself as in the last breadcrumb once its data is there (a device, camera or equipment named
 * with its site): route crumbs are known from the path alone, the name only after loading. Kept per path, so a
 * name never outlives its page.
 */
type Named = { path: string; label: string };
let current: Named | null = null;
const listeners = new Set<() => void>();
const publish = (next: Named | null) => {
  current = next;
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Names the page in the breadcrumbs while it is shown (nothing while `label` is not known yet). */
export function usePageCrumb(label: string | null | undefined) {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!label) return;
    const named = { path: pathname, label };
    publish(named);
    return () => {
      if (current === named) publish(null);
    };
  }, [pathname, label]);
}

/** The name the page shown gave itself, or null. */
export function usePageCrumbLabel(): string | null {
  const { pathname } = useLocation();
  const named = useSyncExternalStore(subscribe, () => current);
  return named && named.path === pathname ? named.label : null;
}
