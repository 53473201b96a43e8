import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import {
  ALLOWED_PARENT_TYPES,
  DEVICE_MESSAGES,
  DEVICE_TYPE_LABELS,
  DEVICE_TYPES,
  type DeviceType,
  NO_SPACES_LABEL,
} from '@sitewatch/contracts/devices';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { useAssetAlias } from '../sites/alias.ts';
import { useAsset } from '../sites/api.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useCustomerSettings } from '../tenant-settings/api.ts';
import { useAddToInventory, useDevice, useSaveDevice, useTemplates } from './api.ts';

const META_FIELDS = [
  ['vendor', 'Vendor'],
  ['model', 'Model'],
  ['serialNumber', 'Serial number'],
  ['ipAddress', 'IP address'],
  ['firmware', 'Firmware'],
] as const;

/** /device/create, /devices/{id}/edit and /devices/discover/{id}/edit (which adds the device to the inventory). */
export function DeviceFormPage({ discover = false }: { discover?: boolean }) {
  const alias = useAssetAlias();
  const params = useParams();
  const [search] = useSearchParams();
  const id = params.id ? Number(params.id) : null;
  const navigate = useNavigate();
  const existing = useDevice(id);
  const presetAsset = useAsset(!id && search.get('assetId') ? Number(search.get('assetId')) : null);
  const presetParent = useDevice(!id && search.get('parentId') ? Number(search.get('parentId')) : null);
  const labelRule = useCustomerSettings().data?.deviceLabelRule;
  const save = useSaveDevice(discover ? null : id);
  const addToInventory = useAddToInventory(id ?? 0);
  const [label, setLabel] = useState('');
  const [type, setType] = useState<DeviceType>('ROUTER');
  const [site, setSite] = useState<Option | null>(null);
  const [parent, setParent] = useState<Option | null>(null);
  const [templateId, setTemplateId] = useState<number | ''>('');
  const [meta, setMeta] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const templates = useTemplates({ type, limit: 500, orderBy: 'name' });

  useEffect(() => {
    const d = existing.data;
    if (!d) return;
    setLabel(d.label);
    setType(d.type);
    setSite(d.asset ? { id: d.asset.id, name: d.asset.name } : null);
    setParent(d.parent ? { id: d.parent.id, name: d.parent.name, label: d.parent.label } : null);
    setTemplateId(d.templateId ?? '');
    setMeta(Object.fromEntries(META_FIELDS.map(([k]) => [k, String(d.metadata[k] ?? '')])));
  }, [existing.data]);
  useEffect(() => {
    if (presetAsset.data) setSite({ id: presetAsset.data.id, name: presetAsset.data.name });
  }, [presetAsset.data]);
  useEffect(() => {
    const p = presetParent.data;
    if (!p) return;
    setParent({ id: p.id, name: p.name, label: p.label });
    if (p.asset) setSite({ id: p.asset.id, name: p.asset.name });
  }, [presetParent.data]);

  if (id && existing.isLoading) return <PageLoader />;
  const parentTypes = ALLOWED_PARENT_TYPES[type];
  const labelError = labelRule === 'noSpaces' && label && !NO_SPACES_LABEL.test(label) ? DEVICE_MESSAGES.labelNoSpaces : undefined;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (labelError || !label.trim()) return;
    setFailure(null);
    const metadata = Object.fromEntries(
      [...META_FIELDS, ['snmpCommunity', '']].map(([k]) => [k, meta[k]?.trim() || null]).filter(([, v]) => v !== null),
    );
    const input = {
      label: label.trim(),
      type,
      assetId: parentTypes.length && parent ? null : (site?.id ?? null),
      parentId: parentTypes.length ? (parent?.id ?? null) : null,
      templateId: templateId === '' ? null : templateId,
      metadata,
    };
    const onError = (error: unknown) =>
      setFailure(
        (isHttpError(error) && detailOf(error.data)) || (discover ? DEVICE_MESSAGES.inventoryFailed : DEVICE_MESSAGES.updateFailed),
      );
    if (discover) {
      addToInventory.mutate(input, {
        onSuccess: (d) => {
          showToast('success', DEVICE_MESSAGES.updated);
          navigate(`/devices/${d.id}/view`);
        },
        onError: () => {
          showToast('error', DEVICE_MESSAGES.inventoryFailed);
          setFailure(DEVICE_MESSAGES.inventoryFailed);
        },
      });
      return;
    }
    save.mutate(input, {
      onSuccess: (d) => {
        showToast('success', id ? DEVICE_MESSAGES.updated : DEVICE_MESSAGES.created);
        navigate(`/devices/${d.id}/view`);
      },
      onError,
    });
  };

  const title = discover ? 'Review discovered device' : id ? 'Edit Device' : 'Add Device';
  return (
    <Box component="form" onSubmit={handleSubmit} noValidate sx={{ maxWidth: 760 }}>
      <PageHeader title={title} subtitle={existing.data?.name} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {failure}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2 }}>
        <TextField
          label="Label"
          required
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          error={Boolean(labelError)}
          helperText={labelError ?? 'The device name is built from the site code, the parents and this label'}
          slotProps={{ htmlInput: { 'data-testid': 'device-label' } }}
        />
        <TextField
          select
          label="Type"
          value={type}
          onChange={(e) => {
            setType(e.target.value as DeviceType);
            setParent(null);
            setTemplateId('');
          }}
          slotProps={{ htmlInput: { 'data-testid': 'device-type' } }}
        >
          {DEVICE_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {DEVICE_TYPE_LABELS[t]}
            </MenuItem>
          ))}
        </TextField>
        <SitePicker
          label={`${alias} (empty: inventory)`}
          value={site}
          onChange={(v) => {
            setSite(v);
            setParent(null);
          }}
        />
        {parentTypes.length ? (
          <DevicePicker
            label={`Parent (${parentTypes.map((t) => DEVICE_TYPE_LABELS[t]).join(' or ')})`}
            value={parent}
            onChange={setParent}
            types={parentTypes}
            assetId={site?.id ?? undefined}
          />
        ) : (
          <Alert severity="info">
            A {DEVICE_TYPE_LABELS[type]} is the site's parent device: it hangs directly under the {alias.toLowerCase()}.
          </Alert>
        )}
        <TextField
          select
          label="Template"
          value={templateId}
          onChange={(e) => setTemplateId(e.target.value === '' ? '' : Number(e.target.value))}
        >
          <MenuItem value="">No template</MenuItem>
          {(templates.data?.contents ?? []).map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {t.vendor} · {t.name}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
          {META_FIELDS.map(([key, text]) => (
            <TextField key={key} label={text} value={meta[key] ?? ''} onChange={(e) => setMeta((m) => ({ ...m, [key]: e.target.value }))} />
          ))}
          {/* write-only: the stored community is never sent to the browser; empty keeps it */}
          <TextField
            label="SNMP community"
            type="password"
            autoComplete="new-password"
            value={meta.snmpCommunity ?? ''}
            onChange={(e) => setMeta((m) => ({ ...m, snmpCommunity: e.target.value }))}
            helperText={existing.data?.secrets.includes('snmpCommunity') ? 'set: leave empty to keep it' : 'not set'}
            slotProps={{ htmlInput: { maxLength: 128, 'data-testid': 'device-snmp-community' } }}
          />
        </Box>
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          <Button onClick={() => navigate(-1)}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending || addToInventory.isPending} data-testid="device-save">
            {discover ? 'Add to inventory' : 'Save'}
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}

export const DiscoverEditPage = () => <DeviceFormPage discover />;
