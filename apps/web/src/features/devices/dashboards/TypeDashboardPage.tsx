import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Pagination from '@mui/material/Pagination';
import Typography from '@mui/material/Typography';
import { DEVICE_STATUS_COLOURS, type Device, type DeviceType, SUMMARY_STATUS_LABELS } from '@sitewatch/contracts/devices';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { filledChip } from '../../../lib/contrast.ts';
import type { Query } from '../../../lib/http-client.ts';
import { usePollingFallback } from '../../../lib/realtime.ts';
import { permissionsOf, useUser } from '../../../lib/session.ts';
import { useTreeSelection } from '../../asset-tree/selection.ts';
import { useAssetAlias } from '../../sites/alias.ts';
import { AlarmSettingsDialog, useAlarmDialogAvailable } from '../AlarmSettingsDialog.tsx';
import { useLiveDevices, useStatusCounts, useTelemetryKeys } from '../api.ts';
import { AlarmChip, DeviceValues, StatusChip, ToggleChips } from '../components.tsx';
import { DeviceViewPage } from '../DeviceViewPage.tsx';

const PAGE_SIZE = 12;
/** Values on these screens are pushed; only while the socket is down are they refetched every 30 s. */
export const LIVE_REFRESH_MS = 30_000;

/** Connected / Disconnected / Not Connected counts of one device type under the tree selection. */
export function StatusStrip({ type, filter }: { type: DeviceType; filter: Query }) {
  const counts = useStatusCounts({ ...filter, types: type }, { refetchInterval: usePollingFallback(LIVE_REFRESH_MS) || undefined });
  const c = counts.data?.contents[0];
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }} data-testid="status-strip">
      <Chip label={`Total ${c?.total ?? 0}`} />
      <Chip label={`${SUMMARY_STATUS_LABELS.online} ${c?.online ?? 0}`} sx={filledChip(DEVICE_STATUS_COLOURS.Online)} />
      <Chip label={`${SUMMARY_STATUS_LABELS.offline} ${c?.offline ?? 0}`} sx={filledChip(DEVICE_STATUS_COLOURS.Offline)} />
      <Chip label={`${SUMMARY_STATUS_LABELS.notC} ${c?.notC ?? 0}`} sx={filledChip(DEVICE_STATUS_COLOURS['Not yet connected'])} />
    </Box>
  );
}

export function DeviceCard({
  device,
  keys,
  to,
  onAlarm,
}: {
  device: Device;
  keys: ReturnType<ReturnType<typeof useTelemetryKeys>>;
  to: string;
  onAlarm?: () => void;
}) {
  return (
    <Card variant="outlined" data-testid="device-card">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
          <Typography variant="subtitle1" component={Link} to={to} sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} noWrap>
            {device.label}
          </Typography>
          <StatusChip status={device.status} />
        </Box>
        <Typography variant="body2" color="text.secondary" noWrap>
          {device.asset?.name ?? 'Inventory'}
          {device.metadata.vendor ? ` · ${device.metadata.vendor} ${device.metadata.model ?? ''}` : ''}
        </Typography>
        <Box sx={{ display: 'flex', gap: 0.5, my: 1, flexWrap: 'wrap', minHeight: 24 }}>
          <AlarmChip alarmStatus={device.alarmStatus} />
          <ToggleChips metadata={device.metadata} />
        </Box>
        <DeviceValues keys={keys} state={device.state} updatedAt={device.stateUpdatedAt} dense />
        {onAlarm ? (
          <Button size="small" sx={{ mt: 1 }} onClick={onAlarm}>
            Device Alerts
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

/**
 * A type dashboard of SPEC 2.4 (genset, alarm panel, rectifier, UPS, meter): the devices of the type under the
 * node chosen in the tree, each with its status and stored values, a page at a time.
 */
export function TypeDashboardPage({ type, title, viewPath }: { type: DeviceType; title: string; viewPath: (d: Device) => string }) {
  const alias = useAssetAlias();
  const selection = useTreeSelection();
  const perms = permissionsOf(useUser());
  const alarmAvailable = useAlarmDialogAvailable() && perms.has('edit_alarm_config');
  const [page, setPage] = useState(1);
  const [alarmFor, setAlarmFor] = useState<number | null>(null);
  const keysFor = useTelemetryKeys(type);
  const devices = useLiveDevices({ ...selection.query, type, orderBy: 'name', page, limit: PAGE_SIZE }, LIVE_REFRESH_MS);
  const total = devices.data?.totalCount ?? 0;
  return (
    <Box>
      <PageHeader
        title={title}
        subtitle={selection.label ?? `All ${alias.toLowerCase()}s · choose a region or a ${alias.toLowerCase()} in the tree`}
      />
      <StatusStrip type={type} filter={selection.query} />
      {devices.data && total === 0 ? (
        <EmptyState title="No devices of this type here" description={`Choose another ${alias.toLowerCase()} or region in the tree.`} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' }}>
          {(devices.data?.contents ?? []).map((d) => (
            <DeviceCard
              key={d.id}
              device={d}
              keys={keysFor(d.templateId)}
              to={viewPath(d)}
              onAlarm={alarmAvailable ? () => setAlarmFor(d.id) : undefined}
            />
          ))}
        </Box>
      )}
      {total > PAGE_SIZE ? (
        <Pagination sx={{ mt: 2 }} count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />
      ) : null}
      {alarmFor !== null ? <AlarmSettingsDialog deviceId={alarmFor} open onClose={() => setAlarmFor(null)} /> : null}
    </Box>
  );
}

const viewOf = (prefix: string) => (d: Device) => `${prefix}/${d.assetId ?? 0}/${d.id}`;

export const GensetDashboardPage = () => <TypeDashboardPage type="GENERATOR" title="Genset Dashboard" viewPath={viewOf('/genset/view')} />;
export const UpsDashboardPage = () => <TypeDashboardPage type="UPS" title="UPS Dashboard" viewPath={viewOf('/ups/view')} />;
export const RectifierDashboardPage = () => (
  <TypeDashboardPage type="RECTIFIER" title="Rectifier Dashboard" viewPath={viewOf('/rectifier/view')} />
);
export const AlarmPanelDashboardPage = () => (
  <TypeDashboardPage type="ALARMPANEL" title="Alarm Panel Dashboard" viewPath={(d) => `/alarm-panel/view/${d.id}`} />
);
export const MeterDashboardPage = () => (
  <TypeDashboardPage type="METER" title="Meter Dashboard" viewPath={(d) => `/devices/${d.id}/view`} />
);

/** /genset/view/{id}/{deviceId}, /ups/view/…, /rectifier/view/… and /alarm-panel/view/{id}: one device in full. */
export function DeviceDashboardViewPage() {
  const params = useParams();
  const deviceId = Number(params.deviceId ?? params.id);
  return <DeviceViewPage deviceId={deviceId} />;
}
