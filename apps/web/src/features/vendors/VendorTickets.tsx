import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ticketBasePath, ticketViewLink } from '@sitewatch/contracts/helpdesk';
import { useState } from 'react';
import { Link } from 'react-router';
import { useVendorTickets } from './api.ts';

const PAGE_SIZE = 10;

/** The vendor's open tickets (those the user may see), on its edit page. */
export function VendorTickets({ vendorId }: { vendorId: number }) {
  const [page, setPage] = useState(1);
  const tickets = useVendorTickets(vendorId, page);
  const total = tickets.data?.totalCount ?? 0;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid="vendor-tickets">
      <Typography variant="h6" component="h2">
        Open tickets
      </Typography>
      {tickets.isLoading ? (
        <Typography color="text.secondary">Loading…</Typography>
      ) : tickets.isError ? (
        <Typography color="error">Failed to load the tickets.</Typography>
      ) : total === 0 ? (
        <Typography color="text.secondary">No open tickets are assigned to this vendor.</Typography>
      ) : (
        <>
          <List dense>
            {(tickets.data?.contents ?? []).map((t) => (
              <ListItem key={t.id} disablePadding>
                <ListItemButton component={Link} to={ticketViewLink(ticketBasePath(t.type), t.id)}>
                  <ListItemText
                    primary={`${t.ticketId} · ${t.title}`}
                    secondary={[t.status, t.priority, t.additionalInformation.assetLabel].filter(Boolean).join(' · ')}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          {total > PAGE_SIZE ? (
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <Pagination count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />
            </Box>
          ) : null}
        </>
      )}
    </Paper>
  );
}
