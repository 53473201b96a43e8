import Box from '@mui/material/Box';
import { HELPDESK_MESSAGES, TICKET_TYPE_LABELS, TICKET_TYPES, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useShell } from '../../../app/shell/shell-context.ts';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { permissionsOf, useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { ticketKeys } from '../keys.ts';
import { createTicket, uploadAttachments } from './api.ts';
import { basePath, viewPath } from './model.ts';
import { bodyOf, emptyValues, TicketForm, type TicketFormValues } from './TicketForm.tsx';

/** Why an upload failed, in the words of the spec's catalogue. */
export function uploadFailure(error: unknown) {
  return isHttpError(error) && error.status === 413 ? HELPDESK_MESSAGES.attachmentUploadTooLarge : HELPDESK_MESSAGES.uploadFailed;
}

/** /tickets/{type}/create and /escalation-tickets/create: raise a ticket, then upload its attachments. */
export function TicketCreatePage({ fixedType }: { fixedType?: TicketType }) {
  const routeType = useParams().type;
  // /tickets/all/create raises the default kind; an unknown kind in the address is not a page.
  const known = fixedType !== undefined || routeType === 'all' || (TICKET_TYPES as readonly string[]).includes(routeType ?? '');
  const type: TicketType =
    fixedType ?? ((TICKET_TYPES as readonly string[]).includes(routeType ?? '') ? (routeType as TicketType) : 'TICKET');
  const navigate = useNavigate();
  const client = useQueryClient();
  const user = useUser();
  const { settings } = useShell();
  const [busy, setBusy] = useState(false);
  const permissions = permissionsOf(user);
  const canAssign =
    Boolean(user?.userRole.some((r) => ['sysadmin', 'customeradmin', 'localadmin'].includes(r))) || permissions.has('change_ticket');
  const alias = settings?.aliases.ticket ?? 'Ticket';

  const handleSubmit = async (values: TicketFormValues, files: File[]) => {
    setBusy(true);
    try {
      const ticket = await createTicket({ type, ...bodyOf(values, canAssign) });
      if (files.length) {
        try {
          await uploadAttachments(ticket.id, files);
        } catch (error) {
          toast.error(uploadFailure(error));
        }
      }
      toast.success(HELPDESK_MESSAGES.ticketCreated);
      void client.invalidateQueries({ queryKey: ticketKeys.all });
      navigate(viewPath(type, ticket.id));
    } catch (error) {
      toast.error(isHttpError(error) ? (error.detail ?? error.message) : 'Ticket could not be created');
    } finally {
      setBusy(false);
    }
  };

  if (!known)
    return <EmptyState data-testid="not-found-state" title="Ticket type not found" description="Choose a ticket list from the menu." />;
  return (
    <Box>
      <PageHeader title={`New ${alias}`} subtitle={type === 'TICKET' ? undefined : TICKET_TYPE_LABELS[type]} />
      <TicketForm
        type={type}
        initial={emptyValues(settings?.ticket.priority ?? 'MINOR')}
        canAssign={canAssign}
        withAttachments
        busy={busy}
        submitLabel={`Raise ${alias}`}
        onSubmit={(v, f) => void handleSubmit(v, f)}
        onCancel={() => navigate(basePath(type))}
      />
    </Box>
  );
}

export const EscalationTicketCreatePage = () => <TicketCreatePage fixedType="TICKET" />;
export const WorkOrderCreatePage = () => <TicketCreatePage fixedType="WORKORDERTICKET" />;
