import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** SPEC 2.16: optional seller logo, copyright with the current year, 'Powered by' logo. */
export function Footer({ sellerLogo }: { sellerLogo?: string }) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <Box
      component="footer"
      data-testid="footer"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 2,
        flexWrap: 'wrap',
        px: 3,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      {sellerLogo ? (
        <Box
          component="img"
          src={sellerLogo}
          alt={t('footer.sellerLogo')}
          sx={{ maxHeight: 28, maxWidth: 140 }}
          data-testid="seller-logo"
        />
      ) : null}
      <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }} data-testid="copyright">
        {t('footer.copyright', { year, name: t('app.name') })}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid="powered-by">
        <Typography variant="caption" color="text.secondary">
          {t('footer.poweredBy')}
        </Typography>
        <Box component="img" src="/images/powered-by.svg" alt={t('app.name')} sx={{ height: 20 }} />
      </Box>
    </Box>
  );
}
