import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { registerSchema } from '@sitewatch/contracts/registration';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { svgDataUrl } from '../../lib/svg.ts';
import { registrationApi } from './api.ts';

type Field = 'firstname' | 'lastname' | 'username' | 'email' | 'mobile' | 'password' | 'confirm' | 'captcha';

/** /register: asks for an account; an admin approves it after the e-mail address is confirmed. */
export function RegisterPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({
    firstname: '',
    lastname: '',
    username: '',
    email: '',
    mobile: '',
    password: '',
    confirm: '',
    captcha: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [captcha, setCaptcha] = useState<{ id: string; src: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const loadCaptcha = useCallback(async () => {
    setCaptcha(null);
    setValues((v) => ({ ...v, captcha: '' }));
    try {
      const next = await registrationApi.captcha();
      setCaptcha({ id: next.captchaId, src: svgDataUrl(next.image) });
    } catch {
      setFailure('Unable to generate Captcha');
    }
  }, []);
  useEffect(() => {
    void loadCaptcha();
  }, [loadCaptcha]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = registerSchema.safeParse({
      firstname: values.firstname,
      lastname: values.lastname,
      username: values.username,
      email: values.email.trim(),
      mobile: values.mobile.trim() || null,
      password: values.password,
      captchaId: captcha?.id ?? '',
      captcha: values.captcha,
    });
    const next: Partial<Record<Field, string>> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0]) as Field] ??= issue.message;
    if (values.password !== values.confirm) next.confirm = 'The passwords do not match';
    setErrors(next);
    if (!parsed.success || Object.keys(next).length) return;
    setBusy(true);
    try {
      await registrationApi.register(parsed.data);
      navigate('/register/request-done');
    } catch (error) {
      setFailure((isHttpError(error) && detailOf(error.data)) || 'Error Occurred while Creating User');
      void loadCaptcha();
    } finally {
      setBusy(false);
    }
  };

  const field = (key: Field, label: string, extra: object = {}) => (
    <TextField
      label={label}
      value={values[key]}
      onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
      error={Boolean(errors[key])}
      helperText={errors[key]}
      slotProps={{ htmlInput: { 'data-testid': `register-${key}` } }}
      {...extra}
    />
  );

  return (
    <Card sx={{ maxWidth: 640, mx: 'auto' }}>
      <CardContent component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="h5" component="h1">
          Request an account
        </Typography>
        {failure ? (
          <Alert severity="error" data-testid="register-error">
            {failure}
          </Alert>
        ) : null}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
          {field('firstname', 'First name', { required: true })}
          {field('lastname', 'Last name', { required: true })}
          {field('username', 'Username', { required: true, autoComplete: 'username' })}
          {field('email', 'Work e-mail', { required: true, type: 'email', autoComplete: 'email' })}
          {field('mobile', 'Mobile number', { inputMode: 'numeric', placeholder: '10 digits' })}
          <span />
          {field('password', 'Password', { required: true, type: 'password', autoComplete: 'new-password' })}
          {field('confirm', 'Confirm password', { required: true, type: 'password', autoComplete: 'new-password' })}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box sx={{ bgcolor: '#f4f6f8', borderRadius: 1, height: 56, width: 180, display: 'grid', placeItems: 'center' }}>
            {captcha ? <img src={captcha.src} alt="Captcha" data-testid="captcha-image" height={50} /> : null}
          </Box>
          <IconButton aria-label="New captcha" onClick={() => void loadCaptcha()}>
            <RefreshIcon />
          </IconButton>
          {field('captcha', 'Captcha', { required: true, autoComplete: 'off', sx: { flex: 1 } })}
        </Box>
        <Button type="submit" variant="contained" disabled={busy || !captcha} data-testid="register-submit">
          Send request
        </Button>
        <Typography variant="body2">
          Already have an account? <Link to="/auth/login/">Sign in</Link>
        </Typography>
      </CardContent>
    </Card>
  );
}
