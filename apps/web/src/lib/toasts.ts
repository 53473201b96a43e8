import { TOAST_DURATION_MS } from '@sitewatch/contracts/constants';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

/** SPEC 9: success 3 s, error 5 s (warnings as errors, information as success). */
export const TOAST_DURATION: Record<ToastKind, number> = {
  success: TOAST_DURATION_MS.success,
  error: TOAST_DURATION_MS.error,
  warning: TOAST_DURATION_MS.error,
  info: TOAST_DURATION_MS.success,
};

interface PendingToast {
  kind: ToastKind;
  message: string;
}

/**
 * Toasts wait here until the toast host (app/providers/ToastHost.tsx) has loaded notistack and shows them.
 * Anything may call these, also code outside React such as the http client.
 */
let queue: PendingToast[] = [];
let requested = false;
const listeners = new Set<() => void>();

export function showToast(kind: ToastKind, message: string) {
  if (!message) return;
  queue.push({ kind, message });
  requested = true;
  for (const fn of listeners) fn();
}

export function drainToasts(): PendingToast[] {
  const out = queue;
  queue = [];
  return out;
}

export const hasToasts = () => requested;

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const toast = {
  success: (message: string) => showToast('success', message),
  error: (message: string) => showToast('error', message),
  warning: (message: string) => showToast('warning', message),
  info: (message: string) => showToast('info', message),
};
