import type { ComponentType } from 'react';

/** A route's page loader for a module that exports several screens: the named export of a dynamic import. */
export const lazyPage =
  <K extends string>(load: () => Promise<Record<K, unknown>>, name: K) =>
  () =>
    load().then((m) => m[name] as ComponentType);
