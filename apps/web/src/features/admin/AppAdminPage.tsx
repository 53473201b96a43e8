import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AdministratorRightsPanel } from './AdministratorRightsPanel.tsx';
import { useBackups } from './api.ts';
import { BackupsPanel } from './BackupsPanel.tsx';
import { OutboundNetworksPanel } from './OutboundNetworksPanel.tsx';
import { OutboxPanel } from './OutboxPanel.tsx';
import { SystemAlertsPanel } from './SystemAlertsPanel.tsx';

type TabKey = 'outbox' | 'alerts' | 'rights' | 'networks' | 'backups';

/**
 * /app-admin (system admin): the SMS outbox, the system alerts, restoring the administrators' rights, the networks
 * the organisation's devices may be reached in, and the installation's backups (shown to the system
 * administrators of the installation's own tenant only). The tab is in the address (?tab=).
 */
export function AppAdminPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const backups = useBackups();
  const withBackups = backups.data?.available === true;
  const asked = params.get('tab');
  const tab: TabKey =
    asked === 'alerts' || asked === 'rights' || asked === 'networks' ? asked : asked === 'backups' && withBackups ? 'backups' : 'outbox';
  return (
    <Box data-testid="app-admin-page">
      <PageHeader title={t('admin.title')} />
      <Tabs
        value={tab}
        onChange={(_e, value: TabKey) => setParams(value === 'outbox' ? {} : { tab: value }, { replace: true })}
        aria-label={t('admin.title')}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="outbox" label={t('admin.outbox')} id="admin-tab-outbox" aria-controls="admin-panel-outbox" data-testid="tab-outbox" />
        <Tab value="alerts" label={t('admin.alerts')} id="admin-tab-alerts" aria-controls="admin-panel-alerts" data-testid="tab-alerts" />
        <Tab value="rights" label={t('admin.rights')} id="admin-tab-rights" aria-controls="admin-panel-rights" data-testid="tab-rights" />
        <Tab
          value="networks"
          label="Device networks"
          id="admin-tab-networks"
          aria-controls="admin-panel-networks"
          data-testid="tab-networks"
        />
        {withBackups && (
          <Tab
            value="backups"
            label={t('admin.backups')}
            id="admin-tab-backups"
            aria-controls="admin-panel-backups"
            data-testid="tab-backups"
          />
        )}
      </Tabs>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'outbox' ? (
          <OutboxPanel />
        ) : tab === 'alerts' ? (
          <SystemAlertsPanel />
        ) : tab === 'rights' ? (
          <AdministratorRightsPanel />
        ) : tab === 'networks' ? (
          <OutboundNetworksPanel />
        ) : (
          <BackupsPanel backups={backups} />
        )}
      </div>
    </Box>
  );
}
