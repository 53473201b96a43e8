import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  TICKET_STATUS_LABELS,
  TICKET_TYPE_LABELS,
  type Ticket,
  type TicketStatus,
  type TicketType,
} from '@sitewatch/contracts/helpdesk/tickets';
import { useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { useUser } from '../../../lib/session.ts';
import { TicketAttendance } from '../../attendance/TicketAttendance.tsx';
import { TicketPurchaseRequests } from '../../reports/index.ts';
import { TicketVideoEvidence } from '../../video/index.ts';
import { useHelpdeskConfig, useTicket } from './api.ts';
import { PriorityChip, StatusChip } from './components.tsx';
import { DeviceDetails } from './DeviceDetails.tsx';
import { basePath, canonicalTicketPath, isListType, type ListType, statusColour, viewPath } from './model.ts';
import { TicketActivity } from './TicketActivity.tsx';
import { bodyOf, TicketForm, valuesOf } from './TicketForm.tsx';
import { AttachmentsSection, ChecklistSection, CostSection, DetailsSection, WorkOrderSection } from './TicketSections.tsx';
import { AgeingSection, RatingSection, WatchersSection } from './TicketSide.tsx';
import { useTicketUpdate } from './use-ticket-change.ts';
import { VendorSection } from './VendorSection.tsx';

const ACTION_LABEL: Partial<Record<TicketStatus, string>> = {
  INPROGRESS: 'Start work',
  INREVIEW: 'Send for review',
  RESOLVED: 'Resolve',
  CLOSED: 'Close',
  'RE-OPENED': 'Re-open',
  ESCALATE: 'Escalate',
  FLAGGED: 'Flag',
  OPEN: 'Back to open',
};

function StatusDialog(props: { status: TicketStatus | null; busy: boolean; onConfirm(note: string): void; onClose(): void }) {
  const [note, setNote] = useState('');
  const status = props.status;
  return (
    <Dialog open={Boolean(status)} onClose={props.onClose} fullWidth maxWidth="xs" data-testid="status-dialog">
      <DialogTitle>Move to {status ? TICKET_STATUS_LABELS[status] : ''}?</DialogTitle>
      <DialogContent>
        <TextField
          fullWidth
          multiline
          minRows={2}
          label="Note for the history (optional)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          error={note.length > 250}
          helperText={note.length > 250 ? 'Please use maximum 250 characters' : ' '}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={props.busy || note.length > 250}
          onClick={() => props.onConfirm(note.trim())}
          data-testid="status-confirm"
        >
          Confirm
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function TicketView({
  ticket,
  type,
  historyId,
  startEditing,
}: {
  ticket: Ticket;
  type: ListType;
  historyId: number | null;
  startEditing: boolean;
}) {
  const user = useUser();
  const config = useHelpdeskConfig();
  const navigate = useNavigate();
  const { change, busy } = useTicketUpdate(ticket);
  const [moving, setMoving] = useState<TicketStatus | null>(null);
  const [editing, setEditing] = useState(startEditing && ticket.can.edit);
  const view = config.data?.types[ticket.type].ticketViewConfigs;
  const isAssignee = ticket.assignedTo === user?.id;

  if (editing) {
    return (
      <Box>
        <Typography variant="h1" sx={{ mb: 3 }}>
          Edit {ticket.ticketId}
        </Typography>
        <TicketForm
          type={ticket.type}
          initial={valuesOf(ticket)}
          canAssign={ticket.can.assign}
          withAttachments={false}
          busy={busy}
          submitLabel="Save"
          onCancel={() => setEditing(false)}
          onSubmit={(values) =>
            void change(bodyOf(values, ticket.can.assign)).then((next) => {
              if (next) setEditing(false);
            })
          }
        />
      </Box>
    );
  }

  return (
    <Box>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1.5,
          mb: 2,
          borderLeft: 6,
          borderColor: statusColour(ticket.status),
          pl: 2,
        }}
      >
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <Typography variant="caption" color="text.secondary" data-testid="ticket-number">
            {ticket.ticketId} · {TICKET_TYPE_LABELS[ticket.type] ?? ticket.type}
          </Typography>
          <Typography variant="h1" component="h1" sx={{ wordBreak: 'break-word' }} data-testid="ticket-heading">
            {ticket.title}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
            <StatusChip status={ticket.status} size="medium" />
            <PriorityChip priority={ticket.priority} />
            {ticket.overdue && ticket.status !== 'OVERDUE' ? <Typography color="error">Overdue</Typography> : null}
            {ticket.slaPausedAt ? <Chip size="small" color="warning" variant="outlined" label="SLA paused: maintenance window" /> : null}
          </Box>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {isAssignee && !ticket.acknowledged ? (
            <Button variant="outlined" disabled={busy} onClick={() => void change({ acknowledged: true })}>
              Acknowledge
            </Button>
          ) : null}
          {ticket.can.statuses.map((s) => (
            <Button
              key={s}
              variant={s === 'RESOLVED' || s === 'INPROGRESS' ? 'contained' : 'outlined'}
              onClick={() => setMoving(s)}
              data-testid={`move-${s}`}
            >
              {ACTION_LABEL[s] ?? TICKET_STATUS_LABELS[s]}
            </Button>
          ))}
          {ticket.can.edit ? (
            <Button startIcon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="edit-ticket">
              Edit
            </Button>
          ) : null}
        </Box>
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { lg: 'minmax(0, 2fr) minmax(300px, 1fr)' }, gap: 2, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <DetailsSection ticket={ticket} />
          <AttachmentsSection ticket={ticket} />
          {ticket.entityId ? <DeviceDetails ticket={ticket} /> : null}
          <TicketVideoEvidence ticketId={ticket.id} aiTicket={ticket.type === 'AIAlarmTicket'} />
          {view?.checklists !== false ? <ChecklistSection ticket={ticket} onChange={(body) => change(body)} /> : null}
          {view?.costIncurred !== false ? <CostSection ticket={ticket} onChange={(body, failure) => change(body, { failure })} /> : null}
          {view?.workOrder !== false ? <WorkOrderSection ticket={ticket} /> : null}
          {view?.markAttendance !== false ? <TicketAttendance ticket={ticket} /> : null}
          <TicketActivity
            ticketId={ticket.id}
            ticketNumber={ticket.ticketId}
            historyId={historyId}
            showHistory={view?.history !== false}
            canComment={ticket.can.comment}
            linkBase={viewPath(type, ticket.id)}
          />
        </Box>
        <Box sx={{ display: 'grid', gap: 2 }}>
          <VendorSection key={ticket.version} ticket={ticket} onChange={(body) => change(body)} />
          <TicketPurchaseRequests ticket={ticket} />
          {view?.watchers !== false && ticket.can.watch ? <WatchersSection ticket={ticket} /> : null}
          {view?.rating !== false ? <RatingSection ticket={ticket} threshold={config.data?.ratingThreshold ?? 3} /> : null}
          <AgeingSection ticket={ticket} />
          <Button onClick={() => navigate(basePath(type))}>Back to the list</Button>
        </Box>
      </Box>
      <StatusDialog
        key={moving ?? 'none'}
        status={moving}
        busy={busy}
        onClose={() => setMoving(null)}
        onConfirm={(note) => {
          if (!moving) return;
          void change({ status: moving, ...(note ? { note } : {}) }).then((next) => {
            if (next) setMoving(null);
          });
        }}
      />
    </Box>
  );
}

/**
 * A ticket: /tickets/{type}/{id}, {base}/view/?ticketId={id}[&historyId={id}], /work-orders/{id}/view and
 * /escalation-tickets/{id}/edit (opens in edit mode).
 */
export function TicketViewPage({ fixedType, edit }: { fixedType?: TicketType; edit?: boolean }) {
  const params = useParams();
  const [search] = useSearchParams();
  const routeType = params.type;
  const knownType = fixedType !== undefined || routeType === undefined || isListType(routeType);
  const type: ListType = fixedType ?? (isListType(routeType) ? routeType : 'all');
  const id = Number(params.id ?? search.get('ticketId') ?? 0);
  const historyId = Number(search.get('historyId') ?? 0) || null;
  const ticket = useTicket(knownType && Number.isInteger(id) ? id : 0);
  const editing = Boolean(edit || search.get('edit'));
  if (!knownType)
    return <EmptyState data-testid="not-found-state" title="Ticket type not found" description="Choose a ticket list from the menu." />;
  if (!id) return <EmptyState title="No ticket chosen" description="Open a ticket from a list or a notification." />;
  if (ticket.isLoading) return <PageLoader label="Loading ticket" />;
  if (ticket.isError || !ticket.data) {
    const missing = isHttpError(ticket.error) && (ticket.error.status === 404 || ticket.error.status === 400);
    return missing ? (
      <EmptyState title="Ticket not found" description="It does not exist or you may not see it." />
    ) : (
      <ErrorState onRetry={() => void ticket.refetch()} />
    );
  }
  const elsewhere = canonicalTicketPath(type, ticket.data, { historyId, edit: editing });
  if (elsewhere) return <Navigate replace to={elsewhere} />;
  return <TicketView key={ticket.data.id} ticket={ticket.data} type={type} historyId={historyId} startEditing={editing} />;
}

export const EscalationTicketViewPage = () => <TicketViewPage fixedType="TICKET" />;
export const EscalationTicketEditPage = () => <TicketViewPage fixedType="TICKET" edit />;
export const WorkOrderViewPage = () => <TicketViewPage fixedType="WORKORDERTICKET" />;
export const WorkOrderEditPage = () => <TicketViewPage fixedType="WORKORDERTICKET" edit />;
export const TicketEditPage = () => <TicketViewPage edit />;
