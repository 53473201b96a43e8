import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import type { DatesSetInfo, EventClickInfo, EventDropInfo, EventInput } from '@fullcalendar/react';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import interactionPlugin from '@fullcalendar/react/interaction';
import listPlugin from '@fullcalendar/react/list';
import classicTheme from '@fullcalendar/react/themes/classic';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { CALENDAR_KIND_LABELS, CALENDAR_KINDS, CALENDAR_PERMISSIONS, type CalendarItem } from '@sitewatch/contracts/calendar';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { labelOn } from '../../lib/contrast.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { hasRole, permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { type Option, SitePicker } from '../sites/Pickers.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { type ItemsQuery, useAssigneeOptions, useCalendarItems, useCalendarOptions, useReschedule } from './api.ts';
import { RescheduleDialog } from './RescheduleDialog.tsx';
import { localDay, wallClock } from './time.ts';

export const ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin'];

const KIND_COLORS: Record<string, string> = {
  shift: '#1976d2',
  site_visit: '#2e7d32',
  preventive_maintenance: '#ed6c02',
  maintenance_window: '#9c27b0',
  other: '#546e7a',
  workorder: '#d32f2f',
  escalation: '#c2185b',
};

function toInput(item: CalendarItem): EventInput {
  const color = item.color ?? KIND_COLORS[item.kind ?? item.source] ?? '#546e7a';
  return {
    id: item.id,
    title: item.siteName ? `${item.title} · ${item.siteName}` : item.title,
    start: item.start,
    end: item.end,
    allDay: item.allDay,
    editable: item.editable,
    color,
    // a label that stands out on the kind's (or the event's own) colour
    textColor: labelOn(color),
    extendedProps: { item },
  };
}

interface PendingMove {
  info: EventDropInfo;
  item: CalendarItem;
}

/** A user to filter by, searched on the server. */
function UserFilter(props: { value: Option | null; onChange(v: Option | null): void }) {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const options = useAssigneeOptions(useDebounced(input.trim(), 500), open);
  return (
    <Autocomplete
      size="small"
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v, reason) => reason !== 'reset' && setInput(v)}
      options={(options.data?.contents ?? []).map((u) => ({ id: u.id, name: `${u.firstname} ${u.lastname}`.trim() || u.username }))}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      noOptionsText="No Options Available!"
      renderInput={(params) => <TextField {...params} label="User" />}
    />
  );
}

/** /calendar: shifts, visits, maintenance and the helpdesk's due times by day, week, month or as a list. */
export function CalendarPage() {
  const user = useUser();
  const permissions = permissionsOf(user);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const navigate = useNavigate();
  const options = useCalendarOptions();
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [person, setPerson] = useState<Option | null>(null);
  const [site, setSite] = useState<Option | null>(null);
  const [clusterId, setClusterId] = useState<number | ''>('');
  const [kind, setKind] = useState<string>('');
  const [pending, setPending] = useState<PendingMove | null>(null);
  const reschedule = useReschedule();
  const query: ItemsQuery | null = range
    ? {
        ...range,
        ...(person ? { userId: person.id } : {}),
        ...(site ? { siteId: site.id } : {}),
        ...(clusterId !== '' ? { clusterId } : {}),
        ...(kind ? { kind } : {}),
      }
    : null;
  const items = useCalendarItems(query);
  const events = useMemo(() => (items.data?.contents ?? []).map(toInput), [items.data]);
  const denied = useDenied(permissions.has(CALENDAR_PERMISSIONS.view) || hasRole(user, ...ADMIN_ROLES));
  if (denied) return denied;
  const can = options.data?.can;

  const handleDates = (info: DatesSetInfo) => {
    const from = info.start.toISOString();
    const to = info.end.toISOString();
    setRange((r) => (r && r.from === from && r.to === to ? r : { from, to }));
  };

  const move = (p: PendingMove, scope: 'occurrence' | 'series') => {
    const { info, item } = p;
    const start = info.event.start;
    if (!start || item.eventId === null || item.occurrence === null) return info.revert();
    const zone = item.timeZone ?? 'UTC';
    const oldStart = new Date(info.oldEvent.start ?? start);
    const oldEnd = info.oldEvent.end ?? new Date(oldStart.getTime() + 3600_000);
    const end = info.event.end ?? new Date(start.getTime() + (oldEnd.getTime() - oldStart.getTime()));
    const allDay = info.event.allDay;
    const body = {
      scope,
      occurrence: item.occurrence,
      start: allDay ? localDay(start) : wallClock(start, zone),
      end: allDay ? localDay(end) : wallClock(end, zone),
      allDay,
    };
    reschedule.mutate(
      { id: item.eventId, body },
      {
        onSuccess: () => showToast('success', 'Event rescheduled'),
        onError: (error) => {
          info.revert();
          showToast('error', (isHttpError(error) && detailOf(error.data)) || 'Could not reschedule the event');
        },
      },
    );
  };

  const handleDrop = (info: EventDropInfo) => {
    const item = info.event.extendedProps.item as CalendarItem;
    if (item.recurring) setPending({ info, item });
    else move({ info, item }, 'occurrence');
  };

  const handleClick = (info: EventClickInfo) => {
    info.jsEvent.preventDefault();
    const item = info.event.extendedProps.item as CalendarItem;
    if (item.source === 'workorder' && item.ticketId) navigate(`/work-orders/${item.ticketId}/view`);
    else if (item.source === 'escalation' && item.ticketId) navigate(`/tickets/all/view/?ticketId=${item.ticketId}`);
    else if (item.eventId !== null) navigate(`/calendar/${item.eventId}/edit`);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <PageHeader
        title="Calendar"
        actions={
          can?.add ? (
            <Button variant="contained" component={Link} to="/calendar/create" data-testid="calendar-add">
              Add event
            </Button>
          ) : null
        }
      />
      <Paper
        variant="outlined"
        sx={{
          p: 1.5,
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        <UserFilter value={person} onChange={setPerson} />
        <SitePicker label="Site" value={site} onChange={setSite} />
        <TextField
          select
          size="small"
          label="Cluster"
          value={clusterId}
          onChange={(e) => setClusterId(e.target.value === '' ? '' : Number(e.target.value))}
          slotProps={{ htmlInput: { 'data-testid': 'calendar-cluster' } }}
        >
          <MenuItem value="">All clusters</MenuItem>
          {(options.data?.clusters ?? []).map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Kind"
          value={kind}
          onChange={(e) => setKind(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'calendar-kind' } }}
        >
          <MenuItem value="">All kinds</MenuItem>
          {CALENDAR_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {CALENDAR_KIND_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
      </Paper>
      {items.data?.truncated ? <Alert severity="info">Too many events to show at once: narrow the range or the filters.</Alert> : null}
      {items.isError ? <Alert severity="error">The calendar could not be loaded. Try again.</Alert> : null}
      <Paper
        variant="outlined"
        data-color-scheme={theme.palette.mode}
        data-testid="calendar"
        aria-busy={items.isFetching}
        sx={{
          p: { xs: 0.5, sm: 1.5 },
          fontSize: { xs: 13, sm: 14 },
          minHeight: 400,
          minWidth: 0,
          overflowX: 'auto',
          // The calendar's own palette follows the theme: its text and its muted text pass AA on the page's paper.
          // (Set with the colour scheme's attribute, so that it outweighs the calendar's own dark palette, which is
          // keyed on that attribute: its faint grey, the other month's day numbers, stands 2:1 on the paper.)
          '&[data-color-scheme]': {
            '--fc-classic-background': theme.palette.background.paper,
            '--fc-classic-foreground': theme.palette.text.primary,
            '--fc-classic-muted-foreground': theme.palette.text.secondary,
            '--fc-classic-faint-foreground': theme.palette.text.secondary,
            '--fc-classic-primary': theme.palette.primary.main,
            '--fc-classic-primary-foreground': theme.palette.primary.contrastText,
          },
          // Event chips and a day's "+2 more" button are targets of at least 24 px (WCAG 2.5.8); chips show their focus.
          '& [data-testid="calendar-item"], & [role="button"][aria-haspopup="dialog"]': { minHeight: 24, alignItems: 'center' },
          '& [data-testid="calendar-item"]:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 1 },
          // On a phone an item's title wraps instead of being cut off at the edge.
          [theme.breakpoints.down('sm')]: {
            '& [data-testid="calendar-item"], & [data-testid="calendar-item"] *': { whiteSpace: 'normal', overflowWrap: 'anywhere' },
          },
        }}
      >
        <FullCalendar
          plugins={[classicTheme, dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
          initialView={phone ? 'listWeek' : 'dayGridMonth'}
          headerToolbar={
            phone
              ? { start: 'prev,next', center: 'title', end: 'today' }
              : { start: 'prev,next today', center: 'title', end: 'dayGridMonth,timeGridWeek,timeGridDay,listWeek' }
          }
          footerToolbar={phone ? { center: 'listWeek,timeGridDay,dayGridMonth' } : false}
          height="auto"
          nowIndicator
          dayMaxEvents={4}
          // Names that hold the words the buttons show (WCAG 2.5.3): "Today", "+2 more".
          todayHint="Today"
          moreLinkHint={(count: number) => `+${count} more events`}
          events={events}
          datesSet={handleDates}
          eventDidMount={(info) => {
            const item = info.event.extendedProps.item as CalendarItem;
            info.el.dataset.testid = 'calendar-item';
            info.el.dataset.itemId = item.id;
          }}
          eventDrop={handleDrop}
          eventClick={handleClick}
          editable={Boolean(can?.add || can?.change)}
          eventDurationEditable={false}
          noEventsText="No events in this period"
        />
      </Paper>
      <RescheduleDialog
        open={pending !== null}
        title={pending?.item.title ?? ''}
        onCancel={() => {
          pending?.info.revert();
          setPending(null);
        }}
        onChoose={(scope) => {
          if (pending) move(pending, scope);
          setPending(null);
        }}
      />
    </Box>
  );
}
