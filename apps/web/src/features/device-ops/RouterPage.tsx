import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { COMMAND_PERMISSION } from '@sitewatch/contracts/commands';
import { DEVICE_OPS_MESSAGES, DEVICE_OPS_METHODS, ROUTER_INTERFACES, ROUTER_KEYS, type RouterView } from '@sitewatch/contracts/device-ops';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { StatusChip } from '../devices/components.tsx';
import { useDebounced } from '../sites/hooks.ts';
import { type Option, SitePicker } from '../sites/Pickers.tsx';
import { useChart } from '../telemetry/api.ts';
import { LineChart } from '../telemetry/LineChart.tsx';
import { asBool, asNum, type LiveValues, useDeviceCommand, useLiveValues, useRouters } from './api.ts';
import { CommandStateChip, formatUptime, formatUsage } from './components.tsx';

/** The router with the newest pushed values laid over its stored state. */
function withLive(r: RouterView, live: LiveValues): RouterView {
  const v = live[r.deviceId];
  if (!v) return r;
  return {
    ...r,
    activeInterface: typeof v[ROUTER_KEYS.activeInterface] === 'string' ? (v[ROUTER_KEYS.activeInterface] as string) : r.activeInterface,
    interfaces: r.interfaces.map((i) => ({
      ...i,
      up: asBool(v[ROUTER_KEYS.up(i.name)], i.up),
      signal: i.cellular ? asNum(v[ROUTER_KEYS.signal(i.name)], i.signal) : null,
    })),
    dataUsageMb: asNum(v[ROUTER_KEYS.dataUsageMb], r.dataUsageMb),
    uptimeSeconds: asNum(v[ROUTER_KEYS.uptimeSeconds], r.uptimeSeconds),
  };
}

const RANGES = [
  { id: '1h', label: '1 h', ms: 3_600_000 },
  { id: '24h', label: '24 h', ms: 86_400_000 },
  { id: '7d', label: '7 d', ms: 7 * 86_400_000 },
] as const;

function SeriesChart({ deviceId, keyName, label, range }: { deviceId: number; keyName: string; label: string; range: number }) {
  const params = useMemo(() => {
    const endTs = Date.now();
    const startTs = endTs - range;
    return { key: keyName, startTs, endTs, agg: range > 3_600_000 ? ('avg' as const) : ('none' as const) };
  }, [keyName, range]);
  const chart = useChart(deviceId, params, range <= 3_600_000);
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2">{label}</Typography>
      {chart.isLoading ? (
        <Skeleton variant="rounded" height={160} />
      ) : (
        <LineChart
          points={(chart.data?.points ?? []).flatMap((p) => (typeof p.value === 'number' ? [{ ts: p.ts, value: p.value }] : []))}
          from={params.startTs}
          to={params.endTs}
          label={label}
        />
      )}
    </Box>
  );
}

function RouterDetail({ router, onClose }: { router: RouterView; onClose(): void }) {
  const phone = useMediaQuery('(max-width:600px)');
  const [range, setRange] = useState<(typeof RANGES)[number]['id']>('24h');
  const ms = RANGES.find((r) => r.id === range)?.ms ?? 86_400_000;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} data-testid="router-detail">
      <DialogTitle>
        {router.deviceLabel} · {router.siteName ?? 'No site'}
      </DialogTitle>
      <DialogContent>
        <ToggleButtonGroup size="small" exclusive value={range} onChange={(_e, v) => v && setRange(v)} sx={{ mb: 2 }}>
          {RANGES.map((r) => (
            <ToggleButton key={r.id} value={r.id}>
              {r.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {ROUTER_INTERFACES.filter((i) => i.cellular).map((i) => (
          <SeriesChart
            key={i.name}
            deviceId={router.deviceId}
            keyName={ROUTER_KEYS.signal(i.name)}
            label={`${i.label} signal (dBm)`}
            range={ms}
          />
        ))}
        <SeriesChart deviceId={router.deviceId} keyName={ROUTER_KEYS.dataUsageMb} label="Data usage this month (MB)" range={ms} />
        <SeriesChart deviceId={router.deviceId} keyName="rxKbps" label="Download (kbit/s)" range={ms} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** /router: WAN and cellular state, signal per interface over time, data usage, uptime and reboot. */
export function RouterPage() {
  const permissions = permissionsOf(useUser());
  const canCommand = permissions.has(COMMAND_PERMISSION);
  const [site, setSite] = useState<Option | null>(null);
  const [search, setSearch] = useState('');
  const searchText = useDebounced(search.trim(), 500);
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(20);
  const [detail, setDetail] = useState<RouterView | null>(null);
  const [asking, setAsking] = useState<RouterView | null>(null);
  const [sent, setSent] = useState<Record<number, number>>({});
  const routers = useRouters({
    ...(site ? { assetId: site.id } : {}),
    ...(searchText ? { search: searchText } : {}),
    page: page + 1,
    limit,
  });
  const live = useLiveValues((routers.data?.contents ?? []).map((r) => r.deviceId));
  const { send, stateOf } = useDeviceCommand();

  const reboot = (r: RouterView) =>
    send.mutate(
      { deviceId: r.deviceId, method: DEVICE_OPS_METHODS.reboot, params: null },
      {
        onSuccess: (command) => {
          setSent((s) => ({ ...s, [r.deviceId]: command.id }));
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
      <PageHeader title="Routers" subtitle="WAN and cellular links of your sites" />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <Box sx={{ minWidth: 220, flex: { xs: 1, sm: 'none' } }}>
          <SitePicker
            label="Site"
            value={site}
            onChange={(v) => {
              setSite(v);
              setPage(0);
            }}
          />
        </Box>
        <TextField
          size="small"
          label="Search"
          placeholder="Router or site"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
          sx={{ width: { xs: '100%', sm: 260 } }}
        />
      </Box>
      {routers.isError ? (
        <ErrorState onRetry={() => routers.refetch()} />
      ) : routers.isLoading ? (
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={180} />
          ))}
        </Box>
      ) : routers.data?.totalCount === 0 ? (
        <EmptyState
          compact
          title="No routers"
          description={searchText || site ? 'No router matches.' : 'No router at the sites you see.'}
        />
      ) : (
        <>
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }} data-testid="router-list">
            {(routers.data?.contents ?? []).map((stored) => {
              const r = withLive(stored, live);
              return (
                <Card key={r.deviceId} variant="outlined" data-testid="router-card">
                  <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                      <Typography sx={{ fontWeight: 600, flex: 1 }}>{r.deviceLabel}</Typography>
                      <StatusChip status={r.status} />
                    </Box>
                    <Typography variant="body2" color="text.secondary">
                      {r.siteName ?? 'No site'}
                      {r.wanIp ? ` · ${r.wanIp}` : ''}
                    </Typography>
                    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
                      {r.interfaces.map((i) => (
                        <Box key={i.name} sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid={`iface-${i.name}`}>
                          <Typography variant="body2" sx={{ flex: 1 }}>
                            {i.label}
                            {r.activeInterface === i.name ? ' (active)' : ''}
                          </Typography>
                          {i.signal !== null ? (
                            <Typography variant="body2" color="text.secondary">
                              {i.signal} dBm
                            </Typography>
                          ) : null}
                          <Chip
                            size="small"
                            color={i.up === null ? 'default' : i.up ? 'success' : 'error'}
                            variant={i.up === null ? 'outlined' : 'filled'}
                            label={i.up === null ? '—' : i.up ? 'Up' : 'Down'}
                          />
                        </Box>
                      ))}
                    </Box>
                    <Typography variant="body2">
                      Data usage: {formatUsage(r.dataUsageMb)} · Uptime: {formatUptime(r.uptimeSeconds)}
                    </Typography>
                    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                      <Button size="small" variant="outlined" onClick={() => setDetail(r)} data-testid="router-charts">
                        Signal and usage
                      </Button>
                      <CommandStateChip state={stateOf(sent[r.deviceId])} />
                      <Box sx={{ flex: 1 }} />
                      {canCommand ? (
                        <Button size="small" color="warning" variant="contained" onClick={() => setAsking(r)} data-testid="reboot-router">
                          Reboot
                        </Button>
                      ) : null}
                    </Box>
                  </CardContent>
                </Card>
              );
            })}
          </Box>
          <TablePagination
            component="div"
            count={routers.data?.totalCount ?? 0}
            page={page}
            rowsPerPage={limit}
            rowsPerPageOptions={[20, 50, 100]}
            onPageChange={(_e, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setLimit(Number(e.target.value));
              setPage(0);
            }}
          />
        </>
      )}
      {detail ? <RouterDetail router={detail} onClose={() => setDetail(null)} /> : null}
      <ConfirmDialog
        open={asking !== null}
        title="Reboot router"
        text={asking ? DEVICE_OPS_MESSAGES.rebootConfirm(asking.deviceLabel) : ''}
        confirmLabel="Reboot"
        destructive
        busy={send.isPending}
        onConfirm={() => asking && reboot(asking)}
        onClose={() => setAsking(null)}
      />
    </Box>
  );
}
