import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { CustomerSettings } from '@sitewatch/contracts/tenant-settings';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useMatches } from 'react-router';
import { usePageCrumbLabel } from '../../lib/page-crumb.ts';
import { useUser } from '../../lib/session.ts';
import type { Crumb, RouteHandle } from '../route-types.ts';
import { withRememberedQuery } from './query-memory.ts';

/** SPEC 2.5: starts with Home, shown only with more than one item; links keep each page's last query string. */
export function AppBreadcrumbs({ settings }: { settings: CustomerSettings | undefined }) {
  const { t } = useTranslation();
  const user = useUser();
  const matches = useMatches();
  const named = usePageCrumbLabel();
  const match = [...matches].reverse().find((m) => {
    const handle = m.handle as RouteHandle | undefined;
    return handle?.crumbs || handle?.title;
  });
  const handle = match?.handle as RouteHandle | undefined;
  if (!match || !handle) return null;
  const tail: Crumb[] = handle.crumbs
    ? handle.crumbs({ params: match.params, user, settings, t: (key, options) => t(key, { ...options }) })
    : handle.title
      ? [{ label: t(handle.title) }]
      : [];
  const last = tail.at(-1);
  // the page's own name once loaded (a device named with its site) instead of the route's title
  if (named && last) tail[tail.length - 1] = { ...last, label: named };
  const items: Crumb[] = [{ label: t('nav.home'), to: '/' }, ...tail];
  if (items.length <= 1) return null;
  return (
    <Breadcrumbs aria-label={t('nav.breadcrumbs')} sx={{ mb: 2 }} data-testid="breadcrumbs">
      {items.map((item, index) =>
        index < items.length - 1 && item.to ? (
          <Link
            key={`${item.to ?? ''}|${item.label}`}
            component={RouterLink}
            to={withRememberedQuery(item.to)}
            underline="hover"
            color="inherit"
          >
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
