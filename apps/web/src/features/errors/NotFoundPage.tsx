import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StatusPage } from './StatusPage.tsx';

/** SPEC 2.1: the catch-all 404 page. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      testId="not-found-page"
      code="404"
      title={t('errors.notFoundTitle')}
      text={t('errors.notFoundText')}
      actions={
        <Button component={RouterLink} to="/" variant="contained">
          {t('app.goHome')}
        </Button>
      }
    />
  );
}
