import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useSaveStorage, useStorage } from './api.ts';

const GB = 1024 ** 3;

/** /storages/create and /storages/{id}/edit. */
export function StorageFormPage() {
  const id = Number(useParams().id ?? 0);
  const existing = useStorage(id);
  const save = useSaveStorage(id || null);
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', path: '', retentionDays: 30, maxGb: '', isDefault: false });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const s = existing.data;
    if (s)
      setForm({
        name: s.name,
        path: s.path,
        retentionDays: s.retentionDays,
        maxGb: s.maxBytes ? String(+(s.maxBytes / GB).toFixed(2)) : '',
        isDefault: s.isDefault,
      });
  }, [existing.data]);
  const submit = async () => {
    setError(null);
    try {
      await save.mutateAsync({
        name: form.name,
        path: form.path,
        retentionDays: form.retentionDays,
        maxBytes: form.maxGb ? Math.round(Number(form.maxGb) * GB) : null,
        isDefault: form.isDefault,
      });
      toast.success(id ? 'Storage updated successfully' : 'Storage created successfully');
      navigate('/storages');
    } catch (e) {
      setError(isHttpError(e) ? (detailOf(e.data) ?? e.message) : 'Failed to save');
    }
  };
  return (
    <Box>
      <PageHeader title={id ? 'Edit storage' : 'Create storage'} />
      <Paper sx={{ p: 2, display: 'grid', gap: 2, maxWidth: 560 }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <TextField label="Name" required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        <TextField
          label="Folder"
          required
          value={form.path}
          onChange={(e) => setForm({ ...form, path: e.target.value })}
          helperText="A folder under the video data directory (mount another disk there). Lower-case letters, digits, - and _."
        />
        <TextField
          type="number"
          label="Keep footage (days)"
          value={form.retentionDays}
          onChange={(e) => setForm({ ...form, retentionDays: Number(e.target.value) })}
        />
        <TextField
          type="number"
          label="Size limit (GiB, empty for none)"
          value={form.maxGb}
          onChange={(e) => setForm({ ...form, maxGb: e.target.value })}
        />
        <FormControlLabel
          control={<Switch checked={form.isDefault} onChange={(e) => setForm({ ...form, isDefault: e.target.checked })} />}
          label="Default for new cameras"
        />
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button variant="contained" onClick={() => void submit()} disabled={save.isPending}>
            Save
          </Button>
          <Button onClick={() => navigate('/storages')}>Cancel</Button>
        </Box>
      </Paper>
    </Box>
  );
}
