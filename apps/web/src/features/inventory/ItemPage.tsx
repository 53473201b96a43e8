import PrintIcon from '@mui/icons-material/Print';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import GlobalStyles from '@mui/material/GlobalStyles';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import { INVENTORY_MESSAGES, MOVEMENT_LABELS, type Movement } from '@sitewatch/contracts/inventory';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { loadState } from '../../components/LoadState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QrCode } from '../../components/QrCode.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useDeleteItem, useItem, useMovements } from './api.ts';
import { ItemFormDialog } from './ItemFormDialog.tsx';
import { MoveDialog } from './MoveDialog.tsx';
import { ReplaceDialog } from './ReplaceDialog.tsx';

/** Only the label is printed from this page. */
const PRINT_STYLES = {
  '@media print': {
    'body *': { visibility: 'hidden' },
    '.inventory-label, .inventory-label *': { visibility: 'visible' },
    '.inventory-label': { position: 'fixed', left: 0, top: 0, border: 'none !important', color: '#000', background: '#fff' },
    '@page': { size: '62mm 40mm', margin: '2mm' },
  },
} as const;

function describe(m: Movement) {
  const from = m.fromStore?.name;
  const to = m.toStore?.name;
  if (m.kind === 'TRANSFER') return `${from} → ${to}`;
  if (m.kind === 'RECEIVE') return `into ${to}`;
  if (m.kind === 'RETURN') return `into ${to}`;
  return `from ${from}`;
}

/** inventory-management/{id}/view: an item's stock per store, its serials, its full history and its label. */
export function ItemPage() {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const navigate = useNavigate();
  const item = useItem(valid ? id : null);
  const [page, setPage] = useState(0);
  const movements = useMovements({ itemId: valid ? id : 0, page: page + 1, limit: 20 });
  const [moving, setMoving] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteItem();
  const state = loadState(item, { title: 'Item not found', back: { to: '/inventory-management', label: 'Back to inventory' } }, valid);
  if (state) return state;
  const data = item.data;
  if (!data) return null;
  const it = data.item;

  const onDelete = async () => {
    try {
      await remove.mutateAsync(it.id);
      toast.success(INVENTORY_MESSAGES.deleted);
      navigate('/inventory-management');
    } catch (e) {
      toast.error((isHttpError(e) && detailOf(e.data)) || 'The item could not be deleted.');
      setDeleting(false);
    }
  };

  return (
    <Box>
      <GlobalStyles styles={PRINT_STYLES} />
      <PageHeader
        title={it.name}
        subtitle={`${it.code}${it.category ? ` · ${it.category}` : ''}${it.make || it.model ? ` · ${[it.make, it.model].filter(Boolean).join(' ')}` : ''}`}
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {data.can.move ? (
              <Button variant="contained" onClick={() => setMoving(true)} data-testid="item-move">
                Move stock
              </Button>
            ) : null}
            {data.can.move && it.tracking === 'SERIAL' && data.can.change ? (
              <Button variant="outlined" onClick={() => setReplacing(true)} data-testid="item-replace">
                Replace a device
              </Button>
            ) : null}
            <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()} data-testid="item-print">
              Print label
            </Button>
            {data.can.change ? (
              <Button variant="outlined" onClick={() => setEditing(true)}>
                Edit
              </Button>
            ) : null}
            {data.can.delete ? (
              <Button variant="outlined" color="error" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            ) : null}
          </Box>
        }
      />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' },
          alignItems: 'start',
        }}
      >
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h2" component="h2" sx={{ fontSize: 18, mb: 1 }}>
              On hand: <span data-testid="item-on-hand">{it.onHand}</span> {it.unit}
            </Typography>
            {data.stock.length === 0 ? (
              <Typography color="text.secondary">No stock in any store you see.</Typography>
            ) : (
              <List dense disablePadding>
                {data.stock.map((s) => (
                  <ListItem
                    key={s.storeId}
                    disableGutters
                    data-testid="item-store-stock"
                    secondaryAction={s.low ? <Chip size="small" color="error" label="Low" /> : null}
                  >
                    <ListItemText
                      primary={s.storeName}
                      secondary={`${s.onHand} ${it.unit}${it.lowStockThreshold ? ` (threshold ${it.lowStockThreshold})` : ''}`}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Paper>
          {it.tracking === 'SERIAL' ? (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="h2" component="h2" sx={{ fontSize: 18, mb: 1 }}>
                Serial numbers
              </Typography>
              {data.serials.length === 0 ? (
                <Typography color="text.secondary">None received yet.</Typography>
              ) : (
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                  {data.serials.map((s) => (
                    <Chip
                      key={s.id}
                      data-testid="item-serial"
                      variant={s.status === 'IN_STORE' ? 'filled' : 'outlined'}
                      label={`${s.serial} · ${s.status === 'IN_STORE' ? s.storeName : s.status === 'ISSUED' ? 'issued' : 'written off'}`}
                    />
                  ))}
                </Box>
              )}
            </Paper>
          ) : null}
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h2" component="h2" sx={{ fontSize: 18, mb: 1 }}>
              History
            </Typography>
            {movements.data && movements.data.totalCount === 0 ? (
              <Typography color="text.secondary">No movements yet.</Typography>
            ) : (
              <List dense disablePadding data-testid="item-history">
                {(movements.data?.contents ?? []).map((m) => (
                  <ListItem key={m.id} divider disableGutters data-testid="history-row">
                    <ListItemText
                      primary={
                        <span>
                          <strong>{MOVEMENT_LABELS[m.kind]}</strong> {m.quantity} {it.unit} {describe(m)}
                          {m.serial ? ` · ${m.serial}` : ''}
                          {m.ticketId ? (
                            <>
                              {' · '}
                              <Link to={`/tickets/all/view/?ticketId=${m.ticketId}`}>ticket</Link>
                            </>
                          ) : null}
                        </span>
                      }
                      secondary={`${m.performedAt ? `${formatDateTime(m.performedAt)} (sent ${formatDateTime(m.createdAt)})` : formatDateTime(m.createdAt)}${m.actor ? ` · ${m.actor.name}` : ''}${m.note ? ` · ${m.note}` : ''}`}
                    />
                  </ListItem>
                ))}
              </List>
            )}
            <TablePagination
              component="div"
              count={movements.data?.totalCount ?? 0}
              page={page}
              onPageChange={(_e, p) => setPage(p)}
              rowsPerPage={20}
              rowsPerPageOptions={[]}
              sx={{ overflow: 'hidden', '.MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 0 } }}
            />
          </Paper>
        </Box>
        <Paper
          variant="outlined"
          className="inventory-label"
          data-testid="item-label"
          sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', justifyContent: 'center', flexWrap: 'wrap' }}
        >
          <QrCode value={it.code} label={`QR code of ${it.code}`} size={120} />
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 700, fontSize: 18, wordBreak: 'break-all' }}>{it.code}</Typography>
            <Typography variant="body2">{it.name}</Typography>
            {it.model ? <Typography variant="body2">{it.model}</Typography> : null}
          </Box>
        </Paper>
      </Box>
      {moving ? (
        <MoveDialog
          open
          onClose={() => setMoving(false)}
          item={{ id: it.id, code: it.code, name: it.name, unit: it.unit, tracking: it.tracking }}
          storeId={data.stock[0]?.storeId ?? null}
        />
      ) : null}
      {replacing ? <ReplaceDialog open onClose={() => setReplacing(false)} detail={data} /> : null}
      {editing ? <ItemFormDialog open onClose={() => setEditing(false)} item={it} /> : null}
      <ConfirmDialog
        open={deleting}
        destructive
        title={`Delete '${it.name}'?`}
        text="An item that has movements cannot be deleted."
        busy={remove.isPending}
        onConfirm={() => void onDelete()}
        onClose={() => setDeleting(false)}
      />
    </Box>
  );
}
