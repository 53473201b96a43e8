import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { useAssignTicket, usePersonTickets } from './api.ts';

/**
 * "Assign ticket": the open tickets at the person's sites that the admin may see, not assigned to them yet; the chosen
 * one is assigned through the ticket update.
 */
export function AssignTicketDialog(props: { person: { id: number; name: string } | null; onClose(): void }) {
  const { person } = props;
  const [search, setSearch] = useState('');
  const searchText = useDebounced(search.trim(), 400);
  const tickets = usePersonTickets(person?.id ?? 0, 'assignable', searchText, person !== null);
  const assign = useAssignTicket();
  const [chosen, setChosen] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const rows = tickets.data?.contents ?? [];

  const handleClose = () => {
    setChosen(null);
    setFailure(null);
    setSearch('');
    props.onClose();
  };
  const handleAssign = () => {
    const ticket = rows.find((r) => r.id === chosen);
    if (!ticket || !person) return;
    setFailure(null);
    assign.mutate(
      { ticketId: ticket.id, version: ticket.version, assignedTo: person.id },
      {
        onSuccess: () => {
          showToast('success', `${ticket.ticketId} assigned to ${person.name}`);
          handleClose();
        },
        onError: (error) => setFailure((isHttpError(error) && detailOf(error.data)) || 'The ticket could not be assigned'),
      },
    );
  };

  return (
    <Dialog open={person !== null} onClose={handleClose} fullWidth maxWidth="sm" aria-labelledby="assign-ticket-title">
      <DialogTitle id="assign-ticket-title">Assign a ticket to {person?.name}</DialogTitle>
      <DialogContent dividers>
        <TextField
          fullWidth
          size="small"
          label="Search tickets"
          placeholder="Ticket id or title"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ mb: 1 }}
          slotProps={{ htmlInput: { 'data-testid': 'assign-ticket-search' } }}
        />
        {failure ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {failure}
          </Alert>
        ) : null}
        {tickets.isLoading ? (
          <Typography color="text.secondary">Loading tickets…</Typography>
        ) : rows.length === 0 ? (
          <Typography color="text.secondary" data-testid="assign-ticket-empty">
            No open tickets at this person's sites to assign.
          </Typography>
        ) : (
          <List dense aria-label="Open tickets" data-testid="assign-ticket-list">
            {rows.map((t) => (
              <ListItem key={t.id} disablePadding>
                <ListItemButton selected={chosen === t.id} onClick={() => setChosen(t.id)} data-testid={`assign-ticket-${t.id}`}>
                  <ListItemText
                    primary={`${t.ticketId} · ${t.title}`}
                    secondary={[t.locationName, t.status, t.priority].filter(Boolean).join(' · ')}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={handleClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={chosen === null || assign.isPending}
          onClick={handleAssign}
          data-testid="assign-ticket-confirm"
        >
          Assign
        </Button>
      </DialogActions>
    </Dialog>
  );
}
