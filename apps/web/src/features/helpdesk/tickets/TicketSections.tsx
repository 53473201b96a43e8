import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { HELPDESK_MESSAGES, TICKET_LIMITS, type Ticket } from '@sitewatch/contracts/helpdesk/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { api } from '../../../lib/api.ts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { http, isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import { ticketKeys } from '../keys.ts';
import { type TicketChange, uploadAttachments, useTicketChange } from './api.ts';
import { StatusChip } from './components.tsx';
import { viewPath } from './model.ts';
import { uploadFailure } from './TicketCreatePage.tsx';
import { checkFiles } from './TicketForm.tsx';

export function Section({ title, action, children, testId }: { title: string; action?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1, gap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children || '—'}
      </Typography>
    </Box>
  );
}

export function DetailsSection({ ticket }: { ticket: Ticket }) {
  return (
    <Section title="Details">
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 2 }}>
        <Field label="Issue Type">{ticket.event}</Field>
        <Field label="Issue Sub Type">{ticket.subEvent}</Field>
        <Field label="Location">
          {ticket.locationId ? (
            <Link to={`/assets/view/${ticket.locationId}`}>{ticket.additionalInformation.assetLabel ?? `Site ${ticket.locationId}`}</Link>
          ) : null}
        </Field>
        <Field label="Entity">{ticket.additionalInformation.deviceLabel ?? ticket.deviceName}</Field>
        <Field label="City">{ticket.city}</Field>
        <Field label="Asset Type">{ticket.assetType}</Field>
        <Field label="Assigned To">{ticket.assignee?.name}</Field>
        <Field label="Raised by">{ticket.createdBy?.name}</Field>
        <Field label="Created Date">{formatDateTime(ticket.createdAt)}</Field>
        <Field label="Event Date">{formatDateTime(ticket.eventDate)}</Field>
        <Field label="Due Date">
          {formatDateTime(ticket.dueDate)}
          {ticket.overdue ? (
            <Typography component="span" color="error" variant="body2">
              {' '}
              (overdue)
            </Typography>
          ) : null}
          {ticket.slaPausedAt ? (
            <Typography component="span" color="warning.main" variant="body2" data-testid="sla-paused">
              {' '}
              (SLA paused for a maintenance window since {formatDateTime(ticket.slaPausedAt)})
            </Typography>
          ) : null}
        </Field>
        <Field label="Assigned Date">{formatDateTime(ticket.assignedDate)}</Field>
        <Field label="Resolved Date">{formatDateTime(ticket.resolvedDate)}</Field>
        <Field label="Acknowledge">{ticket.acknowledged ? 'Yes' : 'No'}</Field>
        <Field label="On hold">{ticket.onHold ? 'Yes' : 'No'}</Field>
        {ticket.escalation ? (
          <Field label="Escalation">
            {`${ticket.escalation.policyName}: level ${ticket.escalation.level} of ${ticket.escalation.levels}`}
            {ticket.escalation.nextAt ? `, next at ${formatDateTime(ticket.escalation.nextAt)}` : ''}
          </Field>
        ) : null}
      </Box>
      {ticket.description ? (
        <Typography variant="body2" sx={{ mt: 2, whiteSpace: 'pre-wrap' }} data-testid="ticket-description-text">
          {ticket.description}
        </Typography>
      ) : null}
    </Section>
  );
}

export function AttachmentsSection({ ticket }: { ticket: Ticket }) {
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Ticket['attachments'][number] | null>(null);
  const done = (next: Ticket) => {
    client.setQueryData(ticketKeys.ticket(next.id), next);
    void client.invalidateQueries({ queryKey: ticketKeys.historyOf(next.id) });
    void client.invalidateQueries({ queryKey: ticketKeys.lists });
  };
  const handleFiles = async (list: FileList | null) => {
    const { ok, tooLarge } = checkFiles([...(list ?? [])]);
    if (input.current) input.current.value = '';
    if (tooLarge.length) toast.error(HELPDESK_MESSAGES.attachmentTooLarge);
    if (!ok.length) return;
    setBusy(true);
    try {
      done(await uploadAttachments(ticket.id, ok));
    } catch (error) {
      toast.error(isHttpError(error) && error.status === 415 ? (error.detail ?? uploadFailure(error)) : uploadFailure(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section
      title={`Attachments (${ticket.attachments.length})`}
      testId="attachments-section"
      action={
        ticket.can.attach ? (
          <>
            <input ref={input} type="file" multiple hidden onChange={(e) => void handleFiles(e.target.files)} data-testid="attach-input" />
            <Button size="small" startIcon={<AttachFileIcon />} onClick={() => input.current?.click()} disabled={busy}>
              Attach
            </Button>
          </>
        ) : null
      }
    >
      {busy ? <LinearProgress sx={{ mb: 1 }} /> : null}
      {ticket.attachments.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No attachments.
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', gap: 1 }}>
          {ticket.attachments.map((a) => (
            <Paper key={a.id} variant="outlined" sx={{ p: 1, display: 'grid', gap: 0.5 }} data-testid="attachment">
              {a.type.startsWith('image/') ? (
                <Box component="img" src={a.src} alt={a.name} sx={{ width: '100%', height: 96, objectFit: 'cover', borderRadius: 1 }} />
              ) : (
                <Box
                  sx={{
                    height: 96,
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                    bgcolor: 'action.hover',
                    borderRadius: 1,
                  }}
                >
                  <InsertDriveFileOutlined color="action" />
                </Box>
              )}
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography
                    variant="caption"
                    component="a"
                    href={a.src}
                    download={a.name}
                    sx={{ display: 'block' }}
                    noWrap
                    title={a.name}
                  >
                    {a.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {formatBytes(a.size)}
                  </Typography>
                </Box>
                {ticket.can.attach ? (
                  <IconButton size="small" aria-label={`Delete ${a.name}`} onClick={() => setRemoving(a)}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                ) : null}
              </Box>
            </Paper>
          ))}
        </Box>
      )}
      <ConfirmDialog
        open={Boolean(removing)}
        title={`Delete '${removing?.name ?? ''}'?`}
        text="The file is removed from the ticket; the history keeps a note of it."
        confirmLabel="Delete"
        destructive
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          http
            .del<Ticket>(removing.src, { toast: false })
            .then(done)
            .catch(() => toast.error(HELPDESK_MESSAGES.deleteFailed))
            .finally(() => setRemoving(null));
        }}
      />
    </Section>
  );
}

export function ChecklistSection({ ticket, onChange }: { ticket: Ticket; onChange(body: TicketChange): Promise<unknown> }) {
  const [text, setText] = useState('');
  const items = ticket.checklist;
  const save = (next: typeof items) => onChange({ checklist: next.map(({ id, text: t, done }) => ({ id, text: t, done })) });
  const done = items.filter((i) => i.done).length;
  return (
    <Section title={`Checklist (${done}/${items.length})`} testId="checklist-section">
      {items.length ? (
        <LinearProgress variant="determinate" value={(100 * done) / items.length} aria-label="Checklist done" sx={{ mb: 1 }} />
      ) : null}
      <List dense disablePadding>
        {items.map((item) => (
          <ListItem
            key={item.id}
            disableGutters
            secondaryAction={
              ticket.can.edit ? (
                <IconButton
                  edge="end"
                  size="small"
                  aria-label={`Remove ${item.text}`}
                  onClick={() => void save(items.filter((i) => i.id !== item.id))}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              ) : null
            }
          >
            <ListItemIcon sx={{ minWidth: 36 }}>
              <Checkbox
                edge="start"
                checked={item.done}
                disabled={!ticket.can.edit}
                onChange={(e) => void save(items.map((i) => (i.id === item.id ? { ...i, done: e.target.checked } : i)))}
                slotProps={{ input: { 'aria-label': item.text } }}
              />
            </ListItemIcon>
            <ListItemText primary={item.text} secondary={item.done && item.doneAt ? `Done ${formatDateTime(item.doneAt)}` : undefined} />
          </ListItem>
        ))}
      </List>
      {ticket.can.edit ? (
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, mt: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            if (!text.trim() || items.length >= TICKET_LIMITS.checklistItems) return;
            void save([...items, { id: `i${Date.now().toString(36)}`, text: text.trim(), done: false, doneBy: null, doneAt: null }]).then(
              () => setText(''),
            );
          }}
        >
          <TextField
            size="small"
            fullWidth
            placeholder="Add a checklist item"
            value={text}
            onChange={(e) => setText(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 250 } }}
          />
          <Button type="submit" disabled={!text.trim()}>
            Add
          </Button>
        </Box>
      ) : null}
    </Section>
  );
}

export function CostSection({ ticket, onChange }: { ticket: Ticket; onChange(body: TicketChange, failure: string): Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [amount, setAmount] = useState(String(ticket.costIncurred?.amount ?? ''));
  const [currency, setCurrency] = useState(ticket.costIncurred?.currency ?? 'INR');
  const [note, setNote] = useState(ticket.costIncurred?.note ?? '');
  const value = Number(amount);
  const invalid = amount.trim() === '' || !Number.isFinite(value) || value < 0;
  return (
    <Section
      title="Cost incurred"
      testId="cost-section"
      action={
        ticket.can.edit && !editing ? (
          <Button size="small" onClick={() => setEditing(true)}>
            {ticket.costIncurred ? 'Edit' : 'Add'}
          </Button>
        ) : null
      }
    >
      {editing ? (
        <Box
          component="form"
          sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 100px' }, gap: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            if (invalid) return;
            void onChange(
              { costIncurred: { amount: value, currency: currency.trim() || 'INR', note: note.trim() } },
              HELPDESK_MESSAGES.costFailed,
            ).then((r) => {
              if (r) setEditing(false);
            });
          }}
        >
          <TextField
            size="small"
            label="Amount"
            type="number"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={amount !== '' && invalid}
            helperText={amount !== '' && invalid ? 'Input Value cannot be less than 0' : undefined}
            slotProps={{ htmlInput: { min: 0, step: '0.01', 'data-testid': 'cost-amount' } }}
          />
          <TextField
            size="small"
            label="Currency"
            value={currency}
            onChange={(e) => setCurrency(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 8 } }}
          />
          <TextField
            size="small"
            label="Note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            sx={{ gridColumn: '1 / -1' }}
            slotProps={{ htmlInput: { maxLength: 250 } }}
          />
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button type="submit" variant="contained" size="small" disabled={invalid} data-testid="cost-save">
              Save
            </Button>
            <Button size="small" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </Box>
        </Box>
      ) : ticket.costIncurred ? (
        <Typography variant="body2" data-testid="cost-value">
          {ticket.costIncurred.amount.toLocaleString()} {ticket.costIncurred.currency}
          {ticket.costIncurred.note ? ` · ${ticket.costIncurred.note}` : ''}
        </Typography>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No cost recorded.
        </Typography>
      )}
    </Section>
  );
}

export function WorkOrderSection({ ticket }: { ticket: Ticket }) {
  const raise = useTicketChange(() => api.post('/helpdesk/tickets/{id}/work-order/', {}, { path: { id: ticket.id }, toast: false }));
  const client = useQueryClient();
  const links = [
    ...(ticket.parent ? [{ ...ticket.parent, relation: 'Raised from' }] : []),
    ...ticket.workOrders.map((w) => ({ ...w, relation: 'Work order' })),
  ];
  return (
    <Section
      title="Work order"
      testId="work-order-section"
      action={
        ticket.can.workOrder ? (
          <Button
            size="small"
            disabled={raise.isPending}
            onClick={() =>
              raise.mutate(undefined, {
                onSuccess: (wo) => {
                  toast.success(`Work order ${wo.ticketId} raised`);
                  void client.invalidateQueries({ queryKey: ticketKeys.ticket(ticket.id) });
                },
                onError: (error) => toast.error(isHttpError(error) ? (error.detail ?? error.message) : 'Work order not raised'),
              })
            }
          >
            Raise work order
          </Button>
        ) : null
      }
    >
      {links.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No linked work order.
        </Typography>
      ) : (
        <List dense disablePadding>
          {links.map((l) => (
            <ListItem key={l.id} disableGutters secondaryAction={<StatusChip status={l.status} />}>
              <ListItemText primary={<Link to={viewPath(l.type, l.id)}>{`${l.ticketId} · ${l.title}`}</Link>} secondary={l.relation} />
            </ListItem>
          ))}
        </List>
      )}
    </Section>
  );
}
