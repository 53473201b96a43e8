import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { customerSettingsSchema } from '@sitewatch/contracts/tenant-settings';
import { useEffect, useState } from 'react';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { useCustomerSettings, useUpdateCustomerSettings } from '../tenant-settings/api.ts';

const domainsSchema = customerSettingsSchema.shape.registrationEmailDomains.unwrap();
const retentionSchema = customerSettingsSchema.shape.activityLogRetentionDays.unwrap();

/** Customer admins: which e-mail domains may register, and how long the activity log is kept. */
export function PeopleSettingsPanel() {
  const settings = useCustomerSettings();
  const update = useUpdateCustomerSettings();
  const [domains, setDomains] = useState('');
  const [retention, setRetention] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!settings.data) return;
    setDomains(settings.data.registrationEmailDomains.join(', '));
    setRetention(String(settings.data.activityLogRetentionDays));
  }, [settings.data]);

  const save = () => {
    const parsedDomains = domainsSchema.safeParse(
      domains
        .split(/[\s,]+/)
        .map((d) => d.trim())
        .filter(Boolean),
    );
    if (!parsedDomains.success) return setError(parsedDomains.error.issues[0]?.message ?? 'Check the domains');
    const parsedRetention = retentionSchema.safeParse(Number(retention));
    if (!parsedRetention.success) return setError('Keep the activity log between 30 and 3650 days');
    setError(null);
    update.mutate(
      { registrationEmailDomains: parsedDomains.data, activityLogRetentionDays: parsedRetention.data },
      {
        onSuccess: () => showToast('success', 'Settings updated successfully'),
        onError: (e) => setError((isHttpError(e) && detailOf(e.data)) || 'Failed to update Settings'),
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2, mb: 2 }}>
      <Typography variant="h6" component="h2">
        Registration and activity log settings
      </Typography>
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '2fr 1fr' } }}>
        <TextField
          label="E-mail domains allowed to register"
          value={domains}
          onChange={(e) => setDomains(e.target.value)}
          helperText="Comma-separated, e.g. example.com; empty lets any domain ask"
        />
        <TextField
          label="Keep the activity log (days)"
          value={retention}
          onChange={(e) => setRetention(e.target.value.replace(/\D/g, ''))}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="outlined" onClick={save} disabled={update.isPending || !settings.data}>
          Save settings
        </Button>
      </Box>
    </Paper>
  );
}
