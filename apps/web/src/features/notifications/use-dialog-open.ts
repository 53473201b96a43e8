import { useSyncExternalStore } from 'react';

/**
 * Whether a modal dialog is open anywhere in the page (a live video or camera recording dialog above all):
 * popups stop counting down meanwhile (SPEC 4).
 */
const isOpen = () => typeof document !== 'undefined' && document.querySelector('.MuiDialog-root') !== null;

function subscribe(listener: () => void) {
  if (typeof MutationObserver === 'undefined') return () => undefined;
  const observer = new MutationObserver(listener);
  observer.observe(document.body, { childList: true });
  return () => observer.disconnect();
}

export const useDialogOpen = () => useSyncExternalStore(subscribe, isOpen, () => false);
