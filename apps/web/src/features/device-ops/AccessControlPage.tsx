import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ACCESS_EVENT_KINDS,
  ACCESS_EVENT_LABELS,
  ACCESS_KEYS,
  type AccessEventKind,
  DEVICE_OPS_MESSAGES,
  DEVICE_OPS_METHODS,
  type Door,
} from '@sitewatch/contracts/device-ops';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { StatusChip } from '../devices/components.tsx';
import { asBool, type LiveValues, useAccessEvents, useDoors, useLiveValues } from './api.ts';
import { CommandStateChip } from './components.tsx';
import { DeviceListFilterBar, DeviceListShell, useDeviceListFilters } from './DeviceListShell.tsx';
import { useConfirmedCommand } from './useConfirmedCommand.ts';

const KIND_COLOURS: Record<AccessEventKind, 'success' | 'error' | 'warning' | 'info'> = {
  granted: 'success',
  denied: 'warning',
  forced: 'error',
  held_open: 'warning',
  remote_open: 'info',
};

function doorState(door: Door, live: LiveValues) {
  const v = live[door.deviceId] ?? {};
  return {
    open: asBool(v[ACCESS_KEYS.open(door.door)], door.open),
    forced: asBool(v[ACCESS_KEYS.forced(door.door)], door.forced),
    heldOpen: asBool(v[ACCESS_KEYS.heldOpen(door.door)], door.heldOpen),
  };
}

function DoorStateChip({ state }: { state: ReturnType<typeof doorState> }) {
  if (state.forced) return <Chip size="small" color="error" label="Forced" />;
  if (state.heldOpen) return <Chip size="small" color="warning" label="Held open" />;
  if (state.open === null) return <Chip size="small" variant="outlined" label="No state" />;
  return <Chip size="small" color={state.open ? 'info' : 'default'} label={state.open ? 'Open' : 'Closed'} />;
}

const time = (iso: string) => new Date(iso).toLocaleString();

/** /access-control: the doors and readers of the sites the user sees, live events, and remote opening. */
export function AccessControlPage() {
  const [kind, setKind] = useState('');
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(25);
  const filters = useDeviceListFilters(24, () => setPage(0));
  const siteQuery = filters.site ? { assetId: filters.site.id } : {};
  const doors = useDoors(filters.query);
  const events = useAccessEvents({ ...siteQuery, ...(kind ? { kind } : {}), page: page + 1, limit });
  const live = useLiveValues((doors.data?.contents ?? []).map((d) => d.deviceId));
  const keyOf = (d: Door) => `${d.deviceId}:${d.door}`;
  const command = useConfirmedCommand((door: Door) => ({
    key: keyOf(door),
    deviceId: door.deviceId,
    method: DEVICE_OPS_METHODS.openDoor,
    params: { door: door.door },
  }));

  return (
    <Box>
      <PageHeader title="Access Control" subtitle="Doors and readers at your sites, with their live events" />
      <DeviceListFilterBar filters={filters} />

      <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
        Doors
      </Typography>
      <DeviceListShell
        list={doors}
        filters={filters}
        card={{ minWidth: 260, height: 120 }}
        testId="door-list"
        empty={{ title: 'No doors', description: 'No access controller at the sites you see.', testId: 'doors-empty' }}
        pageSizes={[24]}
      >
        {(items) =>
          items.map((door) => {
            const state = doorState(door, live);
            return (
              <Card key={keyOf(door)} variant="outlined" data-testid="door-card">
                <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.75 }}>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                    <Typography sx={{ fontWeight: 600, flex: 1 }} data-testid="door-name">
                      {door.name}
                    </Typography>
                    <DoorStateChip state={state} />
                  </Box>
                  <Typography variant="body2" color="text.secondary">
                    {door.reader} · {door.deviceLabel}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {door.siteName ?? 'No site'}
                  </Typography>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                    <StatusChip status={door.status} />
                    <CommandStateChip state={command.stateOf(keyOf(door))} />
                    <Box sx={{ flex: 1 }} />
                    {command.allowed ? (
                      <Button size="small" variant="contained" onClick={() => command.ask(door)} data-testid="open-door">
                        Open door
                      </Button>
                    ) : null}
                  </Box>
                </CardContent>
              </Card>
            );
          })
        }
      </DeviceListShell>

      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 3, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h2" sx={{ fontSize: 18, flex: 1 }}>
          Events
        </Typography>
        <TextField
          select
          size="small"
          label="Event"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value);
            setPage(0);
          }}
          sx={{ minWidth: 180 }}
          data-testid="event-kind"
        >
          <MenuItem value="">All events</MenuItem>
          {ACCESS_EVENT_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {ACCESS_EVENT_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {events.isError ? (
        <ErrorState onRetry={() => events.refetch()} />
      ) : events.isLoading ? (
        <Skeleton variant="rounded" height={200} />
      ) : events.data?.totalCount === 0 ? (
        <EmptyState compact title="No events" description="Events appear here as the readers report them." />
      ) : (
        <Card variant="outlined">
          <List dense disablePadding data-testid="event-list">
            {(events.data?.contents ?? []).map((e) => (
              <ListItem key={e.id} divider data-testid="event-row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                <Chip size="small" color={KIND_COLOURS[e.kind]} label={ACCESS_EVENT_LABELS[e.kind]} sx={{ minWidth: 120 }} />
                <ListItemText
                  primary={`${e.doorName} · ${e.siteName ?? e.deviceLabel}`}
                  secondary={[e.credential, time(e.at)].filter(Boolean).join(' · ')}
                  sx={{ minWidth: 180 }}
                />
              </ListItem>
            ))}
          </List>
          <TablePagination
            component="div"
            count={events.data?.totalCount ?? 0}
            page={page}
            rowsPerPage={limit}
            rowsPerPageOptions={[10, 25, 50]}
            onPageChange={(_e, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setLimit(Number(e.target.value));
              setPage(0);
            }}
          />
        </Card>
      )}

      <ConfirmDialog
        {...command.dialog}
        title="Open door"
        text={
          command.asking
            ? DEVICE_OPS_MESSAGES.openDoorConfirm(`${command.asking.name} at ${command.asking.siteName ?? command.asking.deviceLabel}`)
            : ''
        }
        confirmLabel="Open"
      />
    </Box>
  );
}
