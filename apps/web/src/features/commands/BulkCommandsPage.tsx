import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type BulkTarget, COMMAND_LIMITS, COMMAND_STATE_LABELS, COMMAND_STATES, type CommandState } from '@sitewatch/contracts/commands';
import { DEVICE_TYPE_LABELS, DEVICE_TYPES, type DeviceType } from '@sitewatch/contracts/devices';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { useDeferredValue, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { isHttpError } from '../../lib/http.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useBulkList, useBulkStatus, useCommandsLive, useSendBulk } from './api.ts';
import { CommandForm, type CommandOptions } from './CommandForm.tsx';
import { ReplyText, StateChip } from './components.tsx';

type Kind = BulkTarget['kind'];
const STATUS_PAGE = 100;

/** /device-commands: one command to the devices of a site, of a type, or a selection; each device's state updates live. */
export function BulkCommandsPage() {
  const [search, setSearch] = useSearchParams();
  const bulkId = Number(search.get('bulk')) || null;
  useCommandsLive();
  return (
    <Box>
      <PageHeader title="Device Commands" subtitle="Send one command to many devices and follow each device" />
      {bulkId ? (
        <BulkStatus id={bulkId} onBack={() => setSearch({})} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}>
          <BulkSend onSent={(id) => setSearch({ bulk: String(id) })} />
          <RecentBulks onOpen={(id) => setSearch({ bulk: String(id) })} />
        </Box>
      )}
    </Box>
  );
}

function BulkSend({ onSent }: { onSent(id: number): void }) {
  const [kind, setKind] = useState<Kind>('site');
  const [site, setSite] = useState<Option | null>(null);
  const [type, setType] = useState<DeviceType | ''>('');
  const [picked, setPicked] = useState<Option[]>([]);
  const [pending, setPending] = useState<CommandOptions | null>(null);
  const [error, setError] = useState<string | undefined>();
  const send = useSendBulk();

  const target: BulkTarget | null =
    kind === 'site'
      ? site
        ? { kind, assetId: site.id }
        : null
      : kind === 'type'
        ? type
          ? { kind, type, ...(site ? { assetId: site.id } : {}) }
          : null
        : picked.length > 0
          ? { kind, deviceIds: picked.map((p) => p.id) }
          : null;
  const describe =
    kind === 'site'
      ? `every device at ${site?.name ?? ''}`
      : kind === 'type'
        ? `every ${type ? DEVICE_TYPE_LABELS[type] : ''} device${site ? ` at ${site.name}` : ''}`
        : `${picked.length} selected device${picked.length === 1 ? '' : 's'}`;

  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        New bulk command
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={kind}
        onChange={(_e, v: Kind | null) => v && setKind(v)}
        sx={{ mb: 2, flexWrap: 'wrap' }}
        aria-label="Devices"
      >
        <ToggleButton value="site" data-testid="target-site">
          By site
        </ToggleButton>
        <ToggleButton value="type" data-testid="target-type">
          By type
        </ToggleButton>
        <ToggleButton value="devices" data-testid="target-devices">
          Selection
        </ToggleButton>
      </ToggleButtonGroup>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, mb: 2 }}>
        {kind !== 'devices' ? (
          <SitePicker label={kind === 'type' ? 'Site (optional)' : 'Site'} value={site} onChange={setSite} required={kind === 'site'} />
        ) : null}
        {kind === 'type' ? (
          <TextField
            select
            size="small"
            label="Device type"
            value={type}
            onChange={(e) => setType(e.target.value as DeviceType)}
            slotProps={{ htmlInput: { 'data-testid': 'target-type-select' } }}
          >
            {DEVICE_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {DEVICE_TYPE_LABELS[t]}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        {kind === 'devices' ? (
          <Box sx={{ gridColumn: '1 / -1' }}>
            <DevicePicker
              label="Add a device"
              value={null}
              onChange={(d) =>
                d && !picked.some((p) => p.id === d.id) && picked.length < COMMAND_LIMITS.bulkMaxDevices && setPicked([...picked, d])
              }
            />
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }} data-testid="picked-devices">
              {picked.map((p) => (
                <Chip
                  key={p.id}
                  size="small"
                  label={nameWithSite(p.label ?? p.name, p.assetName)}
                  onDelete={() => setPicked(picked.filter((x) => x.id !== p.id))}
                />
              ))}
            </Box>
          </Box>
        ) : null}
      </Box>
      <CommandForm
        submitLabel="Send to devices"
        disabled={!target}
        busy={send.isPending}
        error={error}
        onSubmit={(options) => {
          setError(undefined);
          setPending(options);
        }}
      />
      <ConfirmDialog
        open={pending !== null}
        title={`Send '${pending?.method ?? ''}' to ${describe}?`}
        text="Each device gets the command now, or when it next connects (until it expires)."
        confirmLabel="Send"
        busy={send.isPending}
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (!pending || !target) return;
          send.mutate(
            { target, ...pending },
            {
              onSuccess: (bulk) => {
                setPending(null);
                onSent(bulk.id);
              },
              onError: (e) => {
                setPending(null);
                setError(isHttpError(e) ? (e.detail ?? e.message) : 'Not sent. Try again.');
              },
            },
          );
        }}
      />
    </Paper>
  );
}

function RecentBulks({ onOpen }: { onOpen(id: number): void }) {
  const [page, setPage] = useState(0);
  const list = useBulkList({ page: page + 1, limit: 10 });
  const rows = list.data?.contents ?? [];
  if (list.isLoading) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Recent bulk commands
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No bulk commands yet.
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Sent</TableCell>
                <TableCell>Method</TableCell>
                <TableCell>Devices</TableCell>
                <TableCell>Done</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((b) => (
                <TableRow key={b.id} hover sx={{ cursor: 'pointer' }} onClick={() => onOpen(b.id)} data-testid="bulk-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Link to={`/device-commands?bulk=${b.id}`}>{formatDateTime(b.createdAt)}</Link>
                  </TableCell>
                  <TableCell>
                    <code>{b.method}</code>
                  </TableCell>
                  <TableCell>{b.total}</TableCell>
                  <TableCell>
                    {b.counts.successful + b.counts.delivered}/{b.total}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={list.data?.totalCount ?? 0}
            page={page}
            onPageChange={(_e, p) => setPage(p)}
            rowsPerPage={10}
            rowsPerPageOptions={[10]}
          />
        </Box>
      )}
    </Paper>
  );
}

function BulkStatus({ id, onBack }: { id: number; onBack(): void }) {
  const [page, setPage] = useState(0);
  const [state, setState] = useState<CommandState | ''>('');
  const [searchText, setSearchText] = useState('');
  const search = useDeferredValue(searchText.trim());
  const status = useBulkStatus(id, { page: page + 1, limit: STATUS_PAGE, state: state || undefined, search: search || undefined });
  if (status.isLoading) return <Typography color="text.secondary">Loading…</Typography>;
  const b = status.data;
  if (!b)
    return (
      <EmptyState
        title="Bulk command not found"
        description="It does not exist or was sent by someone else."
        action={<Button onClick={onBack}>Back</Button>}
      />
    );
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }} data-testid="bulk-status">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1.5 }}>
        <Button size="small" onClick={onBack}>
          New bulk command
        </Button>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          <code>{b.method}</code> to {b.total} device{b.total === 1 ? '' : 's'}
        </Typography>
        <Chip
          size="small"
          color={b.finished ? 'success' : 'info'}
          label={b.finished ? 'Finished' : 'In progress'}
          data-testid="bulk-finished"
        />
      </Box>
      <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap', mb: 1.5 }} data-testid="bulk-counts">
        {COMMAND_STATES.map((s) => (
          <Chip
            key={s}
            size="small"
            variant={state === s ? 'filled' : 'outlined'}
            label={`${COMMAND_STATE_LABELS[s]} ${b.counts[s]}`}
            onClick={() => {
              setPage(0);
              setState(state === s ? '' : s);
            }}
            data-testid={`count-${s}`}
          />
        ))}
      </Box>
      <TextField
        size="small"
        label="Search devices or sites"
        value={searchText}
        onChange={(e) => {
          setPage(0);
          setSearchText(e.target.value);
        }}
        sx={{ mb: 1.5, width: { xs: '100%', sm: 280 } }}
        slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'bulk-search' } }}
      />
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="bulk-devices">
          <TableHead>
            <TableRow>
              <TableCell>Device</TableCell>
              <TableCell>State</TableCell>
              <TableCell>Reply</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Updated</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {b.devices.map((c) => (
              <TableRow key={c.id} data-testid="bulk-device-row">
                <TableCell>
                  <Link to={`/devices/${c.deviceId}/view`}>
                    <SiteNamed label={c.deviceLabel} site={c.siteName} />
                  </Link>
                </TableCell>
                <TableCell>
                  <StateChip state={c.state} />
                </TableCell>
                <TableCell sx={{ maxWidth: 260 }}>
                  <ReplyText response={c.response} error={c.error} />
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, whiteSpace: 'nowrap' }}>
                  {formatDateTime(c.completedAt ?? c.deliveredAt ?? c.sentAt ?? c.createdAt)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <TablePagination
        component="div"
        count={b.devicesCount}
        page={page}
        onPageChange={(_e, p) => setPage(p)}
        rowsPerPage={STATUS_PAGE}
        rowsPerPageOptions={[STATUS_PAGE]}
      />
    </Paper>
  );
}
