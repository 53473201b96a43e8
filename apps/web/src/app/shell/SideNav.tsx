import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import PendingActionsOutlined from '@mui/icons-material/PendingActionsOutlined';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { DEFAULT_ALIASES } from '@sitewatch/contracts/constants';
import type { MenuItem } from '@sitewatch/contracts/tenant-settings';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { hasScreen } from '../screens.ts';
import { SIDE_NAV_WIDTH } from '../theme.ts';
import { isItemActive } from './menu.ts';
import { NavIcon } from './nav-icons.tsx';

// the dashboards meant for the user load with their own chunk, after the shell
const UserDashboardsNav = lazy(() =>
  import('../../features/dashboards/nav/UserDashboardsNav.tsx').then((m) => ({ default: m.UserDashboardsNav })),
);

/** SPEC 2.5: the shortcut to open tickets, offered only once that screen exists. */
export const OPEN_TICKETS_SHORTCUT = '/tickets/all?status=OPEN';

interface Props {
  items: MenuItem[];
  ticketAlias?: string;
  open: boolean;
  /** Small screens: the navigation floats over the page and closes after a choice. */
  temporary: boolean;
  onClose(): void;
}

/** SPEC 2.5: the side navigation, 250 px wide, built from the customer's menu. */
export function SideNav({ items, ticketAlias, open, temporary, onClose }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
  const content = (
    <Box component="nav" id="side-nav" aria-label={t('nav.menu')} sx={{ width: SIDE_NAV_WIDTH, py: 1 }} data-testid="side-nav">
      {hasScreen(OPEN_TICKETS_SHORTCUT) ? (
        <List dense disablePadding sx={{ px: 1, mb: 1 }}>
          <ListItem disablePadding>
            <ListItemButton
              component={RouterLink}
              to={OPEN_TICKETS_SHORTCUT}
              onClick={temporary ? onClose : undefined}
              data-testid="nav-open-tickets"
            >
              <ListItemIcon>
                <PendingActionsOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={t('nav.openTickets', { ticket: ticketAlias || DEFAULT_ALIASES.ticket })} />
            </ListItemButton>
          </ListItem>
        </List>
      ) : null}
      <List dense disablePadding sx={{ px: 1 }}>
        {items.map((item) => (
          <NavEntry
            key={`${item.label}|${item.value}`}
            item={item}
            pathname={location.pathname}
            depth={0}
            onNavigate={temporary ? onClose : undefined}
          />
        ))}
      </List>
      <Suspense fallback={null}>
        <UserDashboardsNav onNavigate={temporary ? onClose : undefined} />
      </Suspense>
    </Box>
  );

  if (temporary) {
    return (
      <Drawer open={open} onClose={onClose} variant="temporary" slotProps={{ paper: { sx: { width: SIDE_NAV_WIDTH } } }}>
        {content}
      </Drawer>
    );
  }
  if (!open) return null;
  return (
    <Box
      sx={{
        width: SIDE_NAV_WIDTH,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        position: 'sticky',
        // Above the page's own positioned elements in paint order: a sticky layer painted before them would make the
        // browser give each of them a compositing layer of its own (assumed overlap), some 60 on a long form.
        zIndex: 1,
        top: 64,
        alignSelf: 'flex-start',
        height: 'calc(100vh - 64px)',
        overflowY: 'auto',
      }}
    >
      {content}
    </Box>
  );
}

function NavEntry({ item, pathname, depth, onNavigate }: { item: MenuItem; pathname: string; depth: number; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const active = isItemActive(item, pathname);
  const [expanded, setExpanded] = useState(active);
  const indent = { pl: 2 + depth * 2 };
  if (item.children?.length) {
    const groupId = `nav-group-${depth}-${item.label.replace(/\W+/g, '-')}`;
    // Every entry is a list item of its list, a group's own list inside it (valid list markup for screen readers).
    return (
      <ListItem disablePadding sx={{ display: 'block' }}>
        <ListItemButton
          onClick={() => setExpanded((v) => !v)}
          aria-expanded={expanded}
          aria-controls={groupId}
          aria-label={expanded ? t('nav.collapse', { label: item.label }) : t('nav.expand', { label: item.label })}
          sx={indent}
        >
          <ListItemIcon>
            <NavIcon name={item.icon} />
          </ListItemIcon>
          <ListItemText primary={item.label} />
          {expanded ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
        </ListItemButton>
        <Collapse in={expanded} timeout="auto" unmountOnExit id={groupId}>
          <List dense disablePadding>
            {item.children.map((child) => (
              <NavEntry key={`${child.label}|${child.value}`} item={child} pathname={pathname} depth={depth + 1} onNavigate={onNavigate} />
            ))}
          </List>
        </Collapse>
      </ListItem>
    );
  }
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton
        component={RouterLink}
        to={item.value}
        selected={active}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
        sx={{ ...indent, borderRadius: 1, mb: 0.25 }}
        data-testid={`nav-item-${item.value}`}
      >
        <ListItemIcon>
          <NavIcon name={item.icon} />
        </ListItemIcon>
        <ListItemText primary={item.label} />
      </ListItemButton>
    </ListItem>
  );
}
