import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** SPEC 2.1: no login check and no navigation. */
export function CookiePolicyPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', py: 4, px: 2 }} data-testid="cookie-policy-page">
      <Box sx={{ mb: 3 }}>
        <img src="/images/logo.svg" alt={t('app.name')} width={160} height={40} />
      </Box>
      <Paper sx={{ p: { xs: 2, sm: 4 } }} variant="outlined">
        <Typography variant="h1" component="h1" sx={{ mb: 2 }}>
          {t('cookiePolicy.title')}
        </Typography>
        <Typography sx={{ mb: 3 }}>{t('cookiePolicy.intro')}</Typography>
        <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
          {t('cookiePolicy.essential')}
        </Typography>
        <Typography sx={{ mb: 3 }}>{t('cookiePolicy.essentialText')}</Typography>
        <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
          {t('cookiePolicy.storage')}
        </Typography>
        <Typography sx={{ mb: 3 }}>{t('cookiePolicy.storageText')}</Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('cookiePolicy.contact')}
        </Typography>
        <Button component={RouterLink} to="/" variant="outlined">
          {t('app.goHome')}
        </Button>
      </Paper>
    </Box>
  );
}
