import Box from '@mui/material/Box';
import { SITE_SEPARATOR } from '@sitewatch/contracts/sites';

/**
 * A device, camera or alarm named with its site, the one way every screen names them (its text is `nameWithSite`):
 * the label, then the site in a quieter colour. Labels repeat at every site (each has its RTR-01); the site tells
 * them apart.
 */
export function SiteNamed({ label, site }: { label: string; site: string | null | undefined }) {
  return (
    <Box component="span" data-testid="site-named">
      {label}
      {site ? (
        <Box component="span" sx={{ color: 'text.secondary' }} data-testid="site-name">
          {SITE_SEPARATOR}
          {site}
        </Box>
      ) : null}
    </Box>
  );
}
