import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type PrInput, type PurchaseRequestDetail, prInputSchema } from '@sitewatch/contracts/purchase-requests';
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useItemSearch, usePurchaseRequest, useSavePurchaseRequest, useStoreOptions } from './api.ts';
import { money } from './ReportGrid.tsx';

interface Line {
  item: { id: number; code: string; name: string; unit: string } | null;
  quantity: string;
  unitCost: string;
}
const emptyLine = (): Line => ({ item: null, quantity: '1', unitCost: '0' });

/** /pr-report/create and /pr-report/{id}/edit: a purchase request's store, ticket and lines (items, quantities, unit costs). */
export function PrFormPage() {
  const { id } = useParams();
  const existing = usePurchaseRequest(Number(id) || 0, Boolean(id));
  if (!id) return <PrForm request={null} />;
  if (existing.isPending) return <PageLoader />;
  if (!existing.data) return <EmptyState title="Purchase request not found" />;
  return <PrForm request={existing.data} />;
}

function PrForm({ request }: { request: PurchaseRequestDetail | null }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const stores = useStoreOptions();
  const save = useSavePurchaseRequest(request?.id ?? null);
  const [title, setTitle] = useState(request?.title ?? params.get('title') ?? '');
  const [storeId, setStoreId] = useState(request ? String(request.store.id) : (params.get('storeId') ?? ''));
  const [ticketId, setTicketId] = useState(request?.ticket ? String(request.ticket.id) : (params.get('ticketId') ?? ''));
  const [note, setNote] = useState(request?.note ?? '');
  const [lines, setLines] = useState<Line[]>(
    request
      ? request.lines.map((l) => ({
          item: { id: l.itemId, code: l.itemCode, name: l.itemName, unit: l.unit },
          quantity: String(l.quantity),
          unitCost: String(l.unitCost),
        }))
      : [emptyLine()],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const siteId = Number(params.get('siteId')) || null;
  useEffect(() => {
    if (storeId || !stores.data) return;
    // the only store, or the only store at the site of the ticket the request is raised from
    const atSite = stores.data.contents.filter((s) => siteId !== null && s.assetId === siteId);
    const only = stores.data.contents.length === 1 ? stores.data.contents : atSite.length === 1 ? atSite : [];
    if (only[0]) setStoreId(String(only[0].id));
  }, [storeId, stores.data, siteId]);
  const total = lines.reduce((n, l) => n + (Number(l.quantity) || 0) * (Number(l.unitCost) || 0), 0);
  const setLine = (i: number, patch: Partial<Line>) => setLines((all) => all.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  const handleSave = (submit: boolean) => {
    const body = {
      title,
      storeId: Number(storeId) || 0,
      ticketId: ticketId ? Number(ticketId) : null,
      note,
      submit,
      lines: lines.map((l) => ({ itemId: l.item?.id ?? 0, quantity: Number(l.quantity), unitCost: Number(l.unitCost) })),
    };
    const parsed = prInputSchema.safeParse(body);
    const found: Record<string, string> = {};
    if (!storeId) found.storeId = 'Choose a store';
    lines.forEach((l, i) => {
      if (!l.item) found[`lines.${i}.itemId`] = 'Choose an item';
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = issue.path.join('.');
        if (!found[key]) found[key] = key === 'storeId' ? 'Choose a store' : key === 'ticketId' ? 'Enter the ticket number' : issue.message;
      }
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    save.mutate(parsed.data as PrInput, {
      onSuccess: (pr) => {
        toast.success(request ? 'Successfully Updated' : `${pr.number} ${submit ? 'submitted' : 'saved as draft'}`);
        navigate(`/pr-report/${pr.id}/view`);
      },
      onError: (e) => setErrors({ form: (isHttpError(e) && detailOf(e.data)) || 'The request was not saved' }),
    });
  };

  return (
    <Box sx={{ maxWidth: 900 }}>
      <PageHeader title={request ? `Edit ${request.number}` : 'New purchase request'} />
      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={2}>
          <TextField
            label="Title"
            required
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            error={Boolean(errors.title)}
            helperText={errors.title}
            slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'pr-title' } }}
          />
          <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
            <TextField
              select
              label="Receive into store"
              required
              value={storeId}
              onChange={(e) => setStoreId(e.target.value)}
              error={Boolean(errors.storeId)}
              helperText={errors.storeId}
              sx={{ flex: 1 }}
              data-testid="pr-store"
            >
              {(stores.data?.contents ?? []).map((s) => (
                <MenuItem key={s.id} value={String(s.id)}>
                  {s.name}
                  {s.siteName ? ` (${s.siteName})` : ''}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Ticket number (optional)"
              value={ticketId}
              onChange={(e) => setTicketId(e.target.value.replace(/\D/g, '').slice(0, 9))}
              error={Boolean(errors.ticketId)}
              helperText={errors.ticketId ?? 'The ticket the parts are for'}
              sx={{ flex: 1 }}
              disabled={Boolean(request)}
            />
          </Box>
          <TextField
            label="Note"
            multiline
            minRows={2}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          <Typography variant="subtitle1">Items</Typography>
          {errors.lines ? (
            <Typography color="error" variant="body2">
              {errors.lines}
            </Typography>
          ) : null}
          {lines.map((line, i) => (
            <LineRow
              // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id until saved
              key={i}
              line={line}
              index={i}
              errors={errors}
              onChange={(patch) => setLine(i, patch)}
              onRemove={lines.length > 1 ? () => setLines((all) => all.filter((_, j) => j !== i)) : undefined}
            />
          ))}
          <Box>
            <Button onClick={() => setLines((all) => [...all, emptyLine()])} disabled={lines.length >= 100} data-testid="pr-add-line">
              Add item
            </Button>
          </Box>
          <Typography variant="h6" data-testid="pr-total">
            Total {money(total)}
          </Typography>
          {errors.form ? (
            <Typography color="error" role="alert">
              {errors.form}
            </Typography>
          ) : null}
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
            <Button onClick={() => navigate(-1)}>Cancel</Button>
            <Button variant="outlined" onClick={() => handleSave(false)} disabled={save.isPending} data-testid="pr-save-draft">
              Save draft
            </Button>
            <Button variant="contained" onClick={() => handleSave(true)} disabled={save.isPending} data-testid="pr-submit">
              Submit
            </Button>
          </Box>
        </Stack>
      </Paper>
    </Box>
  );
}

function LineRow(props: {
  line: Line;
  index: number;
  errors: Record<string, string>;
  onChange(patch: Partial<Line>): void;
  onRemove?: () => void;
}) {
  const [search, setSearch] = useState('');
  const items = useItemSearch(search);
  const { line, index, errors } = props;
  const err = (f: string) => errors[`lines.${index}.${f}`];
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }} data-testid={`pr-line-${index}`}>
      <Autocomplete
        sx={{ flex: '1 1 240px' }}
        options={items.data?.contents ?? []}
        value={line.item}
        onChange={(_e, v) => props.onChange({ item: v })}
        onInputChange={(_e, v) => setSearch(v)}
        getOptionLabel={(o) => `${o.code} · ${o.name}`}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(x) => x}
        renderInput={(p) => <TextField {...p} label="Item" size="small" error={Boolean(err('itemId'))} helperText={err('itemId')} />}
      />
      <TextField
        size="small"
        label="Quantity"
        type="number"
        value={line.quantity}
        onChange={(e) => props.onChange({ quantity: e.target.value })}
        error={Boolean(err('quantity'))}
        helperText={err('quantity')}
        sx={{ width: 110 }}
        slotProps={{ htmlInput: { min: 1 } }}
      />
      <TextField
        size="small"
        label="Unit cost"
        type="number"
        value={line.unitCost}
        onChange={(e) => props.onChange({ unitCost: e.target.value })}
        error={Boolean(err('unitCost'))}
        helperText={err('unitCost')}
        sx={{ width: 130 }}
        slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
      />
      {props.onRemove ? (
        <IconButton aria-label={`Remove item ${index + 1}`} onClick={props.onRemove} sx={{ mt: 0.5 }}>
          ×
        </IconButton>
      ) : null}
    </Box>
  );
}
