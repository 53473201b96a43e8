import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

/** A failed load with a retry. */
export function ErrorState({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      data-testid="error-state"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('app.retry')}
          </Button>
        ) : undefined
      }
    >
      {message ?? t('errors.loadFailed')}
    </Alert>
  );
}
