import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { User } from '@sitewatch/contracts/auth';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QrCode } from '../../components/QrCode.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { type TotpSetup, useDisableTotp, useEnableTotp, useTotpSetup } from './api.ts';
import { TOTP_CODE } from './validation.ts';

type Mode = 'idle' | 'enabling' | 'disabling';

const messageOf = (error: unknown, fallback: string) => (isHttpError(error) && detailOf(error.data)) || fallback;

/** Two-factor authentication with an authenticator app (TOTP): set up, confirm with a code, or turn off. */
export function TwoFactorSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('idle');
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const start = useTotpSetup();
  const enable = useEnableTotp();
  const disable = useDisableTotp();
  const busy = start.isPending || enable.isPending || disable.isPending;

  const reset = () => {
    setMode('idle');
    setSetup(null);
    setCode('');
    setCodeError(undefined);
    setError(null);
  };

  const handleStart = () => {
    setError(null);
    start.mutate(undefined, {
      onSuccess: (result) => {
        setSetup(result);
        setMode('enabling');
      },
      onError: (failure) => setError(messageOf(failure, t('errors.loadFailed'))),
    });
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!TOTP_CODE.test(code)) {
      setCodeError(t('profile.codeInvalid'));
      return;
    }
    setCodeError(undefined);
    setError(null);
    const action = mode === 'enabling' ? enable : disable;
    action.mutate(code, {
      onSuccess: () => {
        toast.success(mode === 'enabling' ? t('profile.enabled') : t('profile.disabled'));
        reset();
      },
      onError: (failure) => {
        setError(messageOf(failure, t('errors.loadFailed')));
        setCode('');
      },
    });
  };

  return (
    <Card data-testid="two-factor-section">
      <CardContent>
        <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
          {t('profile.twoFactor')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="two-factor-status">
          {user.mfaEnabled ? t('profile.twoFactorOn') : t('profile.twoFactorOff')}
        </Typography>
        {error ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        {mode === 'idle' ? (
          user.mfaEnabled ? (
            <Button variant="outlined" color="error" onClick={() => setMode('disabling')} data-testid="totp-disable-start">
              {t('profile.disable')}
            </Button>
          ) : (
            <Button variant="contained" onClick={handleStart} disabled={busy} data-testid="totp-enable-start">
              {t('profile.enable')}
            </Button>
          )
        ) : (
          <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2} sx={{ maxWidth: 520 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {mode === 'enabling' ? t('profile.enableTitle') : t('profile.disableTitle')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {mode === 'enabling' ? t('profile.enableSteps') : t('profile.disablePrompt')}
            </Typography>
            {mode === 'enabling' && setup ? (
              <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
                <QrCode value={setup.otpauthUrl} label={t('login.mfaQr')} />
                <Box sx={{ flex: 1, minWidth: 200 }}>
                  <Typography variant="caption" color="text.secondary" component="p">
                    {t('login.mfaSecret')}
                  </Typography>
                  <Typography data-testid="totp-secret" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', userSelect: 'all', mb: 1 }}>
                    {setup.secret}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="p">
                    {t('login.mfaOtpauth')}
                  </Typography>
                  <Link href={setup.otpauthUrl} sx={{ wordBreak: 'break-all', fontSize: '0.8rem' }}>
                    {setup.otpauthUrl}
                  </Link>
                </Box>
              </Box>
            ) : null}
            <TextField
              label={t('profile.code')}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              error={Boolean(codeError)}
              helperText={codeError}
              autoComplete="one-time-code"
              autoFocus
              required
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6, 'data-testid': 'totp-code' } }}
            />
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button
                type="submit"
                variant="contained"
                color={mode === 'disabling' ? 'error' : 'primary'}
                disabled={busy}
                data-testid="totp-confirm"
              >
                {mode === 'enabling' ? t('profile.enable') : t('profile.disable')}
              </Button>
              <Button onClick={reset} disabled={busy}>
                {t('app.cancel')}
              </Button>
            </Box>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
