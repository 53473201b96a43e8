import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { folderCrumbs } from './directory-order.ts';

/**
 * SPEC 2.5 breadcrumbs for dashboards: Home, then the folder path (/folder/{id}), then the page's own title when
 * given; shown only with more than one item, like the app's breadcrumbs.
 */
export function FolderCrumbs({ path, last }: { path: ReadonlyArray<{ id: number; name: string }>; last?: string }) {
  const { t } = useTranslation();
  const items = [{ label: t('nav.home'), to: '/' as string | undefined }, ...folderCrumbs(path, last)];
  if (items.length <= 1) return null;
  return (
    <Breadcrumbs aria-label={t('nav.breadcrumbs')} sx={{ mb: 2 }} data-testid="breadcrumbs">
      {items.map((item, index) =>
        index < items.length - 1 && item.to ? (
          <Link key={`${item.to}|${item.label}`} component={RouterLink} to={item.to} underline="hover" color="inherit">
            {item.label}
          </Link>
        ) : (
          <Typography
            key={`${item.to ?? ''}|${item.label}`}
            color="text.primary"
            aria-current={index === items.length - 1 ? 'page' : undefined}
          >
            {item.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
