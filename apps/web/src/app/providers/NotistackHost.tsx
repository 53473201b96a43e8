import { closeSnackbar, enqueueSnackbar, type SnackbarKey, SnackbarProvider } from 'notistack';
import { useEffect } from 'react';
import { i18n } from '../../lib/i18n/index.ts';
import { usePrefersReducedMotion } from '../../lib/reduced-motion.ts';
import { drainToasts, subscribeToasts, TOAST_DURATION } from '../../lib/toasts.ts';

/** SPEC 9: toasts top right, below the top bar so its profile button stays usable; success 3 s, error 5 s. */
export function NotistackHost() {
  const reducedMotion = usePrefersReducedMotion();
  useEffect(() => {
    // A message already on screen is replaced rather than stacked or dropped: repeats stay one toast, and a repeated
    // confirmation (the same save twice) is seen afresh for its whole time instead of vanishing with the first.
    const onScreen = new Map<string, SnackbarKey>();
    const flush = () => {
      for (const toast of drainToasts()) {
        const shown = onScreen.get(toast.message);
        if (shown !== undefined) closeSnackbar(shown);
        const key = enqueueSnackbar(toast.message, {
          variant: toast.kind,
          autoHideDuration: TOAST_DURATION[toast.kind],
          onClose: (_event, _reason, closed) => {
            if (onScreen.get(toast.message) === closed) onScreen.delete(toast.message);
          },
          action: (key) => (
            <button type="button" className="toast-close" aria-label={i18n.t('app.close')} onClick={() => closeSnackbar(key)}>
              ×
            </button>
          ),
        });
        onScreen.set(toast.message, key);
      }
    };
    flush();
    return subscribeToasts(flush);
  }, []);
  return (
    <SnackbarProvider
      maxSnack={4}
      transitionDuration={reducedMotion ? { enter: 0, exit: 0 } : undefined}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      classes={{ containerAnchorOriginTopRight: 'toast-container-top-right' }}
    />
  );
}
