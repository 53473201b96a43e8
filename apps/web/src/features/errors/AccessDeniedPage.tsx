import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StatusPage } from './StatusPage.tsx';

/** SPEC 2.1: the 403 page. */
export function AccessDeniedPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      testId="access-denied-page"
      code="403"
      title={t('errors.accessDeniedTitle')}
      text={t('errors.accessDeniedText')}
      actions={
        <Button component={RouterLink} to="/" variant="contained">
          {t('app.goHome')}
        </Button>
      }
    />
  );
}
