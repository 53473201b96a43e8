import EmailOutlined from '@mui/icons-material/EmailOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import type { User } from '@sitewatch/contracts/auth';
import type { CustomerSettings } from '@sitewatch/contracts/tenant-settings';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCustomerLogo } from '../../features/tenant-settings/api.ts';
import { ProfileMenu } from './ProfileMenu.tsx';
import { TopBarSlots } from './TopBarSlots.tsx';

interface Props {
  user: User | null;
  settings: CustomerSettings | undefined;
  navOpen: boolean;
  onToggleNav(): void;
}

/** SPEC 2.6: logo, helpline links, feature buttons and the profile menu. */
export function TopBar({ user, settings, navOpen, onToggleNav }: Props) {
  const { t } = useTranslation();
  const logo = useCustomerLogo();
  const phone = settings?.helpline?.phone?.trim();
  const email = settings?.helpline?.email?.trim();
  const logoAlt = logo.data?.name ? t('topBar.logoAlt', { name: logo.data.name }) : t('topBar.defaultLogoAlt');
  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      {/* At phone width everything must fit beside the profile button: smaller logo and gaps, e-mail in the menu's place. */}
      <Toolbar sx={{ gap: { xs: 0.25, sm: 1 }, px: { xs: 1, sm: 2 }, minWidth: 0 }}>
        {user ? (
          <IconButton
            edge="start"
            onClick={onToggleNav}
            aria-label={navOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            aria-expanded={navOpen}
            aria-controls="side-nav"
            data-testid="nav-toggle"
          >
            <MenuIcon />
          </IconButton>
        ) : null}
        <Box
          component={RouterLink}
          to="/"
          sx={{ display: 'flex', alignItems: 'center', height: 40, mr: { xs: 0.5, sm: 2 }, flexShrink: 1, minWidth: 0 }}
          data-testid="top-bar-logo"
        >
          <Box
            component="img"
            src={logo.data?.logo || '/images/logo.svg'}
            alt={logoAlt}
            sx={{ height: 40, width: 'auto', maxWidth: { xs: 88, sm: 180 }, objectFit: 'contain', objectPosition: 'left center' }}
          />
        </Box>
        <Box sx={{ flex: 1 }} />
        {user && phone ? (
          <Tooltip title={t('topBar.helplinePhone', { phone })}>
            <Button
              href={`tel:${phone.replace(/[^\d+]/g, '')}`}
              startIcon={<PhoneOutlined />}
              color="inherit"
              aria-label={t('topBar.helplinePhone', { phone })}
              data-testid="helpline-phone"
              sx={{ display: { xs: 'none', md: 'inline-flex' }, fontWeight: 500 }}
            >
              {phone}
            </Button>
          </Tooltip>
        ) : null}
        {user && phone ? (
          <IconButton
            href={`tel:${phone.replace(/[^\d+]/g, '')}`}
            aria-label={t('topBar.helplinePhone', { phone })}
            sx={{ display: { xs: 'inline-flex', md: 'none' } }}
          >
            <PhoneOutlined />
          </IconButton>
        ) : null}
        {user && email ? (
          <Tooltip title={t('topBar.helplineEmail', { email })}>
            <IconButton
              href={`mailto:${email}`}
              aria-label={t('topBar.helplineEmail', { email })}
              data-testid="helpline-email"
              sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            >
              <EmailOutlined />
            </IconButton>
          </Tooltip>
        ) : null}
        {user ? <TopBarSlots /> : null}
        {user ? <ProfileMenu user={user} helplineEmail={email || undefined} /> : null}
      </Toolbar>
    </AppBar>
  );
}
