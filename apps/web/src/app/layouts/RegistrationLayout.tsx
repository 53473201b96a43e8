import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, Link as RouterLink } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { MuiProviders } from '../providers/MuiProviders.tsx';
import { Footer } from '../shell/Footer.tsx';

/** SPEC 2.3: the registration screens: a logo, the form, the footer; no navigation. */
export function RegistrationLayout() {
  return (
    <MuiProviders>
      <RegistrationFrame />
    </MuiProviders>
  );
}

function RegistrationFrame() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ px: 3, py: 2 }}>
        <RouterLink to="/">
          <img src="/images/logo.svg" alt={t('app.name')} width={160} height={40} />
        </RouterLink>
      </Box>
      <Container component="main" id="main-content" maxWidth="md" sx={{ flex: 1, py: 3 }}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Container>
      <Footer />
    </Box>
  );
}
