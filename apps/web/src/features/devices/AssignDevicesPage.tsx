import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ALLOWED_PARENT_TYPES, DEVICE_MESSAGES, DEVICE_TYPE_LABELS, type DeviceType } from '@sitewatch/contracts/devices';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { useAssetAlias } from '../sites/alias.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { fetchCompact, useAssignDevices } from './api.ts';
import { deviceKeys } from './keys.ts';

/** /devices/assign: inventory devices go to a site, under a parent device there when their type needs one. */
export function AssignDevicesPage() {
  const alias = useAssetAlias();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [ids, setIds] = useState<number[]>(() =>
    (search.get('ids') ?? '')
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
  );
  const devices = useQuery({
    queryKey: deviceKeys.compact({ ids }),
    enabled: ids.length > 0,
    queryFn: () => fetchCompact({ ids: ids.join(','), includeSite: true, limit: 500 }),
  });
  const [adding, setAdding] = useState<Option | null>(null);
  const [site, setSite] = useState<Option | null>(null);
  const [parent, setParent] = useState<Option | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const assign = useAssignDevices();
  const types = [...new Set((devices.data?.contents ?? []).map((d) => d.type))] as DeviceType[];
  const parentTypes = [...new Set(types.flatMap((t) => ALLOWED_PARENT_TYPES[t]))].filter((p) =>
    types.every((t) => ALLOWED_PARENT_TYPES[t].length === 0 || ALLOWED_PARENT_TYPES[t].includes(p)),
  );

  const handleAssign = () => {
    setFailure(null);
    assign.mutate(
      { deviceIds: ids, assetId: site?.id ?? null, parentId: parent?.id ?? null },
      {
        onSuccess: (r) => {
          showToast('success', `${r.updated} device${r.updated === 1 ? '' : 's'} assigned`);
          navigate(site ? `/assets/view/${site.id}` : '/device-inventory');
        },
        onError: (e) => setFailure((isHttpError(e) && detailOf(e.data)) || DEVICE_MESSAGES.updateFailed),
      },
    );
  };

  return (
    <Box sx={{ maxWidth: 860 }}>
      <PageHeader title="Assign Devices" subtitle={`Place inventory devices at a ${alias.toLowerCase()}`} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2 }}>
        <Typography variant="subtitle2">Devices</Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="assign-devices">
          {(devices.data?.contents ?? []).map((d) => (
            <Chip
              key={d.id}
              label={`${d.label} · ${DEVICE_TYPE_LABELS[d.type]}${d.site ? ` · ${d.site.name}` : ''}`}
              onDelete={() => setIds(ids.filter((x) => x !== d.id))}
            />
          ))}
          {ids.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              Choose devices from the inventory below.
            </Typography>
          ) : null}
        </Box>
        <DevicePicker
          label="Add an inventory device"
          value={adding}
          assetId={null}
          onChange={(v) => {
            if (v && !ids.includes(v.id)) setIds([...ids, v.id]);
            setAdding(null);
          }}
        />
        <SitePicker
          label={alias}
          value={site}
          onChange={(v) => {
            setSite(v);
            setParent(null);
          }}
        />
        {site && parentTypes.length ? (
          <DevicePicker
            label={`Parent at this ${alias.toLowerCase()} (${parentTypes.map((t) => DEVICE_TYPE_LABELS[t]).join(' or ')})`}
            value={parent}
            onChange={setParent}
            types={parentTypes}
            assetId={site.id}
          />
        ) : null}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
          <Button onClick={() => navigate(-1)}>Cancel</Button>
          <Button variant="contained" disabled={ids.length === 0 || assign.isPending} onClick={handleAssign} data-testid="assign-submit">
            {site ? `Assign to ${site.name}` : 'Send back to inventory'}
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
