import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { INVENTORY_PERMISSIONS, type MovementInput, type MovementKind } from '@sitewatch/contracts/inventory';
import { lazy, Suspense, useId, useState } from 'react';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { useIssue, useItem, useItemOptions, useMove, useStores, useTicketOptions } from './api.ts';
import type { ItemChoice } from './types.ts';

export type { ItemChoice } from './types.ts';

const ScanDialog = lazy(() => import('./ScanDialog.tsx').then((m) => ({ default: m.ScanDialog })));

export interface TicketChoice {
  id: number;
  ticketId: string;
  title: string;
}

const RIGHT_OF: Record<MovementKind, keyof typeof INVENTORY_PERMISSIONS> = {
  RECEIVE: 'add',
  TRANSFER: 'change',
  ISSUE: 'change',
  RETURN: 'change',
  WRITE_OFF: 'delete',
};
const KIND_HELP: Record<MovementKind, string> = {
  RECEIVE: 'Stock arriving at a store',
  TRANSFER: 'From one store to another',
  ISSUE: 'Taken from a store for a ticket',
  RETURN: 'Brought back from a ticket to a store',
  WRITE_OFF: 'Damaged, lost or used up',
};

/** The kinds of move the user may make. */
export function allowedKinds(permissions: Set<string>): MovementKind[] {
  return (Object.keys(RIGHT_OF) as MovementKind[]).filter((k) => permissions.has(INVENTORY_PERMISSIONS[RIGHT_OF[k]]));
}

/** Receive, transfer, issue, return or write off stock: one form that works on a phone (full screen below 600 px). */
export function MoveDialog(props: {
  open: boolean;
  onClose(): void;
  kind?: MovementKind;
  item?: ItemChoice | null;
  storeId?: number | null;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const kinds = allowedKinds(permissionsOf(useUser()));
  const [kind, setKind] = useState<MovementKind>(props.kind && kinds.includes(props.kind) ? props.kind : (kinds[0] ?? 'RECEIVE'));
  const [item, setItem] = useState<ItemChoice | null>(props.item ?? null);
  const [itemInput, setItemInput] = useState('');
  const [storeId, setStoreId] = useState<number | ''>(props.storeId ?? '');
  const [toStoreId, setToStoreId] = useState<number | ''>('');
  const [ticket, setTicket] = useState<TicketChoice | null>(null);
  const [ticketInput, setTicketInput] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [serials, setSerials] = useState<string[]>([]);
  const [serialText, setSerialText] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [scanning, setScanning] = useState(false);
  const stores = useStores();
  const itemSearch = useDebounced(itemInput.trim(), 300);
  const items = useItemOptions(itemSearch, props.open && !props.item);
  const ticketSearch = useDebounced(ticketInput.trim(), 300);
  const needsTicket = kind === 'ISSUE' || kind === 'RETURN';
  const tickets = useTicketOptions(ticketSearch, props.open && needsTicket);
  const detail = useItem(item && item.tracking === 'SERIAL' && kind !== 'RECEIVE' ? item.id : null);
  const move = useMove();
  const issue = useIssue();

  const serialOptions = (detail.data?.serials ?? [])
    .filter((s) => (kind === 'RETURN' ? s.status === 'ISSUED' && (!ticket || s.ticketId === ticket.id) : s.storeId === storeId))
    .map((s) => s.serial);
  const typedSerials = serialText
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const chosenSerials = kind === 'RECEIVE' ? typedSerials : serials;
  const qty = Number(quantity);
  const problems = {
    item: !item ? 'Choose an item' : null,
    store: storeId === '' ? 'Choose a store' : null,
    toStore:
      kind === 'TRANSFER' && toStoreId === ''
        ? 'Choose the store to transfer to'
        : kind === 'TRANSFER' && toStoreId === storeId
          ? 'Choose two different stores'
          : null,
    ticket: needsTicket && !ticket ? 'Choose a ticket' : null,
    quantity: item?.tracking === 'QUANTITY' && (!Number.isInteger(qty) || qty < 1) ? 'Enter a quantity of at least 1' : null,
    serials: item?.tracking === 'SERIAL' && chosenSerials.length === 0 ? 'Name the serial numbers of a serial-tracked item' : null,
    note: kind === 'WRITE_OFF' && note.trim() === '' ? 'Give a reason for the write-off' : null,
  };
  const invalid = Object.values(problems).some(Boolean);
  const show = (key: keyof typeof problems) => (touched ? problems[key] : null);

  const submit = async () => {
    setTouched(true);
    setError(null);
    if (invalid || !item || storeId === '') return;
    const input: MovementInput = {
      kind,
      itemId: item.id,
      storeId,
      note: note.trim(),
      ...(kind === 'TRANSFER' && toStoreId !== '' ? { toStoreId } : {}),
      ...(needsTicket && ticket ? { ticketId: ticket.id } : {}),
      ...(item.tracking === 'SERIAL' ? { serials: chosenSerials } : { quantity: qty }),
    };
    try {
      const result =
        kind === 'ISSUE' && ticket
          ? await issue.mutateAsync({ input, what: { item: item.name, ticket: ticket.ticketId } })
          : { ...(await move.mutateAsync(input)), queued: false };
      if (result.queued) toast.info(result.message);
      else toast.success(result.message);
      props.onClose();
    } catch (e) {
      setError((isHttpError(e) && detailOf(e.data)) || 'The stock could not be updated. Please try again.');
    }
  };

  const storeOptions = stores.data?.contents ?? [];
  return (
    <Dialog
      open={props.open}
      onClose={move.isPending ? undefined : props.onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>{kind === 'RECEIVE' ? 'Receive stock' : 'Move stock'}</DialogTitle>
      <DialogContent>
        <Box
          component="form"
          id="inventory-move-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          sx={{ display: 'grid', gap: 2, pt: 1 }}
        >
          {error ? (
            <Alert severity="error" data-testid="move-error">
              {error}
            </Alert>
          ) : null}
          <TextField
            select
            label="What happens"
            value={kind}
            onChange={(e) => setKind(e.target.value as MovementKind)}
            helperText={KIND_HELP[kind]}
            slotProps={{ htmlInput: { 'data-testid': 'move-kind' } }}
          >
            {kinds.map((k) => (
              <MenuItem key={k} value={k} data-testid={`move-kind-${k}`}>
                {
                  {
                    RECEIVE: 'Receive',
                    TRANSFER: 'Transfer',
                    ISSUE: 'Issue to ticket',
                    RETURN: 'Return from ticket',
                    WRITE_OFF: 'Write off',
                  }[k]
                }
              </MenuItem>
            ))}
          </TextField>
          {props.item ? (
            <TextField label="Item" value={`${props.item.name} (${props.item.code})`} slotProps={{ input: { readOnly: true } }} />
          ) : (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <Autocomplete
                sx={{ flex: 1 }}
                value={item}
                onChange={(_e, v) => {
                  setItem(v);
                  setSerials([]);
                }}
                inputValue={itemInput}
                onInputChange={(_e, v) => setItemInput(v)}
                options={items.data?.contents ?? []}
                filterOptions={(x) => x}
                getOptionLabel={(o) => `${o.name} (${o.code})`}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                loading={items.isFetching}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label="Item"
                    error={Boolean(show('item'))}
                    helperText={show('item')}
                    slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'move-item' } }}
                  />
                )}
              />
              <IconButton aria-label="Scan an item label" onClick={() => setScanning(true)} sx={{ mt: 1 }} data-testid="move-scan">
                <QrCodeScannerIcon />
              </IconButton>
            </Box>
          )}
          <TextField
            select
            label={kind === 'RECEIVE' || kind === 'RETURN' ? 'Into store' : 'From store'}
            value={storeId}
            onChange={(e) => setStoreId(Number(e.target.value))}
            error={Boolean(show('store'))}
            helperText={show('store')}
            slotProps={{ htmlInput: { 'data-testid': 'move-store' } }}
          >
            {storeOptions.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.name}
              </MenuItem>
            ))}
          </TextField>
          {kind === 'TRANSFER' ? (
            <TextField
              select
              label="To store"
              value={toStoreId}
              onChange={(e) => setToStoreId(Number(e.target.value))}
              error={Boolean(show('toStore'))}
              helperText={show('toStore')}
              slotProps={{ htmlInput: { 'data-testid': 'move-to-store' } }}
            >
              {storeOptions.map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          {needsTicket ? (
            <Autocomplete
              value={ticket}
              onChange={(_e, v) => setTicket(v)}
              inputValue={ticketInput}
              onInputChange={(_e, v) => setTicketInput(v)}
              options={(tickets.data?.contents ?? []).map((t) => ({ id: t.id, ticketId: t.ticketId, title: t.title }))}
              filterOptions={(x) => x}
              getOptionLabel={(o) => `${o.ticketId} · ${o.title}`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              loading={tickets.isFetching}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Ticket"
                  placeholder="Search ticket number or title"
                  error={Boolean(show('ticket'))}
                  helperText={show('ticket')}
                  slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'move-ticket' } }}
                />
              )}
            />
          ) : null}
          {item?.tracking === 'SERIAL' ? (
            kind === 'RECEIVE' ? (
              <TextField
                label="Serial numbers"
                multiline
                minRows={2}
                value={serialText}
                onChange={(e) => setSerialText(e.target.value)}
                error={Boolean(show('serials'))}
                helperText={show('serials') ?? `One per line or separated by commas (${typedSerials.length})`}
                slotProps={{ htmlInput: { 'data-testid': 'move-serials-text' } }}
              />
            ) : (
              <Autocomplete
                multiple
                freeSolo
                value={serials}
                onChange={(_e, v) => setSerials(v)}
                options={serialOptions}
                loading={detail.isFetching}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label="Serial numbers"
                    error={Boolean(show('serials'))}
                    helperText={
                      show('serials') ?? (storeId === '' && kind !== 'RETURN' ? 'Choose the store to see its serials' : undefined)
                    }
                    slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'move-serials' } }}
                  />
                )}
              />
            )
          ) : (
            <TextField
              label={item ? `Quantity (${item.unit})` : 'Quantity'}
              type="number"
              value={quantity}
              onChange={(e) => setQuantity(e.target.value)}
              error={Boolean(show('quantity'))}
              helperText={show('quantity')}
              slotProps={{ htmlInput: { min: 1, inputMode: 'numeric', 'data-testid': 'move-quantity' } }}
            />
          )}
          <TextField
            label={kind === 'WRITE_OFF' ? 'Reason' : 'Note (optional)'}
            value={note}
            onChange={(e) => setNote(e.target.value.slice(0, 500))}
            error={Boolean(show('note'))}
            helperText={show('note')}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'move-note' } }}
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={props.onClose} disabled={move.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="inventory-move-form"
          variant="contained"
          disabled={move.isPending}
          startIcon={move.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="move-submit"
        >
          Save
        </Button>
      </DialogActions>
      {scanning ? (
        <Suspense fallback={null}>
          <ScanDialog
            open
            onClose={() => setScanning(false)}
            onFound={(found) => {
              setItem(found);
              setScanning(false);
            }}
          />
        </Suspense>
      ) : null}
    </Dialog>
  );
}
