import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TRAP_MESSAGES, TRAP_PERMISSIONS, type TrapDestination } from '@sitewatch/contracts/snmp';
import { useState } from 'react';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { PAGE_SIZE, useDeleteDestination, useDestinations } from './api.ts';
import { DestinationDialog } from './DestinationDialog.tsx';
import { TrapStatsBar } from './TrapStatsBar.tsx';

function Counter({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Box sx={{ minWidth: 72 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" sx={{ color, lineHeight: 1.2 }} data-testid={`counter-${label.toLowerCase()}`}>
        {value.toLocaleString()}
      </Typography>
    </Box>
  );
}

function DestinationCard(props: { d: TrapDestination; onEdit?: () => void; onDelete?: () => void }) {
  const { d } = props;
  const [open, setOpen] = useState(false);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="destination-card">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1, minWidth: 160, overflowWrap: 'anywhere' }}>
          {d.name}
        </Typography>
        <Chip size="small" label={d.version} />
        <Chip size="small" label={d.mode === 'inform' ? 'Inform' : 'Trap'} variant="outlined" />
        <Chip size="small" label={d.enabled ? 'Enabled' : 'Disabled'} color={d.enabled ? 'success' : 'default'} />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
        udp:{d.host}:{d.port}
        {d.version === 'v3' ? ` · user ${d.user} (${d.securityLevel})` : ''}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ mt: 1.5, flexWrap: 'wrap' }}>
        <Counter label="Sent" value={d.sent} />
        <Counter label="Failed" value={d.failed} color={d.failed > 0 ? 'error.main' : undefined} />
        <Counter label="Dropped" value={d.dropped} color={d.dropped > 0 ? 'warning.main' : undefined} />
      </Stack>
      <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
        <Button size="small" onClick={() => setOpen((o) => !o)} disabled={d.lastFailures.length === 0} aria-expanded={open}>
          {d.lastFailures.length === 0 ? 'No failures' : `Last failures (${d.lastFailures.length})`}
        </Button>
        <Box sx={{ flex: 1 }} />
        {props.onEdit ? (
          <Button size="small" onClick={props.onEdit} aria-label={`Edit ${d.name}`}>
            Edit
          </Button>
        ) : null}
        {props.onDelete ? (
          <Button size="small" color="error" onClick={props.onDelete} aria-label={`Delete ${d.name}`}>
            Delete
          </Button>
        ) : null}
      </Box>
      <Collapse in={open} unmountOnExit>
        <Box component="ul" sx={{ m: 0, pl: 2, mt: 1 }} data-testid="destination-failures">
          {d.lastFailures.map((f) => (
            <Typography component="li" variant="body2" key={`${f.at}-${f.trapOid}-${f.error}`} sx={{ overflowWrap: 'anywhere' }}>
              {new Date(f.at).toLocaleString()} · {f.trapOid} · {f.error}
            </Typography>
          ))}
        </Box>
      </Collapse>
    </Paper>
  );
}

/** /trapforward/destinations: where traps are forwarded, with counters and the last failures. */
export function DestinationsPage() {
  const permissions = permissionsOf(useUser());
  const allowed = permissions.has(TRAP_PERMISSIONS.viewDestination);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<TrapDestination | 'new' | null>(null);
  const list = useDestinations(page, allowed);
  const remove = useDeleteDestination();
  const confirm = useDeleteConfirmation<{ id: number; name: string }>({
    mutation: remove,
    text: 'Traps are no longer forwarded to it; filters that named it keep their other destinations.',
    successMessage: TRAP_MESSAGES.deleted,
  });
  const denied = useDenied(allowed);
  if (denied) return denied;
  const total = list.data?.totalCount ?? 0;
  return (
    <Box>
      <PageHeader
        title="Trap Destinations"
        subtitle="SNMP managers that receive the traps your filters choose"
        actions={
          <>
            <Button onClick={() => list.refetch()} data-testid="destinations-refresh">
              Refresh
            </Button>
            {permissions.has(TRAP_PERMISSIONS.addDestination) ? (
              <Button variant="contained" onClick={() => setEditing('new')} data-testid="add-destination">
                Add destination
              </Button>
            ) : null}
          </>
        }
      />
      <TrapStatsBar />
      {confirm.dialog}
      {editing ? <DestinationDialog destination={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {list.isFetching ? <LinearProgress sx={{ mb: 1 }} /> : <Box sx={{ height: 4, mb: 1 }} />}
      {list.isError ? (
        <ErrorState onRetry={() => list.refetch()} />
      ) : list.data && total === 0 ? (
        <EmptyState title="No trap destinations yet" description="Add the SNMP manager (NOC, NMS) that should receive forwarded traps." />
      ) : (
        <Stack spacing={1.5} data-testid="destination-list">
          {(list.data?.contents ?? []).map((d) => (
            <DestinationCard
              key={d.id}
              d={d}
              onEdit={permissions.has(TRAP_PERMISSIONS.changeDestination) ? () => setEditing(d) : undefined}
              onDelete={permissions.has(TRAP_PERMISSIONS.deleteDestination) ? () => confirm.ask({ id: d.id, name: d.name }) : undefined}
            />
          ))}
        </Stack>
      )}
      {total > PAGE_SIZE ? (
        <Pagination sx={{ mt: 2 }} count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />
      ) : null}
    </Box>
  );
}
