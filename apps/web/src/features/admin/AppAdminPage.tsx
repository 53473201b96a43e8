import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { OutboxPanel } from './OutboxPanel.tsx';
import { SystemAlertsPanel } from './SystemAlertsPanel.tsx';

type TabKey = 'outbox' | 'alerts';

/** /app-admin (system admin): the SMS outbox and the system alerts. The tab is in the address (?tab=). */
export function AppAdminPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: TabKey = params.get('tab') === 'alerts' ? 'alerts' : 'outbox';
  return (
    <Box data-testid="app-admin-page">
      <PageHeader title={t('admin.title')} />
      <Tabs
        value={tab}
        onChange={(_e, value: TabKey) => setParams(value === 'outbox' ? {} : { tab: value }, { replace: true })}
        aria-label={t('admin.title')}
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="outbox" label={t('admin.outbox')} id="admin-tab-outbox" aria-controls="admin-panel-outbox" data-testid="tab-outbox" />
        <Tab value="alerts" label={t('admin.alerts')} id="admin-tab-alerts" aria-controls="admin-panel-alerts" data-testid="tab-alerts" />
      </Tabs>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'outbox' ? <OutboxPanel /> : <SystemAlertsPanel />}
      </div>
    </Box>
  );
}
