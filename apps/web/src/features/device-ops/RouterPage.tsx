import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DEVICE_OPS_MESSAGES, DEVICE_OPS_METHODS, ROUTER_INTERFACES, ROUTER_KEYS, type RouterView } from '@sitewatch/contracts/device-ops';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useChart } from '../telemetry/api.ts';
import { LineChart } from '../telemetry/LineChart.tsx';
import { asBool, asNum, type LiveValues, useLiveValues, useRouters } from './api.ts';
import { CommandStateChip, formatUptime, formatUsage } from './components.tsx';
import { DeviceCard, DeviceListFilterBar, DeviceListShell, useDeviceListFilters } from './DeviceListShell.tsx';
import { useConfirmedCommand } from './useConfirmedCommand.ts';

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
  const filters = useDeviceListFilters(20);
  const [detail, setDetail] = useState<RouterView | null>(null);
  const routers = useRouters(filters.query);
  const live = useLiveValues((routers.data?.contents ?? []).map((r) => r.deviceId));
  const command = useConfirmedCommand((r: RouterView) => ({
    key: String(r.deviceId),
    deviceId: r.deviceId,
    method: DEVICE_OPS_METHODS.reboot,
    params: null,
  }));

  return (
    <Box>
      <PageHeader title="Routers" subtitle="WAN and cellular links of your sites" />
      <DeviceListFilterBar filters={filters} searchPlaceholder="Router or site" />
      <DeviceListShell
        list={routers}
        filters={filters}
        card={{ minWidth: 300, height: 180 }}
        testId="router-list"
        empty={{ title: 'No routers', description: filters.filtered ? 'No router matches.' : 'No router at the sites you see.' }}
        pageSizes={[20, 50, 100]}
      >
        {(items) =>
          items.map((stored) => {
            const r = withLive(stored, live);
            return (
              <DeviceCard key={r.deviceId} label={r.deviceLabel} status={r.status} testId="router-card">
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
                  <CommandStateChip state={command.stateOf(String(r.deviceId))} />
                  <Box sx={{ flex: 1 }} />
                  {command.allowed ? (
                    <Button size="small" color="warning" variant="contained" onClick={() => command.ask(r)} data-testid="reboot-router">
                      Reboot
                    </Button>
                  ) : null}
                </Box>
              </DeviceCard>
            );
          })
        }
      </DeviceListShell>
      {detail ? <RouterDetail router={detail} onClose={() => setDetail(null)} /> : null}
      <ConfirmDialog
        {...command.dialog}
        title="Reboot router"
        text={command.asking ? DEVICE_OPS_MESSAGES.rebootConfirm(command.asking.deviceLabel) : ''}
        confirmLabel="Reboot"
        destructive
      />
    </Box>
  );
}
