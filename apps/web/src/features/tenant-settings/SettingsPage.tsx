import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ATTENDANCE_TRUST_NOTE } from '@sitewatch/contracts/attendance';
import { COMMON_MESSAGES } from '@sitewatch/contracts/messages';
import { isCustomerAdmin, ROLE_LABELS, ROLES, type Role } from '@sitewatch/contracts/roles';
import type { CustomerSettings } from '@sitewatch/contracts/tenant-settings';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SignInPrompt } from '../../components/SignInPrompt.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { SystemAlertsPanel } from '../admin/SystemAlertsPanel.tsx';
import { useCustomerSettings, useUpdateCustomerSettings } from './api.ts';
import { type EditableSettings, editableOf, settingsPatch, treeNavigationIssues, validateSettings } from './settings-form.ts';
import { TreeNavigationSection } from './TreeNavigationSection.tsx';

/** /settings (customer admin; no login check in SPEC 2.1): a partial update of the customer settings. */
export function SettingsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const settings = useCustomerSettings();
  const admin = Boolean(user && isCustomerAdmin(user.userRole));
  let body: ReactNode;
  if (!user) body = <SignInPrompt text={t('settings.signInPrompt')} />;
  else if (!admin)
    body = <EmptyState title={t('errors.accessDeniedTitle')} description={t('settings.accessDenied')} data-testid="settings-denied" />;
  else if (settings.isPending)
    body = (
      <Card>
        <CardContent>
          <Skeleton height={56} />
          <Skeleton height={56} />
        </CardContent>
      </Card>
    );
  else if (settings.isError) body = <ErrorState onRetry={() => void settings.refetch()} />;
  else
    body = (
      <Stack spacing={3}>
        <SettingsForm settings={settings.data} />
        <Box component="section" aria-labelledby="settings-system-alerts">
          <Typography variant="h2" component="h2" id="settings-system-alerts" sx={{ mb: 1 }}>
            {t('admin.alerts')}
          </Typography>
          <SystemAlertsPanel />
        </Box>
      </Stack>
    );
  return (
    <Box sx={{ maxWidth: 880 }} data-testid="settings-page">
      <PageHeader title={t('settings.title')} />
      {body}
    </Box>
  );
}

function SettingsForm({ settings }: { settings: CustomerSettings }) {
  const { t } = useTranslation();
  const update = useUpdateCustomerSettings();
  const initial = useMemo(() => editableOf(settings), [settings]);
  const [values, setValues] = useState<EditableSettings>(initial);
  const [serverError, setServerError] = useState<string | null>(null);
  const errors = validateSettings(values, (key, options) => t(key, { ...options }));
  const navigationIssues = useMemo(() => treeNavigationIssues(values.treeNavigation), [values.treeNavigation]);
  const dirty = JSON.stringify(values) !== JSON.stringify(initial);
  const set = <K extends keyof EditableSettings>(key: K, value: EditableSettings[K]) => setValues((v) => ({ ...v, [key]: value }));
  const [submitted, setSubmitted] = useState(false);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length || Object.keys(navigationIssues).length) return;
    setServerError(null);
    // The whole settings object goes back with the edits: the server's partial-update schema fills omitted keys
    // with their defaults (see the report), which would otherwise reset e.g. the menu.
    update.mutate(
      { ...settings, ...settingsPatch(values) },
      {
        onSuccess: (saved) => {
          toast.success(COMMON_MESSAGES.settingsUpdated);
          setValues(editableOf(saved));
          setSubmitted(false);
        },
        onError: (error) => {
          toast.error(COMMON_MESSAGES.failedToUpdateSettings);
          setServerError((isHttpError(error) && error.status === 400 && detailOf(error.data)) || null);
        },
      },
    );
  };
  const show = (key: keyof typeof errors) => (submitted ? errors[key] : undefined);

  const toggleRole = (role: Role, on: boolean) =>
    set('mfaRequiredRoles', on ? [...values.mfaRequiredRoles, role] : values.mfaRequiredRoles.filter((r) => r !== role));

  return (
    <Stack component="form" noValidate onSubmit={handleSubmit} spacing={3} data-testid="settings-form">
      {serverError ? (
        <Alert severity="error" role="alert">
          {serverError}
        </Alert>
      ) : null}
      <Section title={t('settings.helpline')}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <TextField
            label={t('settings.helplinePhone')}
            value={values.phone}
            onChange={(e) => set('phone', e.target.value)}
            error={Boolean(show('phone'))}
            helperText={show('phone')}
            slotProps={{ htmlInput: { maxLength: 30, 'data-testid': 'settings-phone' } }}
          />
          <TextField
            label={t('settings.helplineEmail')}
            type="email"
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
            error={Boolean(show('email'))}
            helperText={show('email')}
            slotProps={{ htmlInput: { maxLength: 254, 'data-testid': 'settings-email' } }}
          />
        </Box>
      </Section>
      <Section title={t('settings.aliases')}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <TextField
            label={t('settings.assetAlias')}
            value={values.assetAlias}
            onChange={(e) => set('assetAlias', e.target.value)}
            error={Boolean(show('assetAlias'))}
            helperText={show('assetAlias')}
            required
            slotProps={{ htmlInput: { maxLength: 40, 'data-testid': 'settings-asset-alias' } }}
          />
          <TextField
            label={t('settings.ticketAlias')}
            value={values.ticketAlias}
            onChange={(e) => set('ticketAlias', e.target.value)}
            error={Boolean(show('ticketAlias'))}
            helperText={show('ticketAlias')}
            required
            slotProps={{ htmlInput: { maxLength: 40, 'data-testid': 'settings-ticket-alias' } }}
          />
        </Box>
      </Section>
      <Section title="Attendance">
        <TextField
          label="Check-in geofence (metres)"
          value={values.geofenceMeters ?? ''}
          onChange={(e) => set('geofenceMeters', e.target.value)}
          error={Boolean(show('geofence'))}
          helperText={show('geofence') ?? 'A check-in is accepted only this close to the site’s coordinates.'}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5, 'data-testid': 'settings-geofence' } }}
          sx={{ maxWidth: 320 }}
        />
        <FormControlLabel
          control={<Switch checked={values.snapshotRequired ?? false} onChange={(e) => set('snapshotRequired', e.target.checked)} />}
          label="Check-in needs a camera snapshot of the site"
          data-testid="settings-snapshot-required"
          sx={{ display: 'block', mt: 1 }}
        />
        <Alert severity="info" sx={{ mt: 1 }} data-testid="settings-geofence-note">
          {ATTENDANCE_TRUST_NOTE}
        </Alert>
      </Section>
      <Section title={t('settings.display')}>
        <FormGroup>
          <FormControlLabel
            control={<Switch checked={values.showSystemAlert} onChange={(e) => set('showSystemAlert', e.target.checked)} />}
            label={t('settings.showSystemAlert')}
            data-testid="settings-show-system-alert"
          />
          <FormControlLabel
            control={<Switch checked={values.treeAccess} onChange={(e) => set('treeAccess', e.target.checked)} />}
            label={t('settings.treeAccess')}
            data-testid="settings-tree-access"
          />
          <FormControlLabel
            control={<Switch checked={values.livePopup} onChange={(e) => set('livePopup', e.target.checked)} />}
            label={t('settings.livePopup')}
            data-testid="settings-live-popup"
          />
        </FormGroup>
      </Section>
      <Section title={t('settings.security')}>
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" sx={{ fontWeight: 600, mb: 1 }}>
            {t('settings.mfaRequiredRoles')}
          </Typography>
          <FormGroup
            sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' } }}
            data-testid="settings-mfa-roles"
          >
            {ROLES.map((role) => (
              <FormControlLabel
                key={role}
                control={<Checkbox checked={values.mfaRequiredRoles.includes(role)} onChange={(e) => toggleRole(role, e.target.checked)} />}
                label={ROLE_LABELS[role]}
              />
            ))}
          </FormGroup>
          <FormHelperText>{t('settings.mfaRequiredHint')}</FormHelperText>
        </Box>
      </Section>
      <Section title="Tree navigation">
        <TreeNavigationSection
          entries={values.treeNavigation}
          onChange={(entries) => set('treeNavigation', entries)}
          issues={navigationIssues}
          showIssues={submitted}
          siteAlias={values.assetAlias.trim() || settings.aliases.asset}
        />
      </Section>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" disabled={update.isPending || !dirty} data-testid="settings-save">
          {update.isPending ? t('app.saving') : t('app.save')}
        </Button>
        <Button onClick={() => setValues(initial)} disabled={!dirty || update.isPending}>
          {t('settings.reset')}
        </Button>
        {dirty ? (
          <Typography variant="body2" color="text.secondary" role="status">
            {t('settings.unsaved')}
          </Typography>
        ) : null}
      </Box>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
