import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { StatusPage } from './StatusPage.tsx';

/** SPEC 2.1: shown on HTTP 421, when the address belongs to no tenant. No login check, no API call. */
export function TenantNotFoundPage() {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      id="main-content"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'background.default' }}
    >
      <Box>
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <img src="/images/logo.svg" alt={t('app.name')} width={160} height={40} />
        </Box>
        <StatusPage
          testId="tenant-not-found-page"
          code="421"
          title={t('errors.tenantTitle')}
          text={t('errors.tenantText')}
          actions={
            <Button variant="outlined" onClick={() => window.location.reload()}>
              {t('app.retry')}
            </Button>
          }
        />
      </Box>
    </Box>
  );
}
