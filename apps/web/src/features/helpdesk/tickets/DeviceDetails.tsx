import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { TICKET_LIMITS, type Ticket } from '@sitewatch/contracts/helpdesk/tickets';
import { cameraAtPath } from '@sitewatch/contracts/video-evidence';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useShell } from '../../../app/shell/shell-context.ts';
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { permissionsOf, useUser } from '../../../lib/session.ts';
import { AlarmSettingsDialog } from '../../devices/AlarmSettingsDialog.tsx';
import { deviceQuery } from '../../devices/api.ts';
import { DeviceAlarmsPanel } from '../../telemetry/DeviceAlarmsPanel.tsx';
import { CameraAtEventButton, CameraRecordingDialog, LiveVideoDialog } from '../../video/index.ts';
import { ticketKeys } from '../keys.ts';
import { Section } from './TicketSections.tsx';

const PER_SLIDE = TICKET_LIMITS.carouselPerSlide;
/** Mappings are read three slides at a time; the next three load when the third slide of a batch shows. */
const BATCH = PER_SLIDE * TICKET_LIMITS.carouselMoreEvery;

const ACTION_NAMES: Record<string, string> = { maintenance: 'Maintenance', muteDevice: 'Mute Device', enableDevice: 'Device enabled' };

/** Mapped entities in a carousel of 4 a slide (SPEC 2.15), each with a View Location link for sites. */
function MappedEntities({ deviceId, eventDate }: { deviceId: number; eventDate: string }) {
  const [slide, setSlide] = useState(0);
  const mappings = useInfiniteQuery({
    queryKey: ticketKeys.deviceMappings(deviceId),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get('/iotapp/entity-mappings/', {
        query: { fromType: 'DEVICE', fromEntity: deviceId, page: pageParam, limit: BATCH },
        toast: false,
      }),
    getNextPageParam: (last, pages) => (pages.length * BATCH < last.totalCount ? pages.length + 1 : undefined),
  });
  const items = mappings.data?.pages.flatMap((p) => p.contents) ?? [];
  const total = mappings.data?.pages[0]?.totalCount ?? 0;
  const slides = Math.max(1, Math.ceil(total / PER_SLIDE));
  const visible = items.slice(slide * PER_SLIDE, slide * PER_SLIDE + PER_SLIDE);
  const go = (next: number) => {
    setSlide(next);
    // Every third slide, fetch the next batch so it is there when the user reaches it.
    if ((next + 1) % TICKET_LIMITS.carouselMoreEvery === 0 && mappings.hasNextPage && !mappings.isFetchingNextPage)
      void mappings.fetchNextPage();
  };
  if (mappings.isLoading) return <Skeleton height={80} />;
  if (total === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No mapped entities.
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid="mapped-entities">
      <IconButton aria-label="Previous" disabled={slide === 0} onClick={() => go(slide - 1)}>
        <ChevronLeft />
      </IconButton>
      <Box sx={{ flex: 1, display: 'grid', gridTemplateColumns: `repeat(${PER_SLIDE}, minmax(0, 1fr))`, gap: 1 }}>
        {visible.map((m) => (
          <Paper key={m.id} variant="outlined" sx={{ p: 1, minWidth: 0 }} data-testid="mapped-entity">
            <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap title={m.toEntity.label || m.toEntity.name}>
              {m.toEntity.label || m.toEntity.name}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {m.relationType}
              {m.toEntity.type ? ` · ${m.toEntity.type}` : ''}
            </Typography>
            {m.toType === 'ASSET' ? (
              <Button size="small" component={Link} to={`/assets/view/${m.toEntity.id}`}>
                View Location
              </Button>
            ) : (
              <Button size="small" component={Link} to={`/devices/${m.toEntity.id}/view`}>
                View Device
              </Button>
            )}
            {m.toEntity.type === 'CAMERA' ? (
              <Button size="small" component={Link} to={cameraAtPath(m.toEntity.id, eventDate)} data-testid="mapped-camera-at-event">
                At event time
              </Button>
            ) : null}
          </Paper>
        ))}
        {visible.length === 0 && mappings.isFetchingNextPage ? <Skeleton height={80} sx={{ gridColumn: '1 / -1' }} /> : null}
      </Box>
      <IconButton aria-label="Next" disabled={slide >= slides - 1} onClick={() => go(slide + 1)}>
        <ChevronRight />
      </IconButton>
      <Typography variant="caption" color="text.secondary">
        {slide + 1}/{slides}
      </Typography>
    </Box>
  );
}

/** Device Details of a ticket raised for a device: its labels, alarm actions and mapped entities. */
export function DeviceDetails({ ticket }: { ticket: Ticket }) {
  const deviceId = ticket.entityId as number;
  const user = useUser();
  const { settings } = useShell();
  const [dialog, setDialog] = useState<'alerts' | 'live' | 'recording' | null>(null);
  const device = useQuery({ ...deviceQuery(deviceId, { toast: false }), retry: false });
  const actions = useQuery({
    queryKey: ticketKeys.deviceActions(deviceId),
    queryFn: () => api.get('/iotapp/devices/{id}/alarm-actions/', { path: { id: deviceId }, query: { page: 1, limit: 5 }, toast: false }),
    retry: false,
  });
  const alarmSettings = settings?.deviceAlarmActions;
  const showAlerts =
    permissionsOf(user).has('edit_alarm_config') &&
    Boolean(alarmSettings && (alarmSettings.enableDevice.show || alarmSettings.maintenanceMode.show || alarmSettings.muteMode.show));
  const label = device.data?.label ?? ticket.additionalInformation.deviceLabel ?? `Device ${deviceId}`;
  const parent = device.data?.parent?.label ?? ticket.additionalInformation.parentLabel ?? null;
  const meta = device.data?.metadata;
  const alarmId = typeof ticket.metadata?.alarmId === 'number' ? ticket.metadata.alarmId : null;
  return (
    <Section
      title="Device Details"
      testId="device-details"
      action={
        <Box sx={{ display: 'flex', gap: 1 }}>
          {device.data?.type === 'CAMERA' ? (
            <>
              <Button size="small" onClick={() => setDialog('live')} data-testid="ticket-live-video">
                Live Video
              </Button>
              <Button size="small" onClick={() => setDialog('recording')} data-testid="ticket-camera-recording">
                CAMERA RECORDING
              </Button>
            </>
          ) : null}
          {device.data && device.data.type !== 'CAMERA' && permissionsOf(user).has('view_camera') ? (
            <CameraAtEventButton deviceId={deviceId} at={ticket.eventDate} variant="button" label="Cameras at event time" />
          ) : null}
          {showAlerts ? (
            <Button size="small" onClick={() => setDialog('alerts')} data-testid="ticket-device-alerts">
              Device Alerts
            </Button>
          ) : null}
        </Box>
      }
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 2, mb: 2 }}>
        <Box>
          <Typography variant="caption" color="text.secondary">
            Device
          </Typography>
          <Typography variant="body2" data-testid="device-label">
            <Link to={`/devices/${deviceId}/view`}>{label}</Link>
          </Typography>
        </Box>
        <Box>
          <Typography variant="caption" color="text.secondary">
            Parent
          </Typography>
          <Typography variant="body2">{parent ?? '—'}</Typography>
        </Box>
        <Box>
          <Typography variant="caption" color="text.secondary">
            Status
          </Typography>
          <Typography variant="body2">
            {device.data ? `${device.data.status}${device.data.alarmStatus ? ` · ${device.data.alarmStatus}` : ''}` : '—'}
          </Typography>
        </Box>
        {meta ? (
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'flex-end' }}>
            {meta.maintenance ? <Chip size="small" color="warning" label="Maintenance" /> : null}
            {meta.muteDevice ? <Chip size="small" label="Muted" /> : null}
            {meta.enableDevice === false ? <Chip size="small" color="error" label="Disabled" /> : null}
          </Box>
        ) : null}
      </Box>
      {alarmId !== null ? (
        <Box sx={{ mb: 1 }} data-testid="ticket-alarms">
          <Typography variant="subtitle2">Alarm and its history</Typography>
          <DeviceAlarmsPanel deviceId={deviceId} highlight={alarmId} />
        </Box>
      ) : null}
      <Typography variant="subtitle2">Alarm actions</Typography>
      {(actions.data?.contents ?? []).length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          No alarm actions on this device.
        </Typography>
      ) : (
        <List dense disablePadding sx={{ mb: 1 }}>
          {(actions.data?.contents ?? []).map((a) => (
            <ListItem key={a.id} disableGutters>
              <ListItemText
                primary={`${ACTION_NAMES[a.telemetryKey] ?? a.telemetryKey}: ${a.telemetryValue ? 'on' : 'off'}${a.description ? ` · ${a.description}` : ''}`}
                secondary={`${a.user?.name ?? 'System'} · ${formatDateTime(a.createdAt)}`}
              />
            </ListItem>
          ))}
        </List>
      )}
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Mapped entities
      </Typography>
      <MappedEntities deviceId={deviceId} eventDate={ticket.eventDate} />
      {dialog === 'alerts' ? (
        <AlarmSettingsDialog
          deviceId={deviceId}
          open
          onClose={() => setDialog(null)}
          onUpdated={() => {
            void device.refetch();
            void actions.refetch();
          }}
        />
      ) : null}
      {dialog === 'live' ? <LiveVideoDialog open cameraId={deviceId} label={label} onClose={() => setDialog(null)} /> : null}
      {dialog === 'recording' ? (
        <CameraRecordingDialog open cameraId={deviceId} label={label} eventDate={ticket.eventDate} onClose={() => setDialog(null)} />
      ) : null}
    </Section>
  );
}
