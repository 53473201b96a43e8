import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useChangePassword } from './api.ts';
import { checkPasswords, PASSWORD_MAX, type PasswordErrors } from './validation.ts';

/** /account/change-password/: POST /api/auth/change-password/ {oldPassword, newPassword, confirmPassword}. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const set = (key: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: event.target.value }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = checkPasswords(values, t);
    setErrors(next);
    if (Object.keys(next).length) return;
    setServerError(null);
    change.mutate(values, {
      onSuccess: (result) => {
        toast.success(result?.message || t('messages.successfullyUpdated'));
        setValues({ oldPassword: '', newPassword: '', confirmPassword: '' });
      },
      onError: (error) => setServerError((isHttpError(error) && detailOf(error.data)) || t('errors.loadFailed')),
    });
  };

  const field = (key: keyof typeof values, label: string, autoComplete: string, testId: string) => (
    <TextField
      label={label}
      type="password"
      value={values[key]}
      onChange={set(key)}
      error={Boolean(errors[key])}
      helperText={errors[key] ?? (key === 'newPassword' ? t('password.policy') : undefined)}
      autoComplete={autoComplete}
      required
      slotProps={{ htmlInput: { maxLength: PASSWORD_MAX, 'data-testid': testId } }}
    />
  );

  return (
    <Box sx={{ maxWidth: 520 }} data-testid="change-password-page">
      <PageHeader title={t('password.title')} />
      <Card>
        <CardContent>
          <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit} aria-label={t('password.title')}>
            {serverError ? (
              <Alert severity="error" role="alert">
                {serverError}
              </Alert>
            ) : null}
            {field('oldPassword', t('password.old'), 'current-password', 'password-old')}
            {field('newPassword', t('password.new'), 'new-password', 'password-new')}
            {field('confirmPassword', t('password.confirm'), 'new-password', 'password-confirm')}
            <Box>
              <Button type="submit" variant="contained" disabled={change.isPending} data-testid="password-submit">
                {change.isPending ? t('app.saving') : t('password.submit')}
              </Button>
            </Box>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
