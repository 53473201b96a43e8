import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ATTENDANCE_MESSAGES,
  ATTENDANCE_PERMISSIONS,
  ATTENDANCE_PHOTO_LIMITS,
  ATTENDANCE_PHOTO_TYPES,
  type AttendanceRecord,
} from '@sitewatch/contracts/attendance';
import { useState } from 'react';
import { formatDateTime } from '../../lib/format.ts';
import { isHttpError } from '../../lib/http.ts';
import { QUEUED_MESSAGE } from '../../lib/offline/send-or-queue.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { type Option, SitePicker } from '../sites/Pickers.tsx';
import { locate, useCheckIn, useCheckOut, useCurrentAttendance } from './api.ts';
import { isWaitingRecord } from './offline.ts';

type Phase = 'idle' | 'locating' | 'sending';

const messageOf = (e: unknown, fallback: string) => (isHttpError(e) ? (e.detail ?? e.message) : e instanceof Error ? e.message : fallback);

const since = (iso: string) => {
  const minutes = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 60_000));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

const SNAPSHOT_TEXT: Record<AttendanceRecord['snapshot']['state'], string | null> = {
  none: null,
  pending: 'Taking a camera snapshot of the site…',
  stored: 'Camera snapshot stored',
  unavailable: 'The site camera had no picture',
};

/** A photo the server would refuse, refused here first (it may wait offline for hours before it is sent). */
function photoProblem(file: File): string | null {
  if (!(ATTENDANCE_PHOTO_TYPES as readonly string[]).includes(file.type)) return ATTENDANCE_MESSAGES.photoType;
  if (file.size > ATTENDANCE_PHOTO_LIMITS.bytes) return ATTENDANCE_MESSAGES.photoTooLarge;
  return null;
}

/** An optional photo taken with the phone's camera, kept with the check-in. */
function PhotoInput(props: {
  photo: File | null;
  onChange(photo: File | null): void;
  onProblem(problem: string): void;
  disabled: boolean;
}) {
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button component="label" variant="outlined" disabled={props.disabled}>
          {props.photo ? 'Take another photo' : 'Add a photo'}
          <input
            hidden
            type="file"
            accept="image/*"
            capture="environment"
            data-testid="check-in-photo"
            onChange={(event) => {
              const file = event.target.files?.[0] ?? null;
              event.target.value = '';
              if (!file) return;
              const problem = photoProblem(file);
              if (problem) props.onProblem(problem);
              else props.onChange(file);
            }}
          />
        </Button>
        {props.photo ? (
          <>
            <Typography variant="body2" data-testid="check-in-photo-name">
              {props.photo.name || 'Photo'}
            </Typography>
            <Button size="small" onClick={() => props.onChange(null)} disabled={props.disabled}>
              Remove
            </Button>
          </>
        ) : null}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Optional: a JPEG, PNG or WebP picture of up to {ATTENDANCE_PHOTO_LIMITS.label}, kept with the check-in.
      </Typography>
    </Stack>
  );
}

/**
 * Check in at a site from a phone, or check out: the browser's position goes to the server, which decides by the
 * site's geofence. With `site` fixed (the ticket view) the site is not chosen.
 */
export function CheckInPanel(props: { site?: Option | null; ticketId?: number; compact?: boolean }) {
  const permissions = permissionsOf(useUser());
  const current = useCurrentAttendance();
  const checkIn = useCheckIn();
  const checkOut = useCheckOut();
  const [picked, setPicked] = useState<Option | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const site = props.site ?? picked;
  const may = permissions.has(ATTENDANCE_PERMISSIONS.add);

  if (!may) return null;
  if (current.isPending) return <CircularProgress size={24} aria-label="Loading attendance" />;
  if (current.isError) return <Alert severity="error">Attendance could not be loaded. Try again.</Alert>;
  const open = current.data.record;
  const busy = phase !== 'idle';

  async function doCheckIn() {
    if (!site) {
      setError('Choose a site');
      return;
    }
    setError(null);
    setPhase('locating');
    try {
      const position = await locate();
      setPhase('sending');
      const { queued } = await checkIn.mutateAsync({
        site,
        input: { assetId: site.id, ...position, ...(props.ticketId ? { ticketId: props.ticketId } : {}) },
        photo,
      });
      setPhoto(null);
      if (queued) toast.info(QUEUED_MESSAGE);
      else toast.success(`Checked in at ${site.name}`);
    } catch (e) {
      setError(messageOf(e, 'Check-in failed. Try again.'));
    } finally {
      setPhase('idle');
    }
  }

  async function doCheckOut() {
    setError(null);
    setPhase('locating');
    try {
      // check-out is fenced like check-in: the position is needed
      const position = await locate();
      setPhase('sending');
      const { queued } = await checkOut.mutateAsync({ siteName: open?.siteName ?? '', input: position });
      if (queued) toast.info(QUEUED_MESSAGE);
      else toast.success('Checked out');
    } catch (e) {
      setError(messageOf(e, 'Check-out failed. Try again.'));
    } finally {
      setPhase('idle');
    }
  }

  const status =
    phase === 'locating' ? (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="attendance-locating">
        <CircularProgress size={18} />
        <Typography variant="body2">Finding your location…</Typography>
      </Stack>
    ) : phase === 'sending' ? (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CircularProgress size={18} />
        <Typography variant="body2">Checking with the site's geofence…</Typography>
      </Stack>
    ) : null;

  if (open) {
    const elsewhere = props.site && props.site.id !== open.assetId;
    return (
      <Stack spacing={1.5} data-testid="attendance-open">
        <Alert severity="success" icon={false}>
          <Typography sx={{ fontWeight: 600 }} data-testid="attendance-status">
            Checked in at {open.siteName}
          </Typography>
          {isWaitingRecord(open) ? (
            <Typography variant="body2" data-testid="attendance-waiting">
              Since {formatDateTime(open.checkInAt)} · saved on this phone, checked against the site's geofence when it is sent
            </Typography>
          ) : (
            <Typography variant="body2">
              Since {formatDateTime(open.checkInAt)} ({since(open.checkInAt)}) · {open.distance} m from the site
            </Typography>
          )}
          {SNAPSHOT_TEXT[open.snapshot.state] ? <Typography variant="body2">{SNAPSHOT_TEXT[open.snapshot.state]}</Typography> : null}
          {open.photo ? <Typography variant="body2">Photo from the phone stored</Typography> : null}
          {open.movedTicketIds.length > 0 ? (
            <Typography variant="body2">
              {open.movedTicketIds.length === 1
                ? 'Your ticket here moved to In progress.'
                : `${open.movedTicketIds.length} of your tickets here moved to In progress.`}
            </Typography>
          ) : null}
        </Alert>
        {elsewhere ? <Alert severity="info">Check out of {open.siteName} before checking in here.</Alert> : null}
        {status}
        {error ? (
          <Alert severity="error" data-testid="attendance-error">
            {error}
          </Alert>
        ) : null}
        <Button
          variant="contained"
          color="warning"
          size="large"
          fullWidth={!props.compact}
          disabled={busy}
          onClick={doCheckOut}
          data-testid="check-out"
        >
          Check out
        </Button>
      </Stack>
    );
  }

  return (
    <Stack spacing={1.5} data-testid="attendance-closed">
      {props.site ? (
        <Typography variant="body2">
          Check in at <strong>{props.site.name}</strong> when you arrive. Your position is checked against the site's{' '}
          {current.data.geofenceMeters} m geofence.
        </Typography>
      ) : (
        <>
          <Typography variant="body2">
            Choose the site you are at. Your position is checked against the site's {current.data.geofenceMeters} m geofence.
          </Typography>
          <Box>
            <SitePicker label="Site" value={picked} onChange={setPicked} required disabled={busy} />
          </Box>
        </>
      )}
      <PhotoInput
        photo={photo}
        disabled={busy}
        onChange={(file) => {
          setError(null);
          setPhoto(file);
        }}
        onProblem={setError}
      />
      {status}
      {error ? (
        <Alert severity="error" data-testid="attendance-error">
          {error}
        </Alert>
      ) : null}
      <Button
        variant="contained"
        size="large"
        fullWidth={!props.compact}
        disabled={busy || !site}
        onClick={doCheckIn}
        data-testid="check-in"
      >
        Check in
      </Button>
    </Stack>
  );
}
