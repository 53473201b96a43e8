import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { DEVICE_MESSAGES, DEVICE_TYPE_LABELS } from '@sitewatch/contracts/devices';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { countOf, formatDateTime } from '../../lib/format.ts';
import { usePageCrumb } from '../../lib/page-crumb.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { MaintenanceWindowNote } from '../calendar/MaintenanceWindowNote.tsx';
import { useAssetAlias } from '../sites/alias.ts';
import { useLatest } from '../telemetry/api.ts';
import { DeviceTelemetrySection } from '../telemetry/DeviceTelemetrySection.tsx';
import { AlarmSettingsDialog, useAlarmDialogAvailable } from './AlarmSettingsDialog.tsx';
import { fetchCompact, useAlarmActionLog, useDeleteDevice, useDevice, useTelemetryKeys } from './api.ts';
import { AlarmChip, DeviceValues, Section, StatusChip, ToggleChips } from './components.tsx';
import { deviceKeys } from './keys.ts';
import { MappingsPanel } from './MappingsPanel.tsx';

// the players load with the first camera page, not with every device page
/** Client attribute keys a device reports its firmware version under (ThingsBoard's first, then common ones). */
const FIRMWARE_KEYS = ['current_fw_version', 'fw_version', 'firmware_version', 'firmwareVersion', 'firmware'];

/** The firmware version the device itself reported, which is newer than what was typed in when it was added. */
export function reportedFirmware(attributes: ReadonlyArray<{ key: string; value: unknown }>): string | undefined {
  for (const key of FIRMWARE_KEYS) {
    const value = attributes.find((a) => a.key === key)?.value;
    if ((typeof value === 'string' && value.trim()) || typeof value === 'number') return String(value).trim();
  }
  return undefined;
}

const DeviceCameraPanel = lazy(() => import('../video/DeviceCameraPanel.tsx').then((m) => ({ default: m.DeviceCameraPanel })));
const CommandsPanel = lazy(() => import('../commands/CommandsPanel.tsx').then((m) => ({ default: m.CommandsPanel })));

const ACTION_NAMES: Record<string, string> = { maintenance: 'Maintenance', muteDevice: 'Mute Device', enableDevice: 'Enable Device' };

/** /devices/{id}/view: one device, its values, children, alarm actions and mappings. */
export function DeviceViewPage({ deviceId }: { deviceId?: number } = {}) {
  const params = useParams();
  const id = deviceId ?? Number(params.id);
  const alias = useAssetAlias();
  const navigate = useNavigate();
  const perms = permissionsOf(useUser());
  const device = useDevice(id);
  // the live values (pushed while the page is open) win over the device's stored state
  const latest = useLatest(id);
  const keysFor = useTelemetryKeys(device.data?.type ?? 'ROUTER');
  const children = useQuery({
    queryKey: deviceKeys.compact({ parentId: id, view: true }),
    enabled: Boolean(device.data?.childDevicesCount),
    queryFn: () => fetchCompact({ parentId: id, checkChildExist: true, orderBy: 'label', limit: 100 }),
  });
  const log = useAlarmActionLog(id);
  const remove = useDeleteDevice();
  const [alarmOpen, setAlarmOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const alarmAvailable = useAlarmDialogAvailable() && perms.has('edit_alarm_config');
  usePageCrumb(device.data ? nameWithSite(device.data.label, device.data.asset?.name) : null);

  if (device.isLoading) return <PageLoader />;
  const d = device.data;
  if (!d) return <EmptyState title="Device not found" description="It does not exist or belongs to a site you are not assigned to." />;
  const live = latest.data?.telemetry ?? [];
  const firmware = reportedFirmware(latest.data?.attributes ?? []) ?? d.metadata.firmware;
  const templateKeys = keysFor(d.templateId);
  return (
    <Box>
      {d.metadata.maintenance ? <MaintenanceWindowNote deviceId={d.id} /> : null}
      <PageHeader
        title={
          <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <SiteNamed label={d.label} site={d.asset?.name} /> <StatusChip status={d.status} /> <AlarmChip alarmStatus={d.alarmStatus} />{' '}
            <ToggleChips metadata={d.metadata} />
          </Box>
        }
        subtitle={d.name}
        actions={
          <>
            {alarmAvailable ? (
              <Button variant="outlined" onClick={() => setAlarmOpen(true)} data-testid="open-alarm-settings">
                Device Alerts
              </Button>
            ) : null}
            {perms.has('change_device') ? (
              <Button component={Link} to={`/devices/${d.id}/edit`}>
                Edit
              </Button>
            ) : null}
            {perms.has('delete_device') ? (
              <Button color="error" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            ) : null}
          </>
        }
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' } }}>
        {d.type === 'CAMERA' && perms.has('view_camera') ? (
          <Box sx={{ gridColumn: { lg: '1 / -1' } }}>
            <Suspense fallback={<PageLoader />}>
              <DeviceCameraPanel deviceId={d.id} />
            </Suspense>
          </Box>
        ) : null}
        <Section title="Details">
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: '160px 1fr', rowGap: 0.75, m: 0 }}>
            {(
              [
                ['Type', DEVICE_TYPE_LABELS[d.type]],
                [
                  alias,
                  d.asset ? (
                    <Link key="a" to={`/assets/view/${d.asset.id}`}>
                      {d.asset.name}
                    </Link>
                  ) : (
                    'Inventory'
                  ),
                ],
                [
                  'Parent',
                  d.parent ? (
                    <Link key="p" to={`/devices/${d.parent.id}/view`}>
                      {d.parent.label}
                    </Link>
                  ) : (
                    '—'
                  ),
                ],
                ['Vendor / model', [d.metadata.vendor, d.metadata.model].filter(Boolean).join(' · ') || '—'],
                ['Serial number', d.metadata.serialNumber ?? '—'],
                ['IP address', d.metadata.ipAddress ?? '—'],
                ['Firmware', firmware ?? '—'],
                ['SNMP community', d.secrets.includes('snmpCommunity') ? 'set' : 'not set'],
                ...d.secrets.filter((k) => k !== 'snmpCommunity').map((k) => [k, 'set'] as const),
                ['Last activity', d.lastActivityAt ? formatDateTime(d.lastActivityAt) : 'Never'],
                ['Created', formatDateTime(d.createdAt)],
              ] as [string, ReactNode][]
            ).map(([k, v]) => (
              <Box key={k} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {k}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
                  {v}
                </Typography>
              </Box>
            ))}
          </Box>
        </Section>
        <Section title="Values">
          {live.length > 0 ? (
            <DeviceValues
              keys={templateKeys}
              state={Object.fromEntries(live.map((v) => [v.key, v.value]))}
              updatedAt={new Date(Math.max(...live.map((v) => v.ts))).toISOString()}
              reportedOnly
            />
          ) : (
            <DeviceValues keys={templateKeys} state={d.state} updatedAt={d.stateUpdatedAt} />
          )}
        </Section>
        <Section title={`Child devices (${d.childDevicesCount})`}>
          {d.childDevicesCount === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No devices hang under this one.
            </Typography>
          ) : (
            <List dense disablePadding>
              {(children.data?.contents ?? []).map((c) => (
                <ListItem key={c.id} disableGutters secondaryAction={<StatusChip status={c.status} />}>
                  <ListItemText primary={<Link to={`/devices/${c.id}/view`}>{c.label}</Link>} secondary={DEVICE_TYPE_LABELS[c.type]} />
                </ListItem>
              ))}
            </List>
          )}
        </Section>
        <Section title="Alarm actions">
          {(log.data?.contents ?? []).length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No alarm actions on this device.
            </Typography>
          ) : (
            <List dense disablePadding data-testid="alarm-action-log">
              {(log.data?.contents ?? []).map((a) => (
                <ListItem key={a.id} disableGutters>
                  <ListItemText
                    primary={`${ACTION_NAMES[a.telemetryKey] ?? a.telemetryKey}: ${a.telemetryValue ? 'on' : 'off'}${a.updateChildDevice ? ` · ${countOf(a.updatedDevices, 'device')}` : ''}${a.description ? ` · ${a.description}` : ''}`}
                    secondary={`${a.user?.name ?? 'System'} · ${formatDateTime(a.createdAt)}${a.createTicket ? ' · ticket raised' : ''}`}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Section>
        <Box sx={{ gridColumn: { lg: '1 / -1' }, minWidth: 0 }}>
          <Suspense fallback={<PageLoader />}>
            <CommandsPanel deviceId={d.id} deviceType={d.type} />
          </Suspense>
        </Box>
        <Box sx={{ gridColumn: { lg: '1 / -1' } }}>
          <MappingsPanel fromType="DEVICE" fromEntity={d.id} canEdit={perms.has('change_device')} />
        </Box>
      </Box>
      <DeviceTelemetrySection deviceId={d.id} canManage={perms.has('change_device')} keys={templateKeys} />
      <AlarmSettingsDialog deviceId={d.id} open={alarmOpen} onClose={() => setAlarmOpen(false)} />
      <ConfirmDialog
        open={deleting}
        title={`Delete '${d.label}'?`}
        text="Devices under it stay at the site without a parent. This cannot be undone."
        destructive
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(d.id, {
            onSuccess: () => {
              showToast('success', DEVICE_MESSAGES.deleted);
              navigate('/devices');
            },
          })
        }
      />
    </Box>
  );
}
