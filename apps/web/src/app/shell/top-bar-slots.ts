import type { ComponentType } from 'react';

/** A button of the top bar that a feature owns (SPEC 2.6: the download status button, the notification bell). */
export interface TopBarSlot {
  id: string;
  /** Lower comes first (left). */
  order: number;
  /** Loaded lazily so the top bar stays small. */
  load: () => Promise<ComponentType>;
}

/**
 * The features that put a button into the top bar. Empty until the downloads and notifications features exist;
 * they add e.g. `{ id: 'notifications', order: 20, load: () => import('../../features/notifications/Bell.tsx').then((m) => m.Bell) }`.
 */
export const TOP_BAR_SLOTS: readonly TopBarSlot[] = [
  { id: 'downloads', order: 10, load: () => import('../../features/downloads/DownloadButton.tsx').then((m) => m.DownloadButton) },
  { id: 'notifications', order: 20, load: () => import('../../features/notifications/Bell.tsx').then((m) => m.Bell) },
];
