import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ASSET_MESSAGES, ASSET_TREE, assetInputSchema } from '@sitewatch/contracts/sites';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { useAssetAlias } from './alias.ts';
import { useAsset, useCustomers, useSaveAsset } from './api.ts';

const LEVEL_HINTS = ['Country', 'Region / State', 'City', 'Area', 'Street', 'Block'];

interface FormState {
  name: string;
  address: string[];
  latitude: string;
  longitude: string;
  assetCode: string;
  merchantId: string;
  customerId: number | '';
}

const EMPTY: FormState = { name: '', address: ['', '', ''], latitude: '', longitude: '', assetCode: '', merchantId: '', customerId: '' };
const num = (v: string) => (v.trim() === '' ? null : Number(v));

/** /assets/create and /assets/edit/{id}. */
export function AssetFormPage() {
  const alias = useAssetAlias();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const navigate = useNavigate();
  const existing = useAsset(id);
  const customers = useCustomers({ limit: 500 });
  const save = useSaveAsset(id);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const a = existing.data;
    if (!a) return;
    setForm({
      name: a.name,
      address: a.address.length ? a.address : [''],
      latitude: a.latitude?.toString() ?? '',
      longitude: a.longitude?.toString() ?? '',
      assetCode: a.metadata.assetCode ?? '',
      merchantId: a.metadata.merchantId ?? '',
      customerId: a.customerId ?? '',
    });
  }, [existing.data]);

  if (id && existing.isLoading) return <PageLoader />;

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const metadata: Record<string, string> = { ...(existing.data?.metadata as Record<string, string> | undefined) };
    if (form.assetCode.trim()) metadata.assetCode = form.assetCode.trim();
    else delete metadata.assetCode;
    if (form.merchantId.trim()) metadata.merchantId = form.merchantId.trim();
    else delete metadata.merchantId;
    const parsed = assetInputSchema.safeParse({
      name: form.name,
      address: form.address.map((l) => l.trim()).filter(Boolean),
      latitude: num(form.latitude),
      longitude: num(form.longitude),
      metadata,
      customerId: form.customerId === '' ? null : form.customerId,
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (asset) => {
        showToast('success', id ? ASSET_MESSAGES.updated : ASSET_MESSAGES.created);
        navigate(`/assets/view/${asset.id}`);
      },
      onError: (error) => setFailure((isHttpError(error) && detailOf(error.data)) || 'Failed to save'),
    });
  };

  return (
    <Box component="form" onSubmit={handleSubmit} noValidate sx={{ maxWidth: 760 }}>
      <PageHeader title={id ? `Edit ${alias}` : `Add ${alias}`} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {failure}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2 }}>
        <TextField
          label="Name"
          required
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name}
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
          <TextField
            label="Asset Code"
            value={form.assetCode}
            onChange={(e) => set('assetCode', e.target.value)}
            helperText="Starts every device name of the site"
          />
          <TextField label="Merchant ID" value={form.merchantId} onChange={(e) => set('merchantId', e.target.value)} />
        </Box>
        <Box>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            Address levels (broadest first: they build the {alias.toLowerCase()} tree)
          </Typography>
          <Box sx={{ display: 'grid', gap: 1 }}>
            {form.address.map((level, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: address levels are positional
              <Box key={i} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                <TextField
                  size="small"
                  fullWidth
                  label={LEVEL_HINTS[i] ?? `Level ${i + 1}`}
                  value={level}
                  onChange={(e) =>
                    set(
                      'address',
                      form.address.map((l, j) => (j === i ? e.target.value : l)),
                    )
                  }
                  error={i === 0 && Boolean(errors.address)}
                  helperText={i === 0 ? errors.address : undefined}
                />
                <IconButton
                  aria-label={`Remove level ${i + 1}`}
                  disabled={form.address.length === 1}
                  onClick={() =>
                    set(
                      'address',
                      form.address.filter((_l, j) => j !== i),
                    )
                  }
                >
                  <DeleteOutline />
                </IconButton>
              </Box>
            ))}
          </Box>
          <Button
            size="small"
            startIcon={<AddIcon />}
            sx={{ mt: 1 }}
            disabled={form.address.length >= ASSET_TREE.maxAddressLevels}
            onClick={() => set('address', [...form.address, ''])}
          >
            Add level
          </Button>
        </Box>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
          <TextField
            label="Latitude"
            type="number"
            value={form.latitude}
            onChange={(e) => set('latitude', e.target.value)}
            error={Boolean(errors.latitude)}
            helperText={errors.latitude}
          />
          <TextField
            label="Longitude"
            type="number"
            value={form.longitude}
            onChange={(e) => set('longitude', e.target.value)}
            error={Boolean(errors.longitude)}
            helperText={errors.longitude}
          />
        </Box>
        <TextField
          select
          label="Customer"
          value={form.customerId}
          onChange={(e) => set('customerId', e.target.value === '' ? '' : Number(e.target.value))}
        >
          <MenuItem value="">None</MenuItem>
          {(customers.data?.contents ?? []).map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          <Button onClick={() => navigate(-1)}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="asset-save">
            Save
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
