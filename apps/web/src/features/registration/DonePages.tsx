import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { REGISTRATION_MESSAGES } from '@sitewatch/contracts/registration';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { registrationApi } from './api.ts';

/** /register/request-done: the request is sent; the e-mail confirmation comes next. */
export function RequestDonePage() {
  return (
    <Card sx={{ maxWidth: 560, mx: 'auto' }}>
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="h5" component="h1">
          Request sent
        </Typography>
        <Alert severity="success">{REGISTRATION_MESSAGES.requested}</Alert>
        <Typography variant="body2" color="text.secondary">
          After you confirm, an administrator reviews your request. You can sign in once it is approved.
        </Typography>
        <Button component={Link} to="/auth/login/">
          Back to sign in
        </Button>
      </CardContent>
    </Card>
  );
}

/** /email-done?token=…: confirms the e-mail address of a registration request. */
export function EmailDonePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<{ kind: 'busy' | 'done' | 'failed'; message: string }>({ kind: 'busy', message: '' });
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setState({ kind: 'failed', message: REGISTRATION_MESSAGES.invalidLink });
      return;
    }
    registrationApi
      .confirm(token)
      .then((r) => setState({ kind: 'done', message: r.message }))
      .catch((e) => setState({ kind: 'failed', message: (isHttpError(e) && detailOf(e.data)) || REGISTRATION_MESSAGES.invalidLink }));
  }, [token]);
  return (
    <Card sx={{ maxWidth: 560, mx: 'auto' }}>
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="h5" component="h1">
          E-mail confirmation
        </Typography>
        {state.kind === 'busy' ? <CircularProgress aria-label="Confirming" /> : null}
        {state.kind === 'done' ? <Alert severity="success">{state.message}</Alert> : null}
        {state.kind === 'failed' ? <Alert severity="error">{state.message}</Alert> : null}
        <Button component={Link} to="/auth/login/">
          Back to sign in
        </Button>
      </CardContent>
    </Card>
  );
}
