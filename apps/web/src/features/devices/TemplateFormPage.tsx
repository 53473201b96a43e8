import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DEFAULT_TELEMETRY,
  DEVICE_MESSAGES,
  DEVICE_TYPE_LABELS,
  DEVICE_TYPES,
  type DeviceType,
  deviceTemplateInputSchema,
  type TemplateTelemetry,
} from '@sitewatch/contracts/devices';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { countOf, formatDateTime } from '../../lib/format.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useSaveTemplate, useTemplate } from './api.ts';
import { Section } from './components.tsx';

type Row = { key: string; label: string; unit: string; valueType: TemplateTelemetry['valueType'] };
const toRows = (keys: TemplateTelemetry[]): Row[] =>
  keys.map((k) => ({ key: k.key, label: k.label, unit: k.unit ?? '', valueType: k.valueType }));

/** /device-template/create/ and /view-device-template/edit/{templateId}. */
export function TemplateFormPage() {
  const params = useParams();
  const id = params.templateId ? Number(params.templateId) : null;
  const navigate = useNavigate();
  const existing = useTemplate(id);
  const save = useSaveTemplate(id);
  const [name, setName] = useState('');
  const [type, setType] = useState<DeviceType>('GENERATOR');
  const [vendor, setVendor] = useState('');
  const [model, setModel] = useState('');
  const [description, setDescription] = useState('');
  const [rows, setRows] = useState<Row[]>(toRows(DEFAULT_TELEMETRY.GENERATOR ?? []));
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const t = existing.data;
    if (!t) return;
    setName(t.name);
    setType(t.type);
    setVendor(t.vendor);
    setModel(t.model ?? '');
    setDescription(t.description ?? '');
    setRows(toRows(t.telemetry));
  }, [existing.data]);

  if (id && existing.isLoading) return <PageLoader />;
  const setRow = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = deviceTemplateInputSchema.safeParse({
      name,
      type,
      vendor,
      model,
      description,
      telemetry: rows
        .filter((r) => r.key.trim())
        .map((r) => ({
          key: r.key.trim(),
          label: r.label.trim() || r.key.trim(),
          unit: r.unit.trim() || undefined,
          valueType: r.valueType,
        })),
      attributes: existing.data?.attributes ?? {},
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setFailure(issue ? `${issue.path.join('.')}: ${issue.message}` : 'Check the form');
      return;
    }
    setFailure(null);
    save.mutate(
      { ...parsed.data, model: parsed.data.model ?? null, description: parsed.data.description ?? null },
      {
        onSuccess: (t) => {
          showToast('success', id ? DEVICE_MESSAGES.templateUpdated : DEVICE_MESSAGES.templateCreated);
          navigate(`/view-device-template/view/${t.id}`);
        },
        onError: (e) => setFailure((isHttpError(e) && detailOf(e.data)) || 'Failed to save'),
      },
    );
  };

  return (
    <Box component="form" onSubmit={handleSubmit} noValidate sx={{ maxWidth: 900 }}>
      <PageHeader title={id ? 'Edit Device Template' : 'Add Device Template'} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
          <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
          <TextField
            select
            label="Type"
            value={type}
            onChange={(e) => {
              const next = e.target.value as DeviceType;
              setType(next);
              if (!id && rows.every((r) => !r.key || (DEFAULT_TELEMETRY[type] ?? []).some((k) => k.key === r.key)))
                setRows(toRows(DEFAULT_TELEMETRY[next] ?? []));
            }}
          >
            {DEVICE_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {DEVICE_TYPE_LABELS[t]}
              </MenuItem>
            ))}
          </TextField>
          <TextField label="Vendor" required value={vendor} onChange={(e) => setVendor(e.target.value)} />
          <TextField label="Model" value={model} onChange={(e) => setModel(e.target.value)} />
        </Box>
        <TextField label="Description" multiline minRows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        <Typography variant="subtitle2">Telemetry keys</Typography>
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
          <Box key={i} sx={{ display: 'grid', gap: 1, gridTemplateColumns: '1fr 1.4fr 0.6fr 0.8fr auto', alignItems: 'center' }}>
            <TextField size="small" label="Key" value={r.key} onChange={(e) => setRow(i, { key: e.target.value })} />
            <TextField size="small" label="Label" value={r.label} onChange={(e) => setRow(i, { label: e.target.value })} />
            <TextField size="small" label="Unit" value={r.unit} onChange={(e) => setRow(i, { unit: e.target.value })} />
            <TextField
              select
              size="small"
              label="Value"
              value={r.valueType}
              onChange={(e) => setRow(i, { valueType: e.target.value as Row['valueType'] })}
            >
              <MenuItem value="number">Number</MenuItem>
              <MenuItem value="boolean">Yes / No</MenuItem>
              <MenuItem value="string">Text</MenuItem>
            </TextField>
            <IconButton aria-label={`Remove key ${r.key}`} onClick={() => setRows(rows.filter((_r, j) => j !== i))}>
              <DeleteOutline />
            </IconButton>
          </Box>
        ))}
        <Box>
          <Button
            size="small"
            startIcon={<AddIcon />}
            onClick={() => setRows([...rows, { key: '', label: '', unit: '', valueType: 'number' }])}
          >
            Add key
          </Button>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          <Button onClick={() => navigate(-1)}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Save
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}

/** /view-device-template/view/{templateId}. */
export function TemplateViewPage() {
  const id = Number(useParams().templateId);
  const template = useTemplate(id);
  const perms = permissionsOf(useUser());
  if (template.isLoading) return <PageLoader />;
  const t = template.data;
  if (!t) return <EmptyState title="Template not found" />;
  return (
    <Box sx={{ maxWidth: 900 }}>
      <PageHeader
        title={t.name}
        subtitle={`${DEVICE_TYPE_LABELS[t.type]} · ${t.vendor}${t.model ? ` ${t.model}` : ''} · used by ${countOf(t.deviceCount, 'device')} · updated ${formatDateTime(t.updatedAt)}`}
        actions={
          perms.has('change_device') ? (
            <Button component={Link} to={`/view-device-template/edit/${t.id}`}>
              Edit
            </Button>
          ) : null
        }
      />
      <Box sx={{ display: 'grid', gap: 2 }}>
        {t.description ? <Typography>{t.description}</Typography> : null}
        <Section title="Telemetry keys">
          {t.telemetry.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No keys: devices show their type's default keys.
            </Typography>
          ) : (
            <List dense disablePadding>
              {t.telemetry.map((k) => (
                <ListItem key={k.key} disableGutters>
                  <ListItemText primary={`${k.label}${k.unit ? ` (${k.unit})` : ''}`} secondary={`${k.key} · ${k.valueType}`} />
                </ListItem>
              ))}
            </List>
          )}
        </Section>
      </Box>
    </Box>
  );
}
