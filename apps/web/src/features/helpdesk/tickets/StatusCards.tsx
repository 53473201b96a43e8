import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { TICKET_STATUS_LABELS, type TicketStatus } from '@sitewatch/contracts/helpdesk/tickets';
import { useStatusColours } from '../../../components/useStatusColours.ts';
import { statusColour } from './model.ts';

interface Props {
  cards: TicketStatus[];
  counts: { status: TicketStatus; count: number }[] | undefined;
  selected: string[];
  onToggle(status: TicketStatus): void;
}

/** The status cards of a ticket list (SPEC 2.15), in the spec's colours; a card filters the list by its status. */
export function StatusCards({ cards, counts, selected, onToggle }: Props) {
  const colours = useStatusColours();
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 1.5, mb: 2 }} data-testid="status-cards">
      {cards.map((status) => {
        const colour = statusColour(status);
        const active = selected.includes(status);
        const count = counts?.find((c) => c.status === status)?.count;
        return (
          <Paper
            key={status}
            variant="outlined"
            sx={{ borderLeft: 6, borderLeftColor: colour, outline: active ? `2px solid ${colour}` : 'none', overflow: 'hidden' }}
          >
            <ButtonBase
              onClick={() => onToggle(status)}
              aria-pressed={active}
              data-testid={`status-card-${status}`}
              sx={{
                width: '100%',
                p: 1.5,
                display: 'block',
                textAlign: 'left',
                '&.Mui-focusVisible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: -3 },
              }}
            >
              <Typography variant="body2" color="text.secondary">
                {TICKET_STATUS_LABELS[status]}
              </Typography>
              <Typography variant="h5" component="p" sx={{ color: colours.text(colour), fontWeight: 700 }}>
                {count === undefined ? <Skeleton width={40} /> : count}
              </Typography>
            </ButtonBase>
          </Paper>
        );
      })}
    </Box>
  );
}
