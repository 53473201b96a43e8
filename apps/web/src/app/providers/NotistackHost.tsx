import { closeSnackbar, enqueueSnackbar, SnackbarProvider } from 'notistack';
import { useEffect } from 'react';
import { i18n } from '../../lib/i18n/index.ts';
import { drainToasts, subscribeToasts, TOAST_DURATION } from '../../lib/toasts.ts';

/** SPEC 9: toasts top right, below the top bar so its profile button stays usable; success 3 s, error 5 s. */
export function NotistackHost() {
  useEffect(() => {
    const flush = () => {
      for (const toast of drainToasts()) {
        enqueueSnackbar(toast.message, {
          variant: toast.kind,
          autoHideDuration: TOAST_DURATION[toast.kind],
          preventDuplicate: true,
          action: (key) => (
            <button type="button" className="toast-close" aria-label={i18n.t('app.close')} onClick={() => closeSnackbar(key)}>
              ×
            </button>
          ),
        });
      }
    };
    flush();
    return subscribeToasts(flush);
  }, []);
  return (
    <SnackbarProvider
      maxSnack={4}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      classes={{ containerAnchorOriginTopRight: 'toast-container-top-right' }}
      preventDuplicate
    />
  );
}
