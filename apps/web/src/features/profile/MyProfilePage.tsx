import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { User } from '@sitewatch/contracts/auth';
import { COMMON_MESSAGES } from '@sitewatch/contracts/messages';
import { ROLE_LABELS } from '@sitewatch/contracts/roles';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { isMobileNumber, mobileHint } from '../../lib/mobile.ts';
import { toast } from '../../lib/toasts.ts';
import { useCustomerSettings } from '../tenant-settings/api.ts';
import { useProfile, useUpdateProfile } from './api.ts';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import { EMAIL } from './validation.ts';

/** /myprofile: personal details (GET/PUT /api/auth/profile/) and two-factor authentication. */
export function MyProfilePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  return (
    <Box data-testid="my-profile-page" sx={{ maxWidth: 880 }}>
      <PageHeader title={t('profile.title')} />
      {profile.isPending ? (
        <Card>
          <CardContent>
            <Skeleton height={56} />
            <Skeleton height={56} />
            <Skeleton height={56} />
          </CardContent>
        </Card>
      ) : profile.isError ? (
        <ErrorState onRetry={() => void profile.refetch()} />
      ) : (
        <Stack spacing={3}>
          <ProfileForm key={profile.data.id} user={profile.data} />
          <TwoFactorSection user={profile.data} />
        </Stack>
      )}
    </Box>
  );
}

interface Errors {
  firstname?: string;
  email?: string;
  mobile?: string;
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const [firstname, setFirstname] = useState(user.firstname);
  const [lastname, setLastname] = useState(user.lastname);
  const [email, setEmail] = useState(user.email);
  const [mobile, setMobile] = useState(user.mobile ?? '');
  const mobileLength = useCustomerSettings().data?.mobileNumberLength;
  const [popup, setPopup] = useState(user.notificationConfig.popup);
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {
      firstname: firstname.trim() ? undefined : t('profile.firstnameRequired'),
      email: EMAIL.test(email.trim()) ? undefined : t('profile.emailInvalid'),
      mobile: !mobile.trim() || isMobileNumber(mobile, mobileLength) ? undefined : mobileHint(mobileLength),
    };
    setErrors(next);
    if (next.firstname || next.email || next.mobile) return;
    setServerError(null);
    update.mutate(
      {
        firstname: firstname.trim(),
        lastname: lastname.trim(),
        email: email.trim(),
        mobile: mobile.trim() || null,
        notificationConfig: { popup },
      },
      {
        onSuccess: () => toast.success(COMMON_MESSAGES.successfullyUpdated),
        onError: (error) => setServerError((isHttpError(error) && detailOf(error.data)) || t('errors.loadFailed')),
      },
    );
  };

  return (
    <Card>
      <CardContent component="form" noValidate onSubmit={handleSubmit} aria-labelledby="profile-details-title" data-testid="profile-form">
        <Typography id="profile-details-title" variant="h2" component="h2" sx={{ mb: 2 }}>
          {t('profile.details')}
        </Typography>
        {serverError ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {serverError}
          </Alert>
        ) : null}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <TextField
            label={t('profile.firstname')}
            value={firstname}
            onChange={(e) => setFirstname(e.target.value)}
            error={Boolean(errors.firstname)}
            helperText={errors.firstname}
            required
            autoComplete="given-name"
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'profile-firstname' } }}
          />
          <TextField
            label={t('profile.lastname')}
            value={lastname}
            onChange={(e) => setLastname(e.target.value)}
            autoComplete="family-name"
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'profile-lastname' } }}
          />
          <TextField
            label={t('profile.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={Boolean(errors.email)}
            helperText={errors.email}
            required
            autoComplete="email"
            slotProps={{ htmlInput: { maxLength: 254, 'data-testid': 'profile-email' } }}
          />
          <TextField
            label={t('profile.mobile')}
            type="tel"
            value={mobile}
            onChange={(e) => setMobile(e.target.value)}
            error={Boolean(errors.mobile)}
            helperText={errors.mobile}
            autoComplete="tel"
            slotProps={{ htmlInput: { maxLength: 16, inputMode: 'tel', 'data-testid': 'profile-mobile' } }}
          />
          <TextField label={t('profile.username')} value={user.username} disabled />
          <Box>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
              {t('profile.roles')}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {user.userRole.map((role) => (
                <Chip key={role} label={ROLE_LABELS[role] ?? role} size="small" />
              ))}
            </Box>
          </Box>
        </Box>
        <FormControlLabel
          sx={{ mt: 2 }}
          control={
            <Switch
              checked={popup}
              onChange={(e) => setPopup(e.target.checked)}
              slotProps={{ input: { 'data-testid': 'profile-popup' } as object }}
            />
          }
          label={t('profile.popup')}
        />
        <Box sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={update.isPending} data-testid="profile-save">
            {update.isPending ? t('app.saving') : t('app.save')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
