import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { newPasswordSchema } from '@sitewatch/contracts/user-admin';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { setPasswordWithToken } from './api.ts';

/** /account/set-password?token=…: the link of a set-password e-mail. */
export function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(password);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid password');
    if (password !== confirm) return setError('The passwords do not match');
    setBusy(true);
    setError(null);
    try {
      await setPasswordWithToken(token, password);
      setDone(true);
    } catch (e) {
      setError((isHttpError(e) && detailOf(e.data)) || 'Failed to set the password');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="main" sx={{ maxWidth: 440, mx: 'auto', mt: { xs: 2, sm: 8 }, px: 2 }}>
      <Card>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            Set your password
          </Typography>
          {!token ? (
            <Alert severity="error">This link is incomplete. Open the link from the e-mail again.</Alert>
          ) : done ? (
            <Stack spacing={2}>
              <Alert severity="success">Your password is set.</Alert>
              <Button variant="contained" component={Link} to="/auth/login/">
                Sign in
              </Button>
            </Stack>
          ) : (
            <Stack component="form" spacing={2} noValidate onSubmit={submit}>
              {error ? <Alert severity="error">{error}</Alert> : null}
              <TextField
                label="New password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                helperText="At least 8 characters, not a common password"
                required
              />
              <TextField
                label="Confirm password"
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                required
              />
              <Button type="submit" variant="contained" disabled={busy}>
                Set password
              </Button>
            </Stack>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
