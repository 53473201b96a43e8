import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { TRAP_MESSAGES, TRAP_PERMISSIONS, type TrapFilter } from '@sitewatch/contracts/snmp';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { PAGE_SIZE, useAllDestinations, useDeleteFilter, useFilters } from './api.ts';
import { FilterDialog } from './FilterDialog.tsx';
import { MappingsPanel } from './MappingsPanel.tsx';
import { ReceivingPanel } from './ReceivingPanel.tsx';
import { TrapStatsBar } from './TrapStatsBar.tsx';
import { UnmatchedPanel } from './UnmatchedPanel.tsx';

const TABS = ['filters', 'mappings', 'unmatched', 'receiving'] as const;

function describe(f: TrapFilter): string {
  const parts = [f.oidPrefix ? `OID ${f.oidPrefix}…` : 'every trap'];
  if (f.varbindOid) parts.push(`${f.varbindOid} contains “${f.varbindValue}”`);
  if (f.siteName) parts.push(`site ${f.siteName}`);
  if (f.deviceLabel) parts.push(`device ${nameWithSite(f.deviceLabel, f.deviceSiteName)}`);
  if (f.minSeverity) parts.push(`${f.minSeverity} or worse`);
  return parts.join(' · ');
}

function FiltersList(props: { permissions: Set<string> }) {
  const { permissions } = props;
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<TrapFilter | 'new' | null>(null);
  const list = useFilters(page);
  const destinations = useAllDestinations();
  const names = new Map((destinations.data?.contents ?? []).map((d) => [d.id, d.name]));
  const remove = useDeleteFilter();
  const confirm = useDeleteConfirmation<{ id: number; name: string }>({
    mutation: remove,
    text: 'Traps it matched are no longer forwarded by it.',
    successMessage: TRAP_MESSAGES.deleted,
  });
  const total = list.data?.totalCount ?? 0;
  return (
    <Box>
      {permissions.has(TRAP_PERMISSIONS.addFilter) ? (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1.5 }}>
          <Button variant="contained" onClick={() => setEditing('new')} data-testid="add-filter">
            Add filter
          </Button>
        </Box>
      ) : null}
      {confirm.dialog}
      {editing ? <FilterDialog filter={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {list.isFetching ? <LinearProgress sx={{ mb: 1 }} /> : <Box sx={{ height: 4, mb: 1 }} />}
      {list.isError ? (
        <ErrorState onRetry={() => list.refetch()} />
      ) : list.data && total === 0 ? (
        <EmptyState title="No trap filters yet" description="A filter chooses which traps go to which destinations." />
      ) : (
        <Stack spacing={1.5} data-testid="filter-list">
          {(list.data?.contents ?? []).map((f) => (
            <Paper key={f.id} variant="outlined" sx={{ p: 2 }} data-testid="filter-card">
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1, minWidth: 160, overflowWrap: 'anywhere' }}>
                  {f.name}
                </Typography>
                <Chip size="small" label={`${f.matched.toLocaleString()} matched`} data-testid="filter-matched" />
                <Chip size="small" label={f.enabled ? 'Enabled' : 'Disabled'} color={f.enabled ? 'success' : 'default'} />
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                {describe(f)}
              </Typography>
              <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                To: {f.destinationIds.map((id) => names.get(id) ?? `#${id}`).join(', ') || 'no destination'}
              </Typography>
              <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
                {permissions.has(TRAP_PERMISSIONS.changeFilter) ? (
                  <Button size="small" onClick={() => setEditing(f)} aria-label={`Edit ${f.name}`}>
                    Edit
                  </Button>
                ) : null}
                {permissions.has(TRAP_PERMISSIONS.deleteFilter) ? (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => confirm.ask({ id: f.id, name: f.name })}
                    aria-label={`Delete ${f.name}`}
                  >
                    Delete
                  </Button>
                ) : null}
              </Box>
            </Paper>
          ))}
        </Stack>
      )}
      {total > PAGE_SIZE ? (
        <Pagination sx={{ mt: 2 }} count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />
      ) : null}
    </Box>
  );
}

/** /trapforward/filters: which traps are forwarded where, the OID → alarm mappings, and the traps nothing took. */
export function FiltersPage() {
  const permissions = permissionsOf(useUser());
  const allowed = permissions.has(TRAP_PERMISSIONS.viewFilter);
  const [params, setParams] = useSearchParams();
  const canReceive = permissions.has(TRAP_PERMISSIONS.changeFilter);
  const asked = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as (typeof TABS)[number]) : 'filters';
  const tab = asked === 'receiving' && !canReceive ? 'filters' : asked;
  const denied = useDenied(allowed);
  if (denied) return denied;
  return (
    <Box>
      <PageHeader title="Trap Filters" subtitle="Which SNMP traps raise alarms and where they are forwarded" />
      <TrapStatsBar />
      <Tabs
        value={tab}
        onChange={(_e, value: string) => setParams(value === 'filters' ? {} : { tab: value }, { replace: true })}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 2 }}
      >
        <Tab value="filters" label="Filters" />
        <Tab value="mappings" label="OID mappings" data-testid="tab-mappings" />
        <Tab value="unmatched" label="Unmatched traps" data-testid="tab-unmatched" />
        {canReceive ? <Tab value="receiving" label="Receiving" data-testid="tab-receiving" /> : null}
      </Tabs>
      {tab === 'filters' ? (
        <FiltersList permissions={permissions} />
      ) : tab === 'mappings' ? (
        <MappingsPanel permissions={permissions} />
      ) : tab === 'unmatched' ? (
        <UnmatchedPanel />
      ) : (
        <ReceivingPanel />
      )}
    </Box>
  );
}
