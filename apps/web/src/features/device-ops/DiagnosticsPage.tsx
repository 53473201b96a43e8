import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DEVICE_OPS_MESSAGES,
  DIAGNOSTIC_TOOL_LABELS,
  type DiagnosticRun,
  type DiagnosticStatus,
  type DiagnosticStreamMessage,
  type DiagnosticTarget,
  type DiagnosticTool,
} from '@sitewatch/contracts/device-ops';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ScrollRegion } from '../../components/ScrollRegion.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { offeredOptions, useSearchInput } from '../../lib/searched-options.ts';
import { toast } from '../../lib/toasts.ts';
import { useAttachRun, useRuns, useStartRun, useTargets, useTicketOptions } from './api.ts';
import { deviceOpsKeys } from './keys.ts';

const STATUS_COLOURS: Record<DiagnosticStatus, 'info' | 'success' | 'error'> = { running: 'info', succeeded: 'success', failed: 'error' };
const STATUS_LABELS: Record<DiagnosticStatus, string> = { running: 'Running', succeeded: 'Succeeded', failed: 'Failed' };
const errorText = (error: unknown, fallback: string) => (isHttpError(error) ? (detailOf(error.data) ?? fallback) : fallback);

/** Follows a run's output over its WebSocket: lines as they come, then the final status. */
function useRunStream(run: DiagnosticRun | null) {
  const [lines, setLines] = useState<string[]>([]);
  const [status, setStatus] = useState<DiagnosticStatus | null>(null);
  const id = run?.id;
  const client = useQueryClient();
  useEffect(() => {
    if (id === undefined) return;
    setLines([]);
    setStatus('running');
    const url = new URL(`/api/device-ops/diagnostics/runs/${id}/ws`, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    let ended = false;
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as DiagnosticStreamMessage;
      if (message.type === 'line') setLines((l) => [...l, message.text]);
      else {
        ended = true;
        setStatus(message.status);
        void client.invalidateQueries({ queryKey: deviceOpsKeys.runsAll });
      }
    };
    socket.onclose = () => {
      if (!ended) setStatus((s) => (s === 'running' ? 'failed' : s));
    };
    return () => socket.close();
  }, [id, client]);
  return { lines, status };
}

function Output({ lines, running }: { lines: string[]; running: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest line whenever one arrives
  useEffect(() => {
    ref.current?.scrollTo({ top: ref.current.scrollHeight });
  }, [lines.length]);
  return (
    <ScrollRegion
      label="Diagnostic output"
      overflow="both"
      component="pre"
      ref={ref}
      data-testid="diagnostic-output"
      sx={{
        m: 0,
        p: 1.5,
        minHeight: 160,
        maxHeight: 360,
        bgcolor: '#0b1620',
        color: '#d7e3ea',
        borderRadius: 1,
        fontSize: 13,
        lineHeight: 1.5,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
      }}
    >
      {lines.join('\n')}
      {running ? '\n▍' : ''}
    </ScrollRegion>
  );
}

type TicketOption = { id: number; ticketId: string; title: string };

function AttachToTicket({ run }: { run: DiagnosticRun }) {
  const search = useSearchInput(500);
  const [open, setOpen] = useState(false);
  const [ticket, setTicket] = useState<TicketOption | null>(null);
  const tickets = useTicketOptions(search.search, open);
  const offered = offeredOptions<TicketOption>({
    typed: search.typed,
    searched: tickets.data && !tickets.isPlaceholderData ? search.search : null,
    list: tickets.data?.contents.map((t) => ({ id: t.id, ticketId: t.ticketId, title: t.title })),
    chosen: ticket,
    same: (a, b) => a.id === b.id,
  });
  const attach = useAttachRun();
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mt: 1.5 }}>
      <Autocomplete
        sx={{ minWidth: 260, flex: 1 }}
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        value={ticket}
        onChange={(_e, v) => setTicket(v)}
        inputValue={search.input}
        onInputChange={search.onInputChange}
        options={offered.options}
        filterOptions={(x) => x}
        getOptionLabel={(o) => `${o.ticketId} · ${o.title}`}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        loading={offered.pending || tickets.isFetching}
        renderInput={(params) => <TextField {...params} size="small" label="Ticket" placeholder="Search ticket number or title" />}
        data-testid="attach-ticket"
      />
      <Button
        variant="outlined"
        disabled={!ticket || attach.isPending}
        onClick={() =>
          ticket &&
          attach.mutate(
            { id: run.id, ticketId: ticket.id },
            {
              onSuccess: () => toast.success(DEVICE_OPS_MESSAGES.attached),
              onError: (e) => toast.error(errorText(e, 'Not added to the ticket')),
            },
          )
        }
        data-testid="attach-run"
      >
        Add to ticket
      </Button>
    </Box>
  );
}

/** /diagnostics: probes run from the server against a device's declared host, with the output streamed live. */
export function DiagnosticsPage() {
  const search = useSearchInput(300);
  const [target, setTarget] = useState<DiagnosticTarget | null>(null);
  const [tool, setTool] = useState<DiagnosticTool>('last-contact');
  const [port, setPort] = useState('80');
  const [oid, setOid] = useState('');
  const [current, setCurrent] = useState<DiagnosticRun | null>(null);
  const [page, setPage] = useState(0);
  const targets = useTargets({ page: 1, limit: 20, ...(search.search ? { search: search.search } : {}) }, true);
  // only the answer to the text typed is offered, and the device chosen stays chosen whatever answer comes later
  const devices = offeredOptions<DiagnosticTarget>({
    typed: search.typed,
    searched: targets.data && !targets.isPlaceholderData ? search.search : null,
    list: targets.data?.contents,
    chosen: target,
    same: (a, b) => a.deviceId === b.deviceId,
  });
  const runs = useRuns({ page: page + 1, limit: 10 }, true);
  const start = useStartRun();
  const stream = useRunStream(current);
  const portNumber = Number(port);
  const portValid = Number.isInteger(portNumber) && portNumber >= 1 && portNumber <= 65_535;
  const oidValid = oid.trim() === '' || /^\d+(\.\d+){1,40}$/.test(oid.trim());

  useEffect(() => {
    if (target && !target.tools.includes(tool)) setTool(target.tools[0] ?? 'last-contact');
  }, [target, tool]);

  const run = () => {
    if (!target) return;
    start.mutate(
      {
        deviceId: target.deviceId,
        tool,
        ...(tool === 'tcp' ? { port: portNumber } : {}),
        ...(tool === 'snmp' && oid.trim() ? { oid: oid.trim() } : {}),
      },
      { onSuccess: (r) => setCurrent(r), onError: (e) => toast.error(errorText(e, 'The diagnostic did not start')) },
    );
  };
  const finished = current && stream.status && stream.status !== 'running';

  return (
    <Box>
      <PageHeader title="Diagnostics" subtitle="Probe a device from the server: ping, TCP port, SNMP, RTSP stream or its last contact" />
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Autocomplete
              sx={{ minWidth: 260, flex: 2 }}
              value={target}
              onChange={(_e, v) => setTarget(v)}
              inputValue={search.input}
              onInputChange={search.onInputChange}
              options={devices.options}
              filterOptions={(x) => x}
              getOptionLabel={(o) => `${o.deviceLabel} · ${o.siteName ?? 'No site'}`}
              renderOption={(props, o) => (
                <li {...props} key={o.deviceId}>
                  <Box>
                    <Typography variant="body2">
                      {o.deviceLabel} · {o.type}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {o.siteName ?? 'No site'} · {o.host ?? (o.stream ? 'RTSP stream' : 'no host declared')}
                    </Typography>
                  </Box>
                </li>
              )}
              isOptionEqualToValue={(a, b) => a.deviceId === b.deviceId}
              loading={devices.pending || targets.isFetching}
              noOptionsText="No device matches"
              renderInput={(params) => <TextField {...params} size="small" label="Device" placeholder="Search device or site" />}
              data-testid="diagnostic-device"
            />
            <TextField
              select
              size="small"
              label="Check"
              value={tool}
              onChange={(e) => setTool(e.target.value as DiagnosticTool)}
              sx={{ minWidth: 200, flex: 1 }}
              data-testid="diagnostic-tool"
            >
              {(target?.tools ?? (['last-contact'] as DiagnosticTool[])).map((t) => (
                <MenuItem key={t} value={t}>
                  {DIAGNOSTIC_TOOL_LABELS[t]}
                </MenuItem>
              ))}
            </TextField>
            {tool === 'tcp' ? (
              <TextField
                size="small"
                label="Port"
                value={port}
                onChange={(e) => setPort(e.target.value)}
                error={!portValid}
                helperText={portValid ? undefined : 'Enter a port from 1 to 65535'}
                sx={{ width: 120 }}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
            ) : null}
            {tool === 'snmp' ? (
              <TextField
                size="small"
                label="OID (optional)"
                value={oid}
                onChange={(e) => setOid(e.target.value)}
                error={!oidValid}
                helperText={oidValid ? 'Empty: sysDescr, sysUpTime, sysName' : 'Enter an OID such as 1.3.6.1.2.1.1.1.0'}
                sx={{ minWidth: 220 }}
              />
            ) : null}
          </Box>
          {target ? (
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }} data-testid="diagnostic-target">
              {tool === 'rtsp'
                ? `Stream: ${target.stream}`
                : `Host: ${target.host ?? (target.stream ? 'none declared' : 'none declared (only the last contact can be checked)')}`}
            </Typography>
          ) : null}
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <Button
              variant="contained"
              onClick={run}
              disabled={!target || start.isPending || stream.status === 'running' || (tool === 'tcp' && !portValid) || !oidValid}
              startIcon={start.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
              data-testid="run-diagnostic"
            >
              Run
            </Button>
            {current && stream.status ? (
              <Chip
                size="small"
                color={STATUS_COLOURS[stream.status]}
                label={STATUS_LABELS[stream.status]}
                data-testid="diagnostic-status"
              />
            ) : null}
          </Box>
          {current ? <Output lines={stream.lines} running={stream.status === 'running'} /> : null}
          {current && finished ? <AttachToTicket run={current} /> : null}
        </CardContent>
      </Card>

      <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
        Recent runs
      </Typography>
      {runs.isError ? (
        <ErrorState onRetry={() => runs.refetch()} />
      ) : runs.data?.totalCount === 0 ? (
        <EmptyState compact title="No runs yet" description="Runs appear here with their output." />
      ) : (
        <Card variant="outlined">
          <List dense disablePadding>
            {(runs.data?.contents ?? []).map((r) => (
              <ListItem key={r.id} divider disablePadding>
                <ListItemButton onClick={() => setCurrent(r)} selected={current?.id === r.id}>
                  <ListItemText
                    primary={`${DIAGNOSTIC_TOOL_LABELS[r.tool]} · ${r.deviceLabel}`}
                    secondary={`${r.target} · ${new Date(r.startedAt).toLocaleString()}${r.startedBy ? ` · ${r.startedBy.name}` : ''}`}
                  />
                  <Chip size="small" color={STATUS_COLOURS[r.status]} label={STATUS_LABELS[r.status]} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          <TablePagination
            component="div"
            count={runs.data?.totalCount ?? 0}
            page={page}
            rowsPerPage={10}
            rowsPerPageOptions={[10]}
            onPageChange={(_e, p) => setPage(p)}
          />
        </Card>
      )}
    </Box>
  );
}
