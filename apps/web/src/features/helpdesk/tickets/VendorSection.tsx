import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Ticket } from '@sitewatch/contracts/helpdesk/tickets';
import { useState } from 'react';
import { useVendorPicker } from '../../vendors/api.ts';
import type { TicketChange } from './api.ts';
import { Section } from './TicketSections.tsx';

interface Option {
  id: number;
  name: string;
}

/** The vendor the ticket is assigned to; those who may assign pick one among the vendors serving its site. */
export function VendorSection({ ticket, onChange }: { ticket: Ticket; onChange(body: TicketChange): Promise<unknown> }) {
  const [picking, setPicking] = useState(false);
  const [choice, setChoice] = useState<Option | null>(ticket.vendor);
  const vendors = useVendorPicker(ticket.locationId, picking);
  if (!ticket.vendor && !ticket.can.assign) return null;
  const options = (vendors.data?.contents ?? []).map((v) => ({ id: v.id, name: v.company }));
  const save = (vendorId: number | null) => void onChange({ vendorId }).then(() => setPicking(false));
  return (
    <Section
      title="Vendor"
      testId="vendor-section"
      action={
        ticket.can.assign && !picking ? (
          <Button size="small" onClick={() => setPicking(true)} data-testid="vendor-change">
            {ticket.vendor ? 'Change' : 'Assign'}
          </Button>
        ) : null
      }
    >
      {picking ? (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Autocomplete
            value={choice}
            onChange={(_e, v) => setChoice(v)}
            options={options}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            loading={vendors.isFetching}
            noOptionsText={ticket.locationId ? 'No vendor serves this site' : 'No Options Available!'}
            renderInput={(params) => <TextField {...params} label="Vendor" size="small" data-testid="vendor-picker" />}
          />
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
            {ticket.vendor ? (
              <Button color="error" onClick={() => save(null)}>
                Remove vendor
              </Button>
            ) : null}
            <Button onClick={() => setPicking(false)}>Cancel</Button>
            <Button
              variant="contained"
              disabled={!choice || choice.id === ticket.vendorId}
              onClick={() => choice && save(choice.id)}
              data-testid="vendor-save"
            >
              Save
            </Button>
          </Box>
        </Box>
      ) : (
        <Typography variant="body2" color={ticket.vendor ? 'text.primary' : 'text.secondary'} data-testid="ticket-vendor">
          {ticket.vendor?.name ?? 'No vendor assigned.'}
        </Typography>
      )}
    </Section>
  );
}
