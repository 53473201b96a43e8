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
import { COMMAND_PERMISSION } from '@sitewatch/contracts/commands';
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
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { StatusChip } from '../devices/components.tsx';
import { type Option, SitePicker } from '../sites/Pickers.tsx';
import { asBool, type LiveValues, useAccessEvents, useDeviceCommand, useDoors, useLiveValues } from './api.ts';
import { CommandStateChip } from './components.tsx';

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
  const permissions = permissionsOf(useUser());
  const canCommand = permissions.has(COMMAND_PERMISSION);
  const [site, setSite] = useState<Option | null>(null);
  const [kind, setKind] = useState('');
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(25);
  const [doorPage, setDoorPage] = useState(0);
  const [asking, setAsking] = useState<Door | null>(null);
  const [sent, setSent] = useState<Record<string, number>>({});
  const siteQuery = site ? { assetId: site.id } : {};
  const doors = useDoors({ ...siteQuery, page: doorPage + 1, limit: 24 });
  const events = useAccessEvents({ ...siteQuery, ...(kind ? { kind } : {}), page: page + 1, limit });
  const live = useLiveValues((doors.data?.contents ?? []).map((d) => d.deviceId));
  const { send, stateOf } = useDeviceCommand();
  const keyOf = (d: Door) => `${d.deviceId}:${d.door}`;

  const open = (door: Door) =>
    send.mutate(
      { deviceId: door.deviceId, method: DEVICE_OPS_METHODS.openDoor, params: { door: door.door } },
      {
        onSuccess: (command) => {
          setSent((s) => ({ ...s, [keyOf(door)]: command.id }));
          toast.success(command.state === 'queued' ? 'Command queued until the device connects' : 'Command sent');
          setAsking(null);
        },
        onError: (error) => {
          toast.error(isHttpError(error) ? (detailOf(error.data) ?? 'Command not sent') : 'Command not sent');
          setAsking(null);
        },
      },
    );

  return (
    <Box>
      <PageHeader title="Access Control" subtitle="Doors and readers at your sites, with their live events" />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <Box sx={{ minWidth: 220, flex: { xs: 1, sm: 'none' } }}>
          <SitePicker
            label="Site"
            value={site}
            onChange={(v) => {
              setSite(v);
              setPage(0);
              setDoorPage(0);
            }}
          />
        </Box>
      </Box>

      <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
        Doors
      </Typography>
      {doors.isError ? (
        <ErrorState onRetry={() => doors.refetch()} />
      ) : doors.isLoading ? (
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={120} />
          ))}
        </Box>
      ) : doors.data?.totalCount === 0 ? (
        <EmptyState compact title="No doors" description="No access controller at the sites you see." data-testid="doors-empty" />
      ) : (
        <>
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }} data-testid="door-list">
            {(doors.data?.contents ?? []).map((door) => {
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
                      <CommandStateChip state={stateOf(sent[keyOf(door)])} />
                      <Box sx={{ flex: 1 }} />
                      {canCommand ? (
                        <Button size="small" variant="contained" onClick={() => setAsking(door)} data-testid="open-door">
                          Open door
                        </Button>
                      ) : null}
                    </Box>
                  </CardContent>
                </Card>
              );
            })}
          </Box>
          {(doors.data?.totalCount ?? 0) > 24 ? (
            <TablePagination
              component="div"
              count={doors.data?.totalCount ?? 0}
              page={doorPage}
              rowsPerPage={24}
              rowsPerPageOptions={[24]}
              onPageChange={(_e, p) => setDoorPage(p)}
            />
          ) : null}
        </>
      )}

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
        open={asking !== null}
        title="Open door"
        text={asking ? DEVICE_OPS_MESSAGES.openDoorConfirm(`${asking.name} at ${asking.siteName ?? asking.deviceLabel}`) : ''}
        confirmLabel="Open"
        busy={send.isPending}
        onConfirm={() => asking && open(asking)}
        onClose={() => setAsking(null)}
      />
    </Box>
  );
}
