import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { INVENTORY_MESSAGES, type Item, itemInputSchema } from '@sitewatch/contracts/inventory';
import { useId, useState } from 'react';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useSaveItem } from './api.ts';

type Form = {
  code: string;
  name: string;
  category: string;
  make: string;
  model: string;
  unit: string;
  tracking: 'SERIAL' | 'QUANTITY';
  lowStockThreshold: string;
};

/** Adds an item to the catalogue or changes one (its tracking is fixed once created). */
export function ItemFormDialog(props: { open: boolean; onClose(): void; item?: Item; onSaved?(id: number): void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const editing = props.item;
  const [form, setForm] = useState<Form>({
    code: editing?.code ?? '',
    name: editing?.name ?? '',
    category: editing?.category ?? '',
    make: editing?.make ?? '',
    model: editing?.model ?? '',
    unit: editing?.unit ?? 'pcs',
    tracking: editing?.tracking ?? 'QUANTITY',
    lowStockThreshold: String(editing?.lowStockThreshold ?? 0),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const save = useSaveItem(editing?.id ?? null);
  const set = (key: keyof Form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async () => {
    setError(null);
    const parsed = itemInputSchema.safeParse({ ...form, lowStockThreshold: Number(form.lowStockThreshold) });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    try {
      const { tracking: _tracking, ...update } = parsed.data;
      const saved = await save.mutateAsync(editing ? update : parsed.data);
      toast.success(editing ? INVENTORY_MESSAGES.updated : INVENTORY_MESSAGES.created);
      props.onClose();
      props.onSaved?.(saved.id);
    } catch (e) {
      setError((isHttpError(e) && detailOf(e.data)) || 'The item could not be saved. Please try again.');
    }
  };
  const field = (key: keyof Form, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={set(key)}
      error={Boolean(errors[key])}
      helperText={errors[key]}
      slotProps={{ htmlInput: { 'data-testid': `item-${key}` } }}
      {...extra}
    />
  );
  return (
    <Dialog
      open={props.open}
      onClose={save.isPending ? undefined : props.onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>{editing ? 'Edit item' : 'Add item'}</DialogTitle>
      <DialogContent>
        <Box
          component="form"
          id="inventory-item-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          sx={{ display: 'grid', gap: 2, pt: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
        >
          {error ? (
            <Alert severity="error" sx={{ gridColumn: '1 / -1' }}>
              {error}
            </Alert>
          ) : null}
          {field('code', 'Code (SKU)', { required: true })}
          {field('name', 'Name', { required: true })}
          {field('category', 'Category')}
          {field('unit', 'Unit')}
          {field('make', 'Make')}
          {field('model', 'Model')}
          <TextField select label="Tracked by" value={form.tracking} onChange={set('tracking')} disabled={Boolean(editing)}>
            <MenuItem value="QUANTITY">Quantity</MenuItem>
            <MenuItem value="SERIAL">Serial number</MenuItem>
          </TextField>
          {field('lowStockThreshold', 'Low-stock threshold', { type: 'number' })}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={props.onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" form="inventory-item-form" variant="contained" disabled={save.isPending} data-testid="item-save">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
