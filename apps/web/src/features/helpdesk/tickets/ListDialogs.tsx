import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TICKET_NOTIFICATION_EVENTS, type TicketColumn, type TicketNotificationPrefs } from '@sitewatch/contracts/helpdesk/admin';
import {
  TICKET_STATUS_LABELS,
  TICKET_STATUSES,
  TICKET_TYPE_LABELS,
  TICKET_TYPES,
  type TicketType,
} from '@sitewatch/contracts/helpdesk/tickets';
import { useEffect, useState } from 'react';
import type { Assignee, SiteOption } from './api.ts';
import { useIssueTypes, usePriorities } from './api.ts';
import { SitePicker, UserPicker } from './components.tsx';
import {
  ALL_COLUMNS,
  columnLabel,
  DATE_PRESETS,
  type DatePreset,
  type DateRange,
  exceedsMonths,
  fromLocalInput,
  presetRange,
  toLocalInput,
} from './model.ts';

/** The filter box of a ticket list: the filters the API takes, applied together. */
export interface ListFilters {
  status: string[];
  priority: string[];
  event: string;
  subEvent: string;
  assignee: Assignee | null;
  unassigned: boolean;
  site: SiteOption | null;
  overdue: boolean;
  onHold: boolean;
  unacknowledged: boolean;
}
export const EMPTY_FILTERS: ListFilters = {
  status: [],
  priority: [],
  event: '',
  subEvent: '',
  assignee: null,
  unassigned: false,
  site: null,
  overdue: false,
  onHold: false,
  unacknowledged: false,
};

export function FilterDialog(props: {
  open: boolean;
  type: TicketType | 'all';
  value: ListFilters;
  onApply(v: ListFilters): void;
  onClose(): void;
}) {
  const [draft, setDraft] = useState(props.value);
  const priorities = usePriorities();
  const issueTypes = useIssueTypes(props.type === 'all' ? {} : { ticketType: props.type });
  useEffect(() => {
    if (props.open) setDraft(props.value);
  }, [props.open, props.value]);
  const issue = issueTypes.data?.contents.find((i) => i.name === draft.event);
  const set = (patch: Partial<ListFilters>) => setDraft((d) => ({ ...d, ...patch }));
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" data-testid="filter-dialog">
      <DialogTitle>Filter tickets</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <FormControl fullWidth>
          <InputLabel id="filter-status">Status</InputLabel>
          <Select
            labelId="filter-status"
            label="Status"
            multiple
            value={draft.status}
            onChange={(e) => set({ status: e.target.value as string[] })}
            renderValue={(v) => v.map((s) => TICKET_STATUS_LABELS[s as keyof typeof TICKET_STATUS_LABELS] ?? s).join(', ')}
          >
            {TICKET_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                <Checkbox checked={draft.status.includes(s)} />
                <ListItemText primary={TICKET_STATUS_LABELS[s]} />
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl fullWidth>
          <InputLabel id="filter-priority">Priority</InputLabel>
          <Select
            labelId="filter-priority"
            label="Priority"
            multiple
            value={draft.priority}
            onChange={(e) => set({ priority: e.target.value as string[] })}
            renderValue={(v) => v.join(', ')}
          >
            {(priorities.data?.contents ?? []).map((p) => (
              <MenuItem key={p.name} value={p.name}>
                <Checkbox checked={draft.priority.includes(p.name)} />
                <ListItemText primary={p.name} />
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 }}>
          <TextField select label="Issue Type" value={draft.event} onChange={(e) => set({ event: e.target.value, subEvent: '' })}>
            <MenuItem value="">Any</MenuItem>
            {(issueTypes.data?.contents ?? []).map((i) => (
              <MenuItem key={i.id} value={i.name}>
                {i.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Issue Sub Type"
            value={draft.subEvent}
            disabled={!issue?.subTypes.length}
            onChange={(e) => set({ subEvent: e.target.value })}
          >
            <MenuItem value="">Any</MenuItem>
            {(issue?.subTypes ?? []).map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <UserPicker label="Assigned to" value={draft.assignee} disabled={draft.unassigned} onChange={(assignee) => set({ assignee })} />
        <SitePicker label="Location" value={draft.site} onChange={(site) => set({ site })} />
        <FormGroup row>
          <FormControlLabel
            control={<Checkbox checked={draft.unassigned} onChange={(e) => set({ unassigned: e.target.checked, assignee: null })} />}
            label="Unassigned"
          />
          <FormControlLabel
            control={<Checkbox checked={draft.overdue} onChange={(e) => set({ overdue: e.target.checked })} />}
            label="Overdue"
          />
          <FormControlLabel
            control={<Checkbox checked={draft.onHold} onChange={(e) => set({ onHold: e.target.checked })} />}
            label="On hold"
          />
          <FormControlLabel
            control={<Checkbox checked={draft.unacknowledged} onChange={(e) => set({ unacknowledged: e.target.checked })} />}
            label="Not acknowledged"
          />
        </FormGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setDraft(EMPTY_FILTERS)}>Clear all</Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="contained"
          data-testid="filter-apply"
          onClick={() => {
            props.onApply(draft);
            props.onClose();
          }}
        >
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Modify table header: which columns show, remembered per user; defaults from the type's settings (SPEC 9). */
export function ColumnsDialog(props: {
  open: boolean;
  value: TicketColumn[];
  defaults: TicketColumn[];
  onSave(v: TicketColumn[]): void;
  onClose(): void;
}) {
  const [draft, setDraft] = useState(props.value);
  useEffect(() => {
    if (props.open) setDraft(props.value);
  }, [props.open, props.value]);
  const toggle = (c: TicketColumn) =>
    setDraft((d) => (d.includes(c) ? d.filter((x) => x !== c) : ALL_COLUMNS.filter((x) => d.includes(x) || x === c)));
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="xs" data-testid="columns-dialog">
      <DialogTitle>Modify table header</DialogTitle>
      <DialogContent>
        <FormGroup>
          {ALL_COLUMNS.map((c) => (
            <FormControlLabel
              key={c}
              control={<Checkbox checked={draft.includes(c)} onChange={() => toggle(c)} />}
              label={columnLabel(c)}
            />
          ))}
        </FormGroup>
        {draft.length === 0 ? (
          <Typography color="error" variant="body2">
            Choose at least one column
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setDraft(props.defaults)}>Reset to defaults</Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={draft.length === 0}
          data-testid="columns-save"
          onClick={() => {
            props.onSave(draft);
            props.onClose();
          }}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const EVENT_LABELS: Record<(typeof TICKET_NOTIFICATION_EVENTS)[number], string> = {
  created: 'A ticket I take part in is raised',
  assigned: 'A ticket is assigned to me',
  updated: 'A ticket I take part in changes status',
  escalated: 'A ticket I take part in is escalated',
};

/** Notification config: which ticket events and kinds reach this user, and live popups on or off. */
export function NotificationDialog(props: {
  open: boolean;
  value: TicketNotificationPrefs;
  popup: boolean;
  busy: boolean;
  onSave(v: TicketNotificationPrefs, popup: boolean): void;
  onClose(): void;
}) {
  const [draft, setDraft] = useState(props.value);
  const [popup, setPopup] = useState(props.popup);
  useEffect(() => {
    if (props.open) {
      setDraft(props.value);
      setPopup(props.popup);
    }
  }, [props.open, props.value, props.popup]);
  const toggleType = (t: TicketType) =>
    setDraft((d) => ({ ...d, types: d.types.includes(t) ? d.types.filter((x) => x !== t) : [...d.types, t] }));
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" data-testid="notification-dialog">
      <DialogTitle>Notification config</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <FormControl component="fieldset">
          <FormLabel component="legend">Notify me when</FormLabel>
          <FormGroup>
            {TICKET_NOTIFICATION_EVENTS.map((e) => (
              <FormControlLabel
                key={e}
                control={
                  <Checkbox
                    checked={draft.events[e]}
                    onChange={(ev) => setDraft((d) => ({ ...d, events: { ...d.events, [e]: ev.target.checked } }))}
                  />
                }
                label={EVENT_LABELS[e]}
              />
            ))}
          </FormGroup>
        </FormControl>
        <FormControl component="fieldset">
          <FormLabel component="legend">For these kinds of ticket</FormLabel>
          <FormGroup row>
            {TICKET_TYPES.map((t) => (
              <FormControlLabel
                key={t}
                control={<Checkbox checked={draft.types.includes(t)} onChange={() => toggleType(t)} />}
                label={TICKET_TYPE_LABELS[t]}
              />
            ))}
          </FormGroup>
        </FormControl>
        <FormControlLabel
          control={<Switch checked={popup} onChange={(e) => setPopup(e.target.checked)} />}
          label="Show live popups for new notifications"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={props.busy}
          onClick={() => props.onSave({ ...draft, popup }, popup)}
          data-testid="notification-save"
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The date range of a list: presets from the last 24 hours (the initial one) to 6 months, or a custom range. */
export function DateRangeControl(props: { value: DateRange; onChange(v: DateRange): void }) {
  const [custom, setCustom] = useState({ from: props.value.from, to: props.value.to });
  useEffect(() => setCustom({ from: props.value.from, to: props.value.to }), [props.value.from, props.value.to]);
  const invalid = custom.from && custom.to && new Date(custom.from) >= new Date(custom.to);
  const tooLong = custom.from && custom.to && exceedsMonths(custom.from, custom.to);
  const error = invalid ? 'Please choose an end date greater than the start date' : tooLong ? 'Choose a range of at most 6 months' : '';
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label="Date range"
        value={props.value.preset}
        sx={{ minWidth: 160 }}
        slotProps={{ htmlInput: { 'data-testid': 'date-preset' } }}
        onChange={(e) => {
          const preset = e.target.value as DatePreset;
          if (preset === 'custom') props.onChange({ ...props.value, preset });
          else props.onChange(presetRange(preset));
        }}
      >
        {DATE_PRESETS.map((p) => (
          <MenuItem key={p.key} value={p.key}>
            {p.label}
          </MenuItem>
        ))}
        <MenuItem value="custom">Custom range</MenuItem>
      </TextField>
      {props.value.preset === 'custom' ? (
        <>
          <TextField
            size="small"
            type="datetime-local"
            label="From"
            value={custom.from ? toLocalInput(custom.from) : ''}
            onChange={(e) => setCustom((c) => ({ ...c, from: fromLocalInput(e.target.value) }))}
            slotProps={{ inputLabel: { shrink: true } }}
            error={Boolean(error)}
            helperText={error || ' '}
          />
          <TextField
            size="small"
            type="datetime-local"
            label="To"
            value={custom.to ? toLocalInput(custom.to) : ''}
            onChange={(e) => setCustom((c) => ({ ...c, to: fromLocalInput(e.target.value) }))}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button
            size="small"
            variant="outlined"
            sx={{ mt: 0.5 }}
            disabled={Boolean(error) || !custom.from || !custom.to}
            onClick={() => props.onChange({ preset: 'custom', ...custom })}
          >
            Apply
          </Button>
        </>
      ) : null}
    </Box>
  );
}
