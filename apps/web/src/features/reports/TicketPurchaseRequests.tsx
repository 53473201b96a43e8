import AddShoppingCartOutlined from '@mui/icons-material/AddShoppingCartOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PURCHASE_REQUEST_PERMISSIONS } from '@sitewatch/contracts/purchase-requests';
import { Link } from 'react-router';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useTicketRequests } from './api.ts';
import { PrStateChip } from './PrStateChip.tsx';
import { money } from './ReportGrid.tsx';

/** The form of a new request for the parts a ticket needs: the ticket linked, its title and the store at its site. */
export function raiseRequestPath(ticket: { id: number; ticketId: string; title: string; locationId: number | null }) {
  const query = new URLSearchParams({ ticketId: String(ticket.id), title: `Parts for ${ticket.ticketId}: ${ticket.title}`.slice(0, 200) });
  if (ticket.locationId) query.set('siteId', String(ticket.locationId));
  return `/pr-report/create?${query}`;
}

/**
 * On a ticket: the purchase requests raised from it (to whoever may see requests) and "Raise purchase request"
 * (to whoever may create them). Nothing at all for a user with neither right.
 */
export function TicketPurchaseRequests({ ticket }: { ticket: { id: number; ticketId: string; title: string; locationId: number | null } }) {
  const permissions = permissionsOf(useUser());
  const canView = permissions.has(PURCHASE_REQUEST_PERMISSIONS.view);
  const canAdd = permissions.has(PURCHASE_REQUEST_PERMISSIONS.add);
  const requests = useTicketRequests(ticket.id, canView);
  if (!canView && !canAdd) return null;
  const rows = requests.data?.contents ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="ticket-purchase-requests">
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', mb: 1, gap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, flex: 1 }}>
          Purchase requests
        </Typography>
        {canAdd ? (
          <Button
            size="small"
            variant="outlined"
            startIcon={<AddShoppingCartOutlined />}
            component={Link}
            to={raiseRequestPath(ticket)}
            data-testid="raise-purchase-request"
          >
            Raise purchase request
          </Button>
        ) : null}
      </Box>
      {canView && rows.length === 0 && !requests.isPending ? (
        <Typography variant="body2" color="text.secondary">
          No purchase request was raised from this ticket.
        </Typography>
      ) : null}
      {rows.map((pr) => (
        <Box key={pr.id} sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, py: 0.5 }}>
          <Link to={`/pr-report/${pr.id}/view`}>{pr.number}</Link>
          <Typography variant="body2" sx={{ flex: 1, minWidth: 120, wordBreak: 'break-word' }}>
            {pr.title}
          </Typography>
          <PrStateChip state={pr.state} />
          <Typography variant="body2">{money(pr.total)}</Typography>
        </Box>
      ))}
    </Paper>
  );
}
