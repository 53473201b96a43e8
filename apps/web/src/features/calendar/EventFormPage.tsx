import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  CALENDAR_KIND_LABELS,
  CALENDAR_KINDS,
  CALENDAR_MESSAGES,
  CALENDAR_PERMISSIONS,
  type CalendarEvent,
  type CalendarKind,
  calendarEventInputSchema,
  OWN_EVENT_KINDS,
  WEEKDAYS,
  type Weekday,
} from '@sitewatch/contracts/calendar';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { hasRole, permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { useAssigneeOptions, useCalendarEvent, useCalendarOptions, useDeleteEvent, useSaveEvent } from './api.ts';
import { addMinutes, browserZone, timeZones } from './time.ts';

type Repeat = 'none' | 'DAILY' | 'WEEKLY' | 'MONTHLY';
type Ends = 'never' | 'until' | 'count';

interface FormState {
  title: string;
  kind: CalendarKind;
  allDay: boolean;
  start: string;
  end: string;
  timeZone: string;
  repeat: Repeat;
  interval: number;
  byWeekday: Weekday[];
  ends: Ends;
  until: string;
  count: number;
  assignees: Option[];
  site: Option | null;
  device: Option | null;
  clusterId: number | '';
  notes: string;
  color: string;
  useColor: boolean;
}

const ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin'];
const WEEKDAY_LABELS: Record<Weekday, string> = { MO: 'Mon', TU: 'Tue', WE: 'Wed', TH: 'Thu', FR: 'Fri', SA: 'Sat', SU: 'Sun' };

function nextHour() {
  const d = new Date(Date.now() + 3600_000);
  d.setMinutes(0, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:00`;
}

function emptyState(): FormState {
  const start = nextHour();
  return {
    title: '',
    kind: 'shift',
    allDay: false,
    start,
    end: addMinutes(start, 60),
    timeZone: browserZone(),
    repeat: 'none',
    interval: 1,
    byWeekday: [],
    ends: 'never',
    until: '',
    count: 10,
    assignees: [],
    site: null,
    device: null,
    clusterId: '',
    notes: '',
    color: '#1976d2',
    useColor: false,
  };
}

const stateOf = (e: CalendarEvent): FormState => ({
  title: e.title,
  kind: e.kind,
  allDay: e.allDay,
  start: e.start,
  end: e.end,
  timeZone: e.timeZone,
  repeat: e.recurrence?.freq ?? 'none',
  interval: e.recurrence?.interval ?? 1,
  byWeekday: e.recurrence?.byWeekday ?? [],
  ends: e.recurrence?.until ? 'until' : e.recurrence?.count ? 'count' : 'never',
  until: e.recurrence?.until ?? '',
  count: e.recurrence?.count ?? 10,
  assignees: e.assignees.map((a) => ({ id: a.id, name: a.name })),
  site: e.site,
  device: e.device ? { id: e.device.id, name: e.device.label } : null,
  clusterId: e.clusterId ?? '',
  notes: e.notes,
  color: e.color ?? '#1976d2',
  useColor: e.color !== null,
});

function AssigneePicker(props: { value: Option[]; onChange(v: Option[]): void; disabled?: boolean }) {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const options = useAssigneeOptions(useDebounced(input.trim(), 500), open);
  return (
    <Autocomplete
      multiple
      disabled={props.disabled}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v, reason) => reason !== 'reset' && setInput(v)}
      options={(options.data?.contents ?? []).map((u) => ({ id: u.id, name: `${u.firstname} ${u.lastname}`.trim() || u.username }))}
      filterOptions={(x) => x}
      filterSelectedOptions
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      noOptionsText="No Options Available!"
      renderInput={(p) => <TextField {...p} label="Assignees" />}
    />
  );
}

/** /calendar/create and /calendar/{eventId}/edit: an event, its recurrence, its people, site, device and cluster. */
/** The form's values as the server takes them, checked by the shared schema. */
function validate(form: FormState) {
  const start = form.allDay ? `${form.start.slice(0, 10)}T00:00` : form.start;
  const end = form.allDay ? addMinutes(`${form.end.slice(0, 10)}T00:00`, 1440) : form.end;
  return calendarEventInputSchema.safeParse({
    title: form.title,
    kind: form.kind,
    allDay: form.allDay,
    start,
    end,
    timeZone: form.timeZone,
    recurrence:
      form.repeat === 'none'
        ? null
        : {
            freq: form.repeat,
            interval: Number(form.interval),
            byWeekday: form.repeat === 'WEEKLY' ? form.byWeekday : [],
            until: form.ends === 'until' && form.until ? form.until : null,
            count: form.ends === 'count' ? Number(form.count) : null,
          },
    assigneeIds: form.assignees.map((a) => a.id),
    siteId: form.site?.id ?? null,
    deviceId: form.device?.id ?? null,
    clusterId: form.clusterId === '' ? null : form.clusterId,
    notes: form.notes,
    color: form.useColor ? form.color : null,
  });
}

/** The messages of a failed check, by field. */
const errorsOf = (result: ReturnType<typeof validate>): Record<string, string> =>
  result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));

export function EventFormPage() {
  const params = useParams();
  const id = params.eventId ? Number(params.eventId) : null;
  const user = useUser();
  const permissions = permissionsOf(user);
  const navigate = useNavigate();
  // Once deleted, the event is not read again (the deletion's own push would ask for it).
  const [deleted, setDeleted] = useState(false);
  const event = useCalendarEvent(id !== null && !Number.isNaN(id) && !deleted ? id : null);
  const options = useCalendarOptions();
  const save = useSaveEvent(id);
  const remove = useDeleteEvent();
  const zones = useMemo(timeZones, []);
  const [form, setForm] = useState<FormState>(emptyState);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (event.data) setForm(stateOf(event.data));
  }, [event.data]);
  // Once a save was refused, the messages follow the fields: a fixed field (an end moved after the start) loses its
  // message at once, without another try.
  const shown = Object.keys(errors).length > 0;
  useEffect(() => {
    if (shown) setErrors(errorsOf(validate(form)));
  }, [form, shown]);
  const admin = hasRole(user, ...ADMIN_ROLES);
  const denied = useDenied(admin || permissions.has(id === null ? CALENDAR_PERMISSIONS.add : CALENDAR_PERMISSIONS.view));
  if (denied) return denied;
  if (id !== null && (Number.isNaN(id) || event.isError)) {
    return (
      <EmptyState
        title="Event not found"
        description="This event does not exist, was removed, or is at a site you are not assigned to."
        action={<Link to="/calendar">Back to the calendar</Link>}
      />
    );
  }
  if ((id !== null && event.isLoading) || options.isLoading) return <PageLoader />;
  const can = options.data?.can;
  const editable = id === null ? Boolean(can?.add) : Boolean(event.data?.can.change);
  const ownOnly = Boolean(can?.addOwnOnly) && id === null;
  const kinds = CALENDAR_KINDS.filter((k) =>
    ownOnly ? OWN_EVENT_KINDS.includes(k) : k !== 'maintenance_window' || can?.maintenance || form.kind === k,
  );

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const parsed = validate(form);
    if (!parsed.success) {
      setErrors(errorsOf(parsed));
      return;
    }
    setErrors({});
    save.mutate(
      { ...parsed.data, ...(event.data ? { version: event.data.version } : {}) },
      {
        onSuccess: () => {
          showToast('success', id === null ? CALENDAR_MESSAGES.created : CALENDAR_MESSAGES.updated);
          navigate('/calendar');
        },
        onError: (error) => setFailure((isHttpError(error) && detailOf(error.data)) || 'Failed to save'),
      },
    );
  };

  const handleDelete = () => {
    if (id === null) return;
    setDeleted(true);
    remove.mutate(
      { id },
      {
        onSuccess: () => {
          showToast('success', CALENDAR_MESSAGES.deleted);
          navigate('/calendar');
        },
        onError: (error) => {
          setDeleted(false);
          setConfirming(false);
          setFailure((isHttpError(error) && detailOf(error.data)) || 'Failed to delete');
        },
      },
    );
  };

  const err = (key: string) => ({ error: Boolean(errors[key]), helperText: errors[key] });

  return (
    <Box component="form" onSubmit={handleSubmit} noValidate sx={{ maxWidth: 860, display: 'grid', gap: 2 }}>
      <PageHeader title={id === null ? 'Add event' : editable ? 'Edit event' : (event.data?.title ?? 'Event')} />
      {failure ? (
        <Alert severity="error" data-testid="form-error">
          {failure}
        </Alert>
      ) : null}
      {event.data?.seriesId ? <Alert severity="info">This occurrence was moved out of its series.</Alert> : null}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '2fr 1fr' } }}>
          <TextField
            label="Title"
            required
            value={form.title}
            onChange={(e) => set('title', e.target.value)}
            disabled={!editable}
            slotProps={{ htmlInput: { 'data-testid': 'event-title', maxLength: 200 } }}
            {...err('title')}
          />
          <TextField
            select
            label="Kind"
            value={form.kind}
            onChange={(e) => set('kind', e.target.value as CalendarKind)}
            disabled={!editable}
            slotProps={{ htmlInput: { 'data-testid': 'event-kind' } }}
          >
            {kinds.map((k) => (
              <MenuItem key={k} value={k}>
                {CALENDAR_KIND_LABELS[k]}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <FormControlLabel
          control={<Switch checked={form.allDay} onChange={(e) => set('allDay', e.target.checked)} disabled={!editable} />}
          label="All day"
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr 1fr' }, alignItems: 'start' }}>
          <TextField
            label="Starts"
            type={form.allDay ? 'date' : 'datetime-local'}
            value={form.allDay ? form.start.slice(0, 10) : form.start}
            onChange={(e) => set('start', form.allDay ? `${e.target.value}T00:00` : e.target.value)}
            disabled={!editable}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'event-start' } }}
            {...err('start')}
          />
          <TextField
            label={form.allDay ? 'Last day' : 'Ends'}
            type={form.allDay ? 'date' : 'datetime-local'}
            value={form.allDay ? (form.end > form.start ? addMinutes(form.end, -1).slice(0, 10) : form.start.slice(0, 10)) : form.end}
            onChange={(e) => set('end', form.allDay ? addMinutes(`${e.target.value}T00:00`, 1440) : e.target.value)}
            disabled={!editable}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'event-end' } }}
            {...err('end')}
          />
          <Autocomplete
            disabled={!editable}
            value={form.timeZone}
            onChange={(_e, v) => v && set('timeZone', v)}
            options={zones}
            disableClearable
            renderInput={(p) => <TextField {...p} label="Time zone" {...err('timeZone')} />}
          />
        </Box>
        <Typography variant="subtitle2">Repeat</Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: '1fr 1fr 1fr 1fr' }, alignItems: 'start' }}>
          <TextField
            select
            label="Repeats"
            value={form.repeat}
            onChange={(e) => set('repeat', e.target.value as Repeat)}
            disabled={!editable}
            slotProps={{ htmlInput: { 'data-testid': 'event-repeat' } }}
          >
            <MenuItem value="none">Does not repeat</MenuItem>
            <MenuItem value="DAILY">Daily</MenuItem>
            <MenuItem value="WEEKLY">Weekly</MenuItem>
            <MenuItem value="MONTHLY">Monthly</MenuItem>
          </TextField>
          {form.repeat !== 'none' ? (
            <>
              <TextField
                label="Every"
                type="number"
                value={form.interval}
                onChange={(e) => set('interval', Number(e.target.value))}
                disabled={!editable}
                slotProps={{ htmlInput: { min: 1, max: 99 } }}
                {...err('recurrence.interval')}
              />
              <TextField select label="Ends" value={form.ends} onChange={(e) => set('ends', e.target.value as Ends)} disabled={!editable}>
                <MenuItem value="never">Never</MenuItem>
                <MenuItem value="until">On a date</MenuItem>
                <MenuItem value="count">After a number of times</MenuItem>
              </TextField>
              {form.ends === 'until' ? (
                <TextField
                  label="Last day"
                  type="date"
                  value={form.until}
                  onChange={(e) => set('until', e.target.value)}
                  disabled={!editable}
                  slotProps={{ inputLabel: { shrink: true } }}
                  {...err('recurrence.until')}
                />
              ) : form.ends === 'count' ? (
                <TextField
                  label="Times"
                  type="number"
                  value={form.count}
                  onChange={(e) => set('count', Number(e.target.value))}
                  disabled={!editable}
                  slotProps={{ htmlInput: { min: 1, max: 1000 } }}
                  {...err('recurrence.count')}
                />
              ) : null}
            </>
          ) : null}
        </Box>
        {form.repeat === 'WEEKLY' ? (
          <ToggleButtonGroup
            size="small"
            value={form.byWeekday}
            onChange={(_e, v: Weekday[]) => set('byWeekday', v)}
            aria-label="On weekdays"
            disabled={!editable}
            sx={{ flexWrap: 'wrap' }}
          >
            {WEEKDAYS.map((d) => (
              <ToggleButton key={d} value={d} aria-label={WEEKDAY_LABELS[d]}>
                {WEEKDAY_LABELS[d]}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        ) : null}
        {ownOnly ? (
          <Alert severity="info">The event is yours: you are its assignee.</Alert>
        ) : (
          <AssigneePicker value={form.assignees} onChange={(v) => set('assignees', v)} disabled={!editable} />
        )}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr 1fr' }, alignItems: 'start' }}>
          <SitePicker
            label="Site"
            value={form.site}
            onChange={(v) => setForm((f) => ({ ...f, site: v, device: v && f.device && f.site?.id !== v.id ? null : f.device }))}
            disabled={!editable}
          />
          <DevicePicker
            label="Device"
            value={form.device}
            onChange={(v) => set('device', v)}
            assetId={form.site?.id}
            disabled={!editable}
          />
          <TextField
            select
            label="Cluster"
            value={form.clusterId}
            onChange={(e) => set('clusterId', e.target.value === '' ? '' : Number(e.target.value))}
            disabled={!editable}
          >
            <MenuItem value="">None</MenuItem>
            {(options.data?.clusters ?? []).map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        {errors.siteId ? <Alert severity="error">{errors.siteId}</Alert> : null}
        {form.kind === 'maintenance_window' ? (
          <Alert severity="warning" data-testid="window-note">
            From each start to its end, the device (or every device of the site) is in maintenance mode: its alarms open no ticket and
            notify nobody, the SLA of the site's open tickets pauses, and the site's recordings are marked.
          </Alert>
        ) : null}
        <TextField
          label="Notes"
          value={form.notes}
          onChange={(e) => set('notes', e.target.value)}
          disabled={!editable}
          multiline
          minRows={2}
          {...err('notes')}
        />
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <FormControlLabel
            control={<Switch checked={form.useColor} onChange={(e) => set('useColor', e.target.checked)} disabled={!editable} />}
            label="Own colour"
          />
          {form.useColor ? (
            <TextField
              type="color"
              label="Colour"
              value={form.color}
              onChange={(e) => set('color', e.target.value)}
              disabled={!editable}
              sx={{ width: 120 }}
            />
          ) : null}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
          {id !== null && event.data?.can.delete ? (
            <Button color="error" onClick={() => setConfirming(true)} data-testid="event-delete" sx={{ mr: 'auto' }}>
              Delete
            </Button>
          ) : null}
          <Button component={Link} to="/calendar">
            {editable ? 'Cancel' : 'Back'}
          </Button>
          {editable ? (
            <Button type="submit" variant="contained" disabled={save.isPending} data-testid="event-save">
              {id === null ? 'Create event' : 'Save'}
            </Button>
          ) : null}
        </Box>
      </Paper>
      <ConfirmDialog
        open={confirming}
        destructive
        title={`Delete '${event.data?.title ?? ''}'?`}
        text={event.data?.recurrence ? 'Every occurrence of the series is deleted, moved ones included.' : 'The event is deleted.'}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={handleDelete}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
