import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { ROLE_LABELS, ROLES_SEEING_ALL_SITES, type Role } from '@sitewatch/contracts/roles';
import { USER_ADMIN_MESSAGES, USER_PERMISSIONS, userCreateSchema, userInputSchema } from '@sitewatch/contracts/user-admin';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { api } from '../../lib/api.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { AvatarUpload } from './AvatarUpload.tsx';
import { useGrantable, useSaveUser, useUserDetails } from './api.ts';
import { InitialPasswordFields, type PasswordMode } from './InitialPasswordFields.tsx';
import { userKeys } from './keys.ts';
import { useDenied } from './RightsGate.tsx';
import { SiteMultiPicker, type SiteOption } from './SiteMultiPicker.tsx';

interface FormState {
  username: string;
  email: string;
  firstname: string;
  lastname: string;
  mobile: string;
  userRole: Role[];
  groupId: number | '';
  sites: SiteOption[];
  popup: boolean;
  passwordMode: PasswordMode;
  password: string;
}

const EMPTY: FormState = {
  username: '',
  email: '',
  firstname: '',
  lastname: '',
  mobile: '',
  userRole: [],
  groupId: '',
  sites: [],
  popup: true,
  passwordMode: 'email',
  password: '',
};

/** /user/create and /user/{id}: a user's account, role, group, sites and notification settings. */
export function UserFormPage() {
  const params = useParams();
  const id = params.id && params.id !== 'create' ? Number(params.id) : null;
  const me = useUser();
  const permissions = permissionsOf(me);
  const allowed = id === null ? permissions.has(USER_PERMISSIONS.add) : permissions.has(USER_PERMISSIONS.change);
  const details = useUserDetails(id ?? 0, id !== null && allowed);
  const links = useQuery({
    queryKey: userKeys.formAssets(id),
    enabled: id !== null && allowed,
    queryFn: () => api.get('/iotapp/user-assets/', { query: { userId: id ?? 0, limit: 500 }, toast: false }),
  });
  const grantable = useGrantable(allowed);
  const save = useSaveUser(id);
  const navigate = useNavigate();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const u = details.data?.user;
    if (!u) return;
    setForm((f) => ({
      ...f,
      username: u.username,
      email: u.email,
      firstname: u.firstname,
      lastname: u.lastname,
      mobile: u.mobile ?? '',
      userRole: u.userRole,
      groupId: u.groups[0]?.id ?? '',
      popup: u.notificationConfig.popup,
    }));
  }, [details.data]);
  useEffect(() => {
    if (links.data) setForm((f) => ({ ...f, sites: links.data.contents.map((l) => ({ id: l.asset.id, name: l.asset.name })) }));
  }, [links.data]);

  const denied = useDenied(allowed);
  if (denied) return denied;
  if (id !== null && (details.isLoading || links.isLoading)) return <PageLoader />;
  if (id !== null && (details.isError || !details.data)) {
    return (
      <EmptyState
        title="User not found"
        description="This user does not exist or was removed."
        action={<Link to="/users">Back to users</Link>}
      />
    );
  }
  if (details.data && !details.data.can.change) return <Navigate to={`/user-details/${id}`} replace />;

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const seesAll = form.userRole.some((r) => ROLES_SEEING_ALL_SITES.includes(r));
  const roleOptions = grantable.data?.roles ?? [];
  // A group the user already has stays selectable even when the admin could not grant it anew.
  const groupOptions = [...(grantable.data?.groups ?? [])];
  const current = details.data?.user.groups[0];
  if (current && !groupOptions.some((g) => g.id === current.id)) groupOptions.push({ id: current.id, name: current.name });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const input = {
      username: form.username,
      email: form.email.trim(),
      firstname: form.firstname,
      lastname: form.lastname,
      mobile: form.mobile.trim() === '' ? null : form.mobile.trim(),
      userRole: form.userRole,
      groupId: form.groupId === '' ? null : form.groupId,
      assetIds: seesAll ? [] : form.sites.map((s) => s.id),
      notificationConfig: { popup: form.popup },
      ...(id === null && form.passwordMode === 'set' ? { password: form.password } : {}),
    };
    const parsed = id === null ? userCreateSchema.safeParse(input) : userInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    if (id === null && form.passwordMode === 'set' && !form.password) {
      setErrors({ password: 'Password is required' });
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (user) => {
        showToast('success', id === null ? USER_ADMIN_MESSAGES.created : USER_ADMIN_MESSAGES.updated);
        navigate(`/user-details/${user.id}`);
      },
      onError: (error) =>
        setFailure((isHttpError(error) && detailOf(error.data)) || (id === null ? USER_ADMIN_MESSAGES.createFailed : 'Failed to save')),
    });
  };

  const field = (key: 'username' | 'email' | 'firstname' | 'lastname' | 'mobile', label: string, extra: object = {}) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      error={Boolean(errors[key])}
      helperText={errors[key]}
      slotProps={{ htmlInput: { 'data-testid': `user-${key}` } }}
      {...extra}
    />
  );

  return (
    <Box component="form" onSubmit={handleSubmit} noValidate sx={{ maxWidth: 760 }}>
      <PageHeader title={id === null ? 'Add user' : 'Edit user'} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {failure}
        </Alert>
      ) : null}
      {id !== null && details.data ? <AvatarUpload user={details.data.user} /> : null}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
          {field('firstname', 'First name', { required: true })}
          {field('lastname', 'Last name', { required: true })}
          {field('username', 'Username', { required: true, autoComplete: 'off' })}
          {field('email', 'E-mail', { required: true, type: 'email' })}
          {field('mobile', 'Mobile number', { inputMode: 'numeric', placeholder: '10 digits' })}
          <TextField
            select
            label="Group"
            value={form.groupId}
            onChange={(e) => set('groupId', e.target.value === '' ? '' : Number(e.target.value))}
            helperText="Permissions come from the group"
          >
            <MenuItem value="">No group</MenuItem>
            {groupOptions.map((g) => (
              <MenuItem key={g.id} value={g.id}>
                {g.name}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <TextField
          select
          label="Roles"
          required
          value={form.userRole}
          onChange={(e) => set('userRole', (typeof e.target.value === 'string' ? [e.target.value] : e.target.value) as Role[])}
          error={Boolean(errors.userRole)}
          helperText={errors.userRole}
          slotProps={{ select: { multiple: true, renderValue: (v) => (v as Role[]).map((r) => ROLE_LABELS[r]).join(', ') } }}
          data-testid="user-roles"
        >
          {roleOptions.map((r) => (
            <MenuItem key={r} value={r}>
              {ROLE_LABELS[r]}
            </MenuItem>
          ))}
        </TextField>
        {seesAll ? (
          <Alert severity="info">This role sees every site of the customer.</Alert>
        ) : (
          <SiteMultiPicker label="Sites looked after" value={form.sites} onChange={(v) => set('sites', v)} />
        )}
        <FormControlLabel
          control={<Switch checked={form.popup} onChange={(e) => set('popup', e.target.checked)} />}
          label="Live notification popups"
        />
        {id === null ? (
          <InitialPasswordFields
            mode={form.passwordMode}
            password={form.password}
            error={errors.password}
            testIdPrefix="user"
            onModeChange={(mode) => set('passwordMode', mode)}
            onPasswordChange={(password) => set('password', password)}
          />
        ) : null}
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          <Button component={Link} to={id === null ? '/users' : `/user-details/${id}`}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="user-save">
            {id === null ? 'Create user' : 'Save'}
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
