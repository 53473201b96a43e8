import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { User } from '@sitewatch/contracts/auth';
import { isCustomerAdmin, ROLE_LABELS } from '@sitewatch/contracts/roles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fullName, logout } from '../../lib/session.ts';
import { useThemeMode } from '../providers/theme-mode.tsx';
import { AboutDialog } from './AboutDialog.tsx';

/** SPEC 2.6: the profile button (avatar, full name, first role) and its menu. */
/** `helplineEmail`: shown here on phones, where the top bar has no room for its e-mail link. */
export function ProfileMenu({ user, helplineEmail }: { user: User; helplineEmail?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mode, toggle } = useThemeMode();
  // Rendered only on phones: a hidden first item would take the menu's focus, and the keyboard would lose the menu.
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [aboutOpen, setAboutOpen] = useState(false);
  const name = fullName(user);
  const firstRole = user.userRole[0];
  const roleText = firstRole ? (ROLE_LABELS[firstRole] ?? firstRole) : '';
  const avatar = typeof user.profile?.avatar === 'string' && user.profile.avatar ? user.profile.avatar : '/images/avatar-placeholder.svg';
  const close = () => setAnchor(null);
  const go = (to: string) => {
    close();
    navigate(to);
  };

  return (
    <>
      <ButtonBase
        onClick={(event) => setAnchor(event.currentTarget)}
        // Named by the name and role it shows (WCAG 2.5.3), also on a phone where they are hidden; the menu it opens is
        // in aria-haspopup.
        aria-labelledby="profile-name profile-role"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'profile-menu' : undefined}
        data-testid="profile-button"
        sx={{
          borderRadius: 2,
          px: 1,
          py: 0.5,
          gap: 1,
          textAlign: 'left',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'inherit' },
        }}
      >
        <Avatar src={avatar} alt={t('topBar.avatarAlt', { name })} sx={{ width: 34, height: 34 }} />
        <Box sx={{ display: { xs: 'none', sm: 'block' }, lineHeight: 1.1 }}>
          <Typography id="profile-name" variant="body2" sx={{ fontWeight: 600, lineHeight: 1.2 }} data-testid="profile-name">
            {name}
          </Typography>
          {/* the space axe and screen readers read between the two lines, so the shown text is the name (WCAG 2.5.3) */}{' '}
          <Typography id="profile-role" variant="caption" sx={{ opacity: 0.8 }} data-testid="profile-role">
            {roleText}
          </Typography>
        </Box>
      </ButtonBase>
      <Menu
        id="profile-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 230 } } }}
      >
        {helplineEmail && phone ? (
          <MenuItem component="a" href={`mailto:${helplineEmail}`} data-testid="menu-helpline-email">
            <ListItemIcon>
              <EmailOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('topBar.helplineEmail', { email: helplineEmail })}</ListItemText>
          </MenuItem>
        ) : null}
        <MenuItem onClick={() => go('/account/change-password/')} data-testid="menu-change-password">
          <ListItemIcon>
            <LockResetOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('profileMenu.changePassword')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => go('/myprofile')} data-testid="menu-my-profile">
          <ListItemIcon>
            <PersonOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('profileMenu.myProfile')}</ListItemText>
        </MenuItem>
        {isCustomerAdmin(user.userRole) ? (
          <MenuItem onClick={() => go('/settings')} data-testid="menu-settings">
            <ListItemIcon>
              <SettingsOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('profileMenu.settings')}</ListItemText>
          </MenuItem>
        ) : null}
        <MenuItem
          onClick={toggle}
          data-testid="menu-theme"
          aria-label={`${t('profileMenu.theme')}: ${mode === 'dark' ? t('profileMenu.themeDark') : t('profileMenu.themeLight')}`}
        >
          <ListItemIcon>{mode === 'dark' ? <DarkModeOutlined fontSize="small" /> : <LightModeOutlined fontSize="small" />}</ListItemIcon>
          <ListItemText>{t('profileMenu.theme')}</ListItemText>
          <Typography variant="body2" color="text.secondary" sx={{ ml: 2 }}>
            {mode === 'dark' ? t('profileMenu.themeDark') : t('profileMenu.themeLight')}
          </Typography>
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            setAboutOpen(true);
          }}
          data-testid="menu-about"
        >
          <ListItemIcon>
            <InfoOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('profileMenu.about')}</ListItemText>
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            void logout();
          }}
          data-testid="menu-logout"
        >
          <ListItemIcon>
            <LogoutOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('profileMenu.logout')}</ListItemText>
        </MenuItem>
      </Menu>
      <AboutDialog open={aboutOpen} onClose={() => setAboutOpen(false)} />
    </>
  );
}
