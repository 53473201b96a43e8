import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ItemDetail } from '@sitewatch/contracts/inventory';
import { useId, useState } from 'react';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { DevicePicker, type Option } from '../sites/Pickers.tsx';
import { useReplace, useTicketOptions } from './api.ts';

type TicketChoice = { id: number; ticketId: string; title: string };

/**
 * Replaces a faulty device from a ticket: one serial spare leaves its store for the ticket and the device takes its
 * serial number, make and model, all in one step on the server.
 */
export function ReplaceDialog(props: { open: boolean; onClose(): void; detail: ItemDetail }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const { item, stock, serials } = props.detail;
  const [ticket, setTicket] = useState<TicketChoice | null>(null);
  const [ticketInput, setTicketInput] = useState('');
  const [device, setDevice] = useState<Option | null>(null);
  const [storeId, setStoreId] = useState<number | ''>(stock.find((s) => s.onHand > 0)?.storeId ?? '');
  const [serial, setSerial] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ticketSearch = useDebounced(ticketInput.trim(), 300);
  const tickets = useTicketOptions(ticketSearch, props.open);
  const replace = useReplace();
  const inStore = serials.filter((s) => s.status === 'IN_STORE' && s.storeId === storeId);
  const problems = {
    ticket: ticket ? null : 'Choose a ticket',
    device: device ? null : 'Choose the device to replace',
    store: storeId === '' ? 'Choose a store' : null,
    serial: serial ? null : 'Choose the serial number of the spare',
  };
  const show = (k: keyof typeof problems) => (touched ? problems[k] : null);

  const submit = async () => {
    setTouched(true);
    setError(null);
    if (Object.values(problems).some(Boolean) || !ticket || !device || storeId === '') return;
    try {
      const result = await replace.mutateAsync({ ticketId: ticket.id, deviceId: device.id, itemId: item.id, storeId, serial, note: '' });
      toast.success(result.message);
      props.onClose();
    } catch (e) {
      setError((isHttpError(e) && detailOf(e.data)) || 'The device could not be replaced. Please try again.');
    }
  };
  return (
    <Dialog
      open={props.open}
      onClose={replace.isPending ? undefined : props.onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>Replace a device</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The spare is issued to the ticket and the device takes its serial number, make ({item.make || '—'}) and model ({item.model || '—'}
          ).
        </DialogContentText>
        <Box
          component="form"
          id="inventory-replace-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          sx={{ display: 'grid', gap: 2 }}
        >
          {error ? <Alert severity="error">{error}</Alert> : null}
          <Autocomplete
            value={ticket}
            onChange={(_e, v) => setTicket(v)}
            inputValue={ticketInput}
            onInputChange={(_e, v) => setTicketInput(v)}
            options={(tickets.data?.contents ?? []).map((t) => ({ id: t.id, ticketId: t.ticketId, title: t.title }))}
            filterOptions={(x) => x}
            getOptionLabel={(o) => `${o.ticketId} · ${o.title}`}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => <TextField {...params} label="Ticket" error={Boolean(show('ticket'))} helperText={show('ticket')} />}
          />
          <Box>
            <DevicePicker label="Device to replace" value={device} onChange={setDevice} />
            {show('device') ? (
              <Box sx={{ color: 'error.main', fontSize: 12, mt: 0.5, ml: 1.75 }} role="alert">
                {show('device')}
              </Box>
            ) : null}
          </Box>
          <TextField
            select
            label="From store"
            value={storeId}
            onChange={(e) => {
              setStoreId(Number(e.target.value));
              setSerial('');
            }}
            error={Boolean(show('store'))}
            helperText={show('store')}
          >
            {stock.map((s) => (
              <MenuItem key={s.storeId} value={s.storeId}>
                {s.storeName} ({s.onHand})
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Serial number of the spare"
            value={serial}
            onChange={(e) => setSerial(e.target.value)}
            error={Boolean(show('serial'))}
            helperText={show('serial') ?? (inStore.length === 0 ? 'No serials of this item in that store' : undefined)}
          >
            {inStore.map((s) => (
              <MenuItem key={s.id} value={s.serial}>
                {s.serial}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={props.onClose} disabled={replace.isPending}>
          Cancel
        </Button>
        <Button type="submit" form="inventory-replace-form" variant="contained" disabled={replace.isPending}>
          Replace
        </Button>
      </DialogActions>
    </Dialog>
  );
}
