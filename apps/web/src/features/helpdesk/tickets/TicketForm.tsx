import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { HELPDESK_MESSAGES, TICKET_LIMITS, type Ticket, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useRef, useState } from 'react';
import { formatBytes } from '../../../lib/format.ts';
import type { Assignee, DeviceOption, SiteOption } from './api.ts';
import { useIssueTypes, usePriorities } from './api.ts';
import { DevicePicker, SitePicker, UserPicker } from './components.tsx';
import { fromLocalInput, toLocalInput } from './model.ts';

export interface TicketFormValues {
  title: string;
  event: string;
  subEvent: string;
  priority: string;
  description: string;
  dueDate: string;
  eventDate: string;
  site: SiteOption | null;
  device: DeviceOption | null;
  assignee: Assignee | null;
  onHold: boolean;
}

export const emptyValues = (priority: string): TicketFormValues => ({
  title: '',
  event: '',
  subEvent: '',
  priority,
  description: '',
  dueDate: '',
  eventDate: '',
  site: null,
  device: null,
  assignee: null,
  onHold: false,
});

export function valuesOf(t: Ticket): TicketFormValues {
  return {
    title: t.title,
    event: t.event,
    subEvent: t.subEvent ?? '',
    priority: t.priority,
    description: t.description,
    dueDate: t.dueDate ?? '',
    eventDate: t.eventDate,
    site: t.locationId ? { id: t.locationId, name: t.additionalInformation.assetLabel ?? `Site ${t.locationId}` } : null,
    device: t.entityId
      ? {
          id: t.entityId,
          label: t.additionalInformation.deviceLabel ?? `Device ${t.entityId}`,
          type: t.entityProfileType ?? '',
          assetId: t.locationId,
          siteName: t.additionalInformation.assetLabel ?? null,
        }
      : null,
    assignee: t.assignee ? { ...t.assignee, roles: [] } : null,
    onHold: t.onHold,
  };
}

/** The body of a create or a change from the form values. */
export function bodyOf(v: TicketFormValues, withAssignee: boolean) {
  return {
    title: v.title.trim(),
    event: v.event.trim(),
    subEvent: v.subEvent.trim() || null,
    priority: v.priority,
    description: v.description.trim(),
    dueDate: v.dueDate || null,
    ...(v.eventDate ? { eventDate: v.eventDate } : {}),
    locationId: v.site?.id ?? null,
    entityId: v.device?.id ?? null,
    onHold: v.onHold,
    ...(withAssignee ? { assignedTo: v.assignee?.id ?? null } : {}),
  };
}

/** Client-side checks with the spec's messages (the server checks again). */
export function validate(v: TicketFormValues): Partial<Record<keyof TicketFormValues, string>> {
  const errors: Partial<Record<keyof TicketFormValues, string>> = {};
  if (!v.title.trim()) errors.title = 'Summary is required';
  else if (v.title.trim().length > TICKET_LIMITS.titleMax) errors.title = HELPDESK_MESSAGES.maxCharacters;
  if (!v.event.trim()) errors.event = "Event name can't be empty";
  else if (v.event.trim().length > TICKET_LIMITS.eventMax) errors.event = HELPDESK_MESSAGES.maxCharacters;
  if (v.subEvent.length > TICKET_LIMITS.eventMax) errors.subEvent = HELPDESK_MESSAGES.maxCharacters;
  if (v.description.length > TICKET_LIMITS.descriptionMax)
    errors.description = `Please use maximum ${TICKET_LIMITS.descriptionMax} characters`;
  return errors;
}

/** Splits chosen files into those under the 1 MB limit and the names of those over it. */
export function checkFiles(files: File[]) {
  const ok = files.filter((f) => f.size <= TICKET_LIMITS.attachmentBytes);
  const tooLarge = files.filter((f) => f.size > TICKET_LIMITS.attachmentBytes).map((f) => f.name);
  return { ok, tooLarge };
}

interface Props {
  type: TicketType;
  initial: TicketFormValues;
  canAssign: boolean;
  withAttachments: boolean;
  busy: boolean;
  submitLabel: string;
  onSubmit(values: TicketFormValues, files: File[]): void;
  onCancel(): void;
}

/** The fields of a ticket: summary, issue type and sub type, priority, dates, place, assignee, text, files. */
export function TicketForm(props: Props) {
  const [values, setValues] = useState(props.initial);
  const [touched, setTouched] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const priorities = usePriorities();
  const issueTypes = useIssueTypes({ ticketType: props.type, active: 'true' });
  const defined = (issueTypes.data?.totalCount ?? 0) > 0;
  const issue = issueTypes.data?.contents.find((i) => i.name.toLowerCase() === values.event.toLowerCase());
  const errors = validate(values);
  const set = (patch: Partial<TicketFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const show = (k: keyof TicketFormValues) => (touched || values[k] !== props.initial[k] ? errors[k] : undefined);

  const handleFiles = (chosen: FileList | null) => {
    const { ok, tooLarge } = checkFiles([...(chosen ?? [])]);
    setFileError(tooLarge.length ? `${HELPDESK_MESSAGES.attachmentTooLarge}: ${tooLarge.join(', ')}` : '');
    setFiles((f) => [...f, ...ok].slice(0, TICKET_LIMITS.attachmentsPerTicket));
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (Object.keys(errors).length === 0) props.onSubmit(values, files);
      }}
      sx={{ display: 'grid', gap: 2, maxWidth: 900 }}
      data-testid="ticket-form"
    >
      <TextField
        label="Summary"
        required
        value={values.title}
        onChange={(e) => set({ title: e.target.value })}
        error={Boolean(show('title'))}
        helperText={show('title') ?? `${values.title.length}/${TICKET_LIMITS.titleMax}`}
        slotProps={{ htmlInput: { 'data-testid': 'ticket-title' } }}
      />
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '1fr 1fr 1fr' }, gap: 2 }}>
        {defined ? (
          <TextField
            select
            required
            label="Issue Type"
            value={issue?.name ?? ''}
            onChange={(e) => {
              const next = issueTypes.data?.contents.find((i) => i.name === e.target.value);
              set({ event: e.target.value, subEvent: '', ...(next?.defaultPriority ? { priority: next.defaultPriority } : {}) });
            }}
            error={Boolean(show('event'))}
            helperText={show('event')}
            slotProps={{ htmlInput: { 'data-testid': 'ticket-event' } }}
          >
            {(issueTypes.data?.contents ?? []).map((i) => (
              <MenuItem key={i.id} value={i.name}>
                {i.name}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField
            required
            label="Issue Type"
            value={values.event}
            onChange={(e) => set({ event: e.target.value })}
            error={Boolean(show('event'))}
            helperText={show('event')}
            slotProps={{ htmlInput: { 'data-testid': 'ticket-event' } }}
          />
        )}
        {issue?.subTypes.length ? (
          <TextField select label="Issue Sub Type" value={values.subEvent} onChange={(e) => set({ subEvent: e.target.value })}>
            <MenuItem value="">None</MenuItem>
            {issue.subTypes.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField
            label="Issue Sub Type"
            value={values.subEvent}
            onChange={(e) => set({ subEvent: e.target.value })}
            error={Boolean(show('subEvent'))}
            helperText={show('subEvent')}
          />
        )}
        <TextField
          select
          label="Priority"
          value={values.priority}
          onChange={(e) => set({ priority: e.target.value })}
          slotProps={{ htmlInput: { 'data-testid': 'ticket-priority' } }}
        >
          {(priorities.data?.contents ?? [{ name: values.priority, color: '' }]).map((p) => (
            <MenuItem key={p.name} value={p.name}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '1fr 1fr' }, gap: 2 }}>
        <SitePicker
          label="Location"
          value={values.site}
          onChange={(site) => set({ site, device: site && values.device?.assetId === site.id ? values.device : null })}
          data-testid="ticket-site"
        />
        <DevicePicker label="Device" assetId={values.site?.id ?? null} value={values.device} onChange={(device) => set({ device })} />
        <TextField
          type="datetime-local"
          label="Due Date"
          value={values.dueDate ? toLocalInput(values.dueDate) : ''}
          onChange={(e) => set({ dueDate: fromLocalInput(e.target.value) })}
          slotProps={{ inputLabel: { shrink: true } }}
          helperText={values.dueDate || props.initial.dueDate ? ' ' : 'Left empty, the issue type or helpdesk default applies'}
        />
        <TextField
          type="datetime-local"
          label="Event Date"
          value={values.eventDate ? toLocalInput(values.eventDate) : ''}
          onChange={(e) => set({ eventDate: fromLocalInput(e.target.value) })}
          slotProps={{ inputLabel: { shrink: true } }}
          helperText="When it happened; now when left empty"
        />
        {props.canAssign ? <UserPicker label="Assign to" value={values.assignee} onChange={(assignee) => set({ assignee })} /> : null}
      </Box>
      <TextField
        label="Description"
        multiline
        minRows={4}
        value={values.description}
        onChange={(e) => set({ description: e.target.value })}
        error={Boolean(show('description'))}
        helperText={show('description')}
        slotProps={{ htmlInput: { 'data-testid': 'ticket-description' } }}
      />
      {props.withAttachments ? (
        <Box>
          <input ref={fileInput} type="file" multiple hidden onChange={(e) => handleFiles(e.target.files)} data-testid="ticket-files" />
          <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
            Add attachments
          </Button>
          <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            Images, PDF, video or text, up to 1 MB each
          </Typography>
          {fileError ? (
            <Alert severity="error" sx={{ mt: 1 }} data-testid="file-error">
              {fileError}
            </Alert>
          ) : null}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            {files.map((f, i) => (
              <Chip
                key={`${f.name}-${f.size}-${f.lastModified}`}
                label={`${f.name} (${formatBytes(f.size)})`}
                onDelete={() => setFiles((list) => list.filter((_x, j) => j !== i))}
                deleteIcon={<DeleteOutline aria-label={`Remove ${f.name}`} />}
              />
            ))}
          </Box>
        </Box>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button
          type="submit"
          variant="contained"
          disabled={props.busy || (touched && Object.keys(errors).length > 0)}
          data-testid="ticket-submit"
          startIcon={props.busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {props.submitLabel}
        </Button>
        <Button onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </Button>
      </Box>
    </Box>
  );
}
