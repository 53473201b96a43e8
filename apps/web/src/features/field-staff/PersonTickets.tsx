import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link } from 'react-router';
import { AssignTicketDialog } from './AssignTicketDialog.tsx';
import { usePersonTickets } from './api.ts';

/** The person's open tickets on their edit page, with "Assign ticket". */
export function PersonTickets(props: { person: { id: number; name: string }; mayAssign: boolean }) {
  const tickets = usePersonTickets(props.person.id, 'assigned', '');
  const [assigning, setAssigning] = useState(false);
  const rows = tickets.data?.contents ?? [];
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 2 }} data-testid="person-tickets">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          Open tickets ({tickets.data?.totalCount ?? 0})
        </Typography>
        {props.mayAssign ? (
          <Button variant="outlined" onClick={() => setAssigning(true)} data-testid="assign-ticket">
            Assign ticket
          </Button>
        ) : null}
      </Box>
      {tickets.isLoading ? (
        <Typography color="text.secondary">Loading tickets…</Typography>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary">No open tickets assigned.</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {rows.map((t) => (
            <Box component="li" key={t.id} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Link to={`/tickets/all/${t.id}`}>{t.ticketId}</Link>
              <Typography component="span" sx={{ flex: 1, minWidth: 160 }}>
                {t.title}
              </Typography>
              {t.locationName ? (
                <Typography variant="body2" color="text.secondary">
                  {t.locationName}
                </Typography>
              ) : null}
              <Chip size="small" label={t.status} />
            </Box>
          ))}
        </Box>
      )}
      <AssignTicketDialog person={assigning ? props.person : null} onClose={() => setAssigning(false)} />
    </Paper>
  );
}
