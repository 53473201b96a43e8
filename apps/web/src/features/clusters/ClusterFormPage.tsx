import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { CLUSTER_MESSAGES, CLUSTER_PERMISSIONS, clusterInputSchema } from '@sitewatch/contracts/clusters';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { SiteMultiPicker, type SiteOption } from '../users/SiteMultiPicker.tsx';
import { useCluster, useSaveCluster } from './api.ts';
import { type LeadOption, LeadPicker } from './LeadPicker.tsx';

interface FormState {
  name: string;
  description: string;
  cityLead: LeadOption | null;
  areaHead: LeadOption | null;
  regionalHead: LeadOption | null;
  sites: SiteOption[];
}

const EMPTY: FormState = { name: '', description: '', cityLead: null, areaHead: null, regionalHead: null, sites: [] };

/** /cluster-view/create and /cluster-view/{id}/edit. */
export function ClusterFormPage() {
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const permissions = permissionsOf(useUser());
  const allowed = permissions.has(id === null ? CLUSTER_PERMISSIONS.add : CLUSTER_PERMISSIONS.change);
  const cluster = useCluster(allowed && Number.isInteger(id) ? id : null);
  const save = useSaveCluster(id);
  const navigate = useNavigate();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const c = cluster.data;
    if (!c) return;
    const lead = (p: typeof c.cityLead) => (p ? { id: p.id, name: p.name } : null);
    setForm({
      name: c.name,
      description: c.description ?? '',
      cityLead: lead(c.cityLead),
      areaHead: lead(c.areaHead),
      regionalHead: lead(c.regionalHead),
      sites: c.sites,
    });
  }, [cluster.data]);

  const denied = useDenied(allowed);
  if (denied) return denied;
  if (id !== null && cluster.isLoading) return <PageLoader />;
  if (id !== null && (cluster.isError || !cluster.data)) {
    return (
      <EmptyState
        title="Cluster not found"
        description="This cluster does not exist or was removed."
        action={<Link to="/cluster-view">Back to clusters</Link>}
      />
    );
  }
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = clusterInputSchema.safeParse({
      name: form.name,
      description: form.description.trim() || null,
      cityLeadId: form.cityLead?.id ?? null,
      areaHeadId: form.areaHead?.id ?? null,
      regionalHeadId: form.regionalHead?.id ?? null,
      assetIds: form.sites.map((s) => s.id),
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        showToast('success', id === null ? CLUSTER_MESSAGES.created : CLUSTER_MESSAGES.updated);
        navigate('/cluster-view');
      },
      onError: (error) => {
        const detail = isHttpError(error) ? detailOf(error.data) : null;
        // "field: message" answers name the field they belong to.
        const match = detail ? /^(\w+): (.+)$/.exec(detail) : null;
        if (match?.[1] && match[2]) setErrors({ [match[1]]: match[2] });
        else setFailure(detail || 'Failed to save');
      },
    });
  };

  return (
    <Box component="form" onSubmit={handleSubmit} noValidate sx={{ maxWidth: 760 }}>
      <PageHeader title={id === null ? 'Add cluster' : 'Edit cluster'} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {failure}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
        <TextField
          label="Name"
          required
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name}
          slotProps={{ htmlInput: { 'data-testid': 'cluster-name' } }}
        />
        <TextField
          label="Description"
          multiline
          minRows={2}
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
          error={Boolean(errors.description)}
          helperText={errors.description}
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr 1fr' } }}>
          <LeadPicker
            leadRole="citylead"
            label="City lead"
            value={form.cityLead}
            onChange={(v) => set('cityLead', v)}
            error={errors.cityLeadId}
            testId="cluster-city-lead"
          />
          <LeadPicker
            leadRole="areahead"
            label="Area head"
            value={form.areaHead}
            onChange={(v) => set('areaHead', v)}
            error={errors.areaHeadId}
            testId="cluster-area-head"
          />
          <LeadPicker
            leadRole="regionalhead"
            label="Regional head"
            value={form.regionalHead}
            onChange={(v) => set('regionalHead', v)}
            error={errors.regionalHeadId}
            testId="cluster-regional-head"
          />
        </Box>
        <SiteMultiPicker label="Sites" value={form.sites} onChange={(v) => set('sites', v)} />
        {errors.assetIds ? <Alert severity="error">{errors.assetIds}</Alert> : null}
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          <Button component={Link} to="/cluster-view">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="cluster-save">
            {id === null ? 'Create cluster' : 'Save'}
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
