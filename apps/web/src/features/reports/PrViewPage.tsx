import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PR_ACTION_LABELS, type PrAction, type PurchaseRequestDetail } from '@sitewatch/contracts/purchase-requests';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { usePrAction, usePurchaseRequest } from './api.ts';
import { PrStateChip } from './PrStateChip.tsx';
import { money } from './ReportGrid.tsx';

const when = (d: string | null) => (d ? new Date(d).toLocaleString() : '—');

/** /pr-report/{id}/view: one purchase request with its lines and the actions the user may take now. */
export function PrViewPage() {
  const id = Number(useParams().id);
  const request = usePurchaseRequest(id);
  if (request.isPending) return <PageLoader />;
  if (!request.data)
    return <EmptyState title="Purchase request not found" action={<Link to="/pr-report">Back to purchase requests</Link>} />;
  return <PrView pr={request.data} />;
}

function PrView({ pr }: { pr: PurchaseRequestDetail }) {
  const act = usePrAction(pr.id);
  const canEdit = permissionsOf(useUser()).has('change_purchaserequest') && pr.state === 'DRAFT';
  const [asking, setAsking] = useState<PrAction | null>(null);
  const [reason, setReason] = useState('');
  const [serials, setSerials] = useState<Record<number, string>>({});
  const [error, setError] = useState('');
  const needsReason = asking === 'reject' || asking === 'cancel';
  const handleAct = (action: PrAction) => {
    if (action === 'reject' || action === 'cancel' || action === 'receive') {
      setAsking(action);
      setReason('');
      setError('');
      return;
    }
    run(action);
  };
  const run = (action: PrAction) => {
    if ((action === 'reject' || action === 'cancel') && !reason.trim()) {
      setError('Please give a reason');
      return;
    }
    const serialMap = Object.fromEntries(
      Object.entries(serials).map(([itemId, text]) => [
        itemId,
        text
          .split(/[\s,]+/)
          .map((s) => s.trim())
          .filter(Boolean),
      ]),
    );
    act.mutate(
      { action, reason: reason.trim(), ...(action === 'receive' ? { serials: serialMap } : {}) },
      {
        onSuccess: (r) => {
          toast.success(r.message);
          setAsking(null);
        },
        onError: (e) => {
          const message = (isHttpError(e) && detailOf(e.data)) || 'The request was not changed';
          if (asking) setError(message);
          else toast.error(message);
        },
      },
    );
  };
  return (
    <Box sx={{ maxWidth: 1000 }}>
      <PageHeader
        title={`${pr.number} ${pr.title}`}
        subtitle={<PrStateChip state={pr.state} testId="pr-state" />}
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {canEdit ? (
              <Button component={Link} to={`/pr-report/${pr.id}/edit`}>
                Edit
              </Button>
            ) : null}
            {pr.actions.map((a) => (
              <Button
                key={a}
                variant={a === 'cancel' || a === 'reject' ? 'outlined' : 'contained'}
                color={a === 'cancel' || a === 'reject' ? 'error' : 'primary'}
                onClick={() => handleAct(a)}
                disabled={act.isPending}
                data-testid={`pr-action-${a}`}
              >
                {PR_ACTION_LABELS[a]}
              </Button>
            ))}
          </Box>
        }
      />
      <Paper sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>
          <Field label="Store" value={pr.store.name} />
          <Field label="Site" value={pr.site?.name ?? '—'} />
          <Field label="Ticket" value={pr.ticket ? pr.ticket.ticketId : '—'} />
          <Field label="Raised from" value={pr.source === 'LOW_STOCK' ? 'Low stock' : pr.source === 'TICKET' ? 'Ticket' : 'Manual'} />
          <Field label="Requester" value={pr.requester?.name ?? '—'} />
          <Field label="Decided by" value={pr.decidedBy?.name ?? '—'} />
          <Field label="Created" value={when(pr.createdAt)} />
          <Field label="Submitted" value={when(pr.submittedAt)} />
          <Field label="Decided" value={when(pr.decidedAt)} />
          <Field label="Received" value={when(pr.receivedAt)} />
          {pr.note ? <Field label="Note" value={pr.note} /> : null}
          {pr.reason ? <Field label="Reason" value={pr.reason} /> : null}
        </Box>
      </Paper>
      <TableContainer component={Paper}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Item</TableCell>
              <TableCell align="right">Quantity</TableCell>
              <TableCell align="right">Unit cost</TableCell>
              <TableCell align="right">Total</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {pr.lines.map((l) => (
              <TableRow key={l.id}>
                <TableCell>
                  {l.itemCode} · {l.itemName}
                </TableCell>
                <TableCell align="right">
                  {l.quantity} {l.unit}
                </TableCell>
                <TableCell align="right">{money(l.unitCost)}</TableCell>
                <TableCell align="right">{money(l.total)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell colSpan={3} sx={{ fontWeight: 600 }}>
                Total
              </TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="pr-view-total">
                {money(pr.total)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </TableContainer>
      <Dialog open={asking !== null} onClose={() => setAsking(null)} fullWidth maxWidth="xs" data-testid="pr-action-dialog">
        <DialogTitle>{asking ? `${PR_ACTION_LABELS[asking]} ${pr.number}?` : ''}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {asking === 'receive' ? (
              <>
                <Typography variant="body2">The items are received into {pr.store.name} and posted to the stock ledger.</Typography>
                {pr.lines.map((l) => (
                  <TextField
                    key={l.id}
                    size="small"
                    label={`Serial numbers of ${l.itemCode} (only for serial items, ${l.quantity})`}
                    value={serials[l.itemId] ?? ''}
                    onChange={(e) => setSerials((s) => ({ ...s, [l.itemId]: e.target.value }))}
                  />
                ))}
              </>
            ) : null}
            {needsReason ? (
              <TextField
                label="Reason"
                required
                multiline
                minRows={2}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 500 } }}
              />
            ) : null}
            {error ? (
              <Typography color="error" variant="body2" role="alert">
                {error}
              </Typography>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(null)}>Back</Button>
          <Button
            variant="contained"
            color={needsReason ? 'error' : 'primary'}
            onClick={() => asking && run(asking)}
            disabled={act.isPending}
            data-testid="pr-action-confirm"
          >
            {asking ? PR_ACTION_LABELS[asking] : ''}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2">{value}</Typography>
    </Box>
  );
}
