import { lazy, Suspense, useSyncExternalStore } from 'react';
import { hasToasts, subscribeToasts } from '../../lib/toasts.ts';

const NotistackHost = lazy(() => import('./NotistackHost.tsx').then((m) => ({ default: m.NotistackHost })));

/** Loads the toast library with the first toast, so pages that never toast never load it. */
export function ToastHost() {
  const needed = useSyncExternalStore(subscribeToasts, hasToasts, () => false);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotistackHost />
    </Suspense>
  );
}
