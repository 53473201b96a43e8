import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { DEVICE_TYPE_LABELS, type Device, type DeviceType } from '@sitewatch/contracts/devices';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { loadState } from '../../../components/LoadState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { api } from '../../../lib/api.ts';
import { formatRelative } from '../../../lib/format.ts';
import { usePollingFallback } from '../../../lib/realtime.ts';
import { permissionsOf, useUser } from '../../../lib/session.ts';
import { useTreeSelection } from '../../asset-tree/selection.ts';
import { useAssetAlias } from '../../sites/alias.ts';
import { useAsset } from '../../sites/api.ts';
import { listLoading } from '../../sites/hooks.ts';
import { siteKeys } from '../../sites/keys.ts';
import { AlarmSettingsDialog, useAlarmDialogAvailable } from '../AlarmSettingsDialog.tsx';
import { useLiveDevices, useStatusCounts, useTelemetryKeys } from '../api.ts';
import { AlarmChip, Section, StatusChip, ToggleChips } from '../components.tsx';
import { DeviceCard, LIVE_REFRESH_MS } from './TypeDashboardPage.tsx';

const POWER_TYPES: DeviceType[] = ['GENERATOR', 'UPS', 'RECTIFIER', 'METER'];

function PowerGroup({ type, devices, onAlarm }: { type: DeviceType; devices: Device[]; onAlarm?: (id: number) => void }) {
  const keysFor = useTelemetryKeys(type);
  if (devices.length === 0) return null;
  return (
    <Box>
      <Typography variant="h6" component="h2" sx={{ mb: 1, fontSize: 16 }}>
        {DEVICE_TYPE_LABELS[type]}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' }}>
        {devices.map((d) => (
          <DeviceCard
            key={d.id}
            device={d}
            keys={keysFor(d.templateId)}
            to={`/devices/${d.id}/view`}
            onAlarm={onAlarm ? () => onAlarm(d.id) : undefined}
          />
        ))}
      </Box>
    </Box>
  );
}

/** /site-summary/power-dashboard/{id}: a site's generator, UPS, rectifier and meters with their stored values. */
export function PowerDashboardPage() {
  const id = Number(useParams().id);
  const alias = useAssetAlias();
  const asset = useAsset(id);
  const perms = permissionsOf(useUser());
  const alarmAvailable = useAlarmDialogAvailable() && perms.has('edit_alarm_config');
  const [alarmFor, setAlarmFor] = useState<number | null>(null);
  const devices = useLiveDevices({ assetId: id, type: POWER_TYPES.join(','), orderBy: 'name', limit: 100 }, LIVE_REFRESH_MS);
  const list = devices.data?.contents ?? [];
  const gate = loadState(asset, { title: `${alias} not found`, back: { to: '/site-summary/dashboard', label: 'Site summary' } });
  if (gate) return gate;
  return (
    <Box>
      <PageHeader title="Power Dashboard" subtitle={asset.data ? `${asset.data.name} · ${asset.data.address.join(' / ')}` : undefined} />
      {devices.data && list.length === 0 ? (
        <EmptyState
          title={`No power devices at this ${alias.toLowerCase()}`}
          description="Generators, UPS, rectifiers and meters show here once they are added."
        />
      ) : (
        <Box sx={{ display: 'grid', gap: 3 }}>
          {POWER_TYPES.map((t) => (
            <PowerGroup key={t} type={t} devices={list.filter((d) => d.type === t)} onAlarm={alarmAvailable ? setAlarmFor : undefined} />
          ))}
        </Box>
      )}
      {alarmFor !== null ? <AlarmSettingsDialog deviceId={alarmFor} open onClose={() => setAlarmFor(null)} /> : null}
    </Box>
  );
}

/** /sitemonitoring: the chosen site's devices by status, or the sites that need attention. */
export function SiteMonitoringPage() {
  const alias = useAssetAlias();
  const selection = useTreeSelection();
  const assetId = selection.assetId;
  const asset = useAsset(assetId);
  const poll = usePollingFallback(LIVE_REFRESH_MS) || undefined;
  const counts = useStatusCounts({ assetId: assetId ?? undefined }, { enabled: Boolean(assetId), refetchInterval: poll });
  const devices = useLiveDevices({ assetId: assetId ?? undefined, orderBy: 'name', limit: 200 }, LIVE_REFRESH_MS, {
    enabled: Boolean(assetId),
  });
  const attention = useQuery({
    queryKey: siteKeys.summary({ attention: true, ...selection.query }),
    enabled: !assetId,
    queryFn: () =>
      api.get('/iotapp/assets/site-summary/', {
        query: { ...selection.query, orderBy: '-offline', limit: 10 },
      }),
  });

  if (!assetId) {
    const rows = (attention.data?.contents ?? []).filter((r) => r.offline > 0);
    return (
      <Box>
        <PageHeader title="Site Monitoring" subtitle={`Choose a ${alias.toLowerCase()} in the tree`} />
        <Section title={`${alias}s with offline devices`}>
          {rows.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              Every device {selection.label ? `in ${selection.label}` : ''} is connected or not installed yet.
            </Typography>
          ) : (
            rows.map((r) => (
              <Typography key={r.id} variant="body2" sx={{ py: 0.25 }}>
                <Link to={`/sitemonitoring?assetId=${r.id}`}>{r.name}</Link> · {r.offline} offline of {r.total}
              </Typography>
            ))
          )}
        </Section>
      </Box>
    );
  }
  const root = asset.data ? asset.data.metadata.assetCode || asset.data.name : '';
  const depth = (d: Device) => (root ? Math.max(0, d.name.slice(root.length + 1).split(':').length - 1) : 0);
  const columns: GridColDef<Device>[] = [
    {
      field: 'label',
      headerName: 'Device',
      flex: 1,
      minWidth: 200,
      renderCell: (p) => (
        <Box sx={{ pl: depth(p.row) * 2.5 }}>
          <Link to={`/devices/${p.row.id}/view`}>{p.row.label}</Link>
        </Box>
      ),
    },
    { field: 'type', headerName: 'Type', width: 130, valueFormatter: (v: DeviceType) => DEVICE_TYPE_LABELS[v] },
    { field: 'status', headerName: 'Status', width: 160, renderCell: (p) => <StatusChip status={p.row.status} /> },
    { field: 'alarmStatus', headerName: 'Alarm', width: 110, renderCell: (p) => <AlarmChip alarmStatus={p.row.alarmStatus} /> },
    {
      field: 'flags',
      headerName: 'Flags',
      width: 170,
      renderCell: (p) => (
        <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', height: '100%' }}>
          <ToggleChips metadata={p.row.metadata} />
        </Box>
      ),
    },
    {
      field: 'lastActivityAt',
      headerName: 'Last activity',
      width: 150,
      valueFormatter: (v: string | null) => (v ? formatRelative(v) : '—'),
    },
  ];
  return (
    <Box>
      <PageHeader
        title={asset.data?.name ?? 'Site Monitoring'}
        subtitle={asset.data?.address.join(' / ')}
        actions={
          <>
            <Button component={Link} to={`/site-summary/power-dashboard/${assetId}`}>
              Power Dashboard
            </Button>
            <Button component={Link} to={`/assets/view/${assetId}`}>
              {alias} details
            </Button>
          </>
        }
      />
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))', mb: 2 }}
        data-testid="site-type-counts"
      >
        {(counts.data?.contents ?? []).map((c) => (
          <Section key={c.type} title={c.label}>
            <Typography variant="h5">{c.total}</Typography>
            <Typography variant="caption" color="text.secondary">
              {c.online} online · {c.offline} offline · {c.notC} not connected
            </Typography>
          </Section>
        ))}
      </Box>
      <DataGrid
        autoHeight
        rows={devices.data?.contents ?? []}
        columns={columns}
        loading={listLoading(devices)}
        hideFooter
        disableColumnMenu
        disableRowSelectionOnClick
        density="compact"
      />
    </Box>
  );
}
