import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void) {
  if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

const snapshot = () => typeof window !== 'undefined' && !!window.matchMedia?.(QUERY).matches;

/** Whether the person asked their system for less motion: the app then opens, closes and redraws without animating. */
export const usePrefersReducedMotion = () => useSyncExternalStore(subscribe, snapshot, () => false);
