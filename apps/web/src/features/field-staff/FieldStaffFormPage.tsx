import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FieldStaff, fieldStaffCreateSchema, fieldStaffInputSchema } from '@sitewatch/contracts/field-staff';
import { USER_ADMIN_MESSAGES, USER_PERMISSIONS } from '@sitewatch/contracts/user-admin';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { fullName, permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useGrantable } from '../users/api.ts';
import { InitialPasswordFields, type PasswordMode } from '../users/InitialPasswordFields.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { SiteMultiPicker, type SiteOption } from '../users/SiteMultiPicker.tsx';
import { useDeletePerson, usePerson, usePersonSites, useSavePerson } from './api.ts';
import { useDirectory } from './directories.ts';
import { PersonTickets } from './PersonTickets.tsx';

const TEXT_FIELDS = ['firstname', 'lastname', 'username', 'email', 'mobile'] as const;
const PROFILE_FIELDS = ['employeeCode', 'designation', 'area', 'territory', 'joinedOn', 'notes'] as const;
type TextKey = (typeof TEXT_FIELDS)[number];
type ProfileKey = (typeof PROFILE_FIELDS)[number];

interface FormState extends Record<TextKey | ProfileKey, string> {
  groupId: number | '';
  sites: SiteOption[];
  passwordMode: PasswordMode;
  password: string;
}

const EMPTY: FormState = {
  firstname: '',
  lastname: '',
  username: '',
  email: '',
  mobile: '',
  employeeCode: '',
  designation: '',
  area: '',
  territory: '',
  joinedOn: '',
  notes: '',
  groupId: '',
  sites: [],
  passwordMode: 'email',
  password: '',
};

const LABELS: Record<TextKey | ProfileKey, string> = {
  firstname: 'First name',
  lastname: 'Last name',
  username: 'Username',
  email: 'E-mail',
  mobile: 'Mobile number',
  employeeCode: 'Employee code',
  designation: 'Designation',
  area: 'Area',
  territory: 'Territory',
  joinedOn: 'Joined on',
  notes: 'Notes',
};

const stateOf = (p: FieldStaff, sites: SiteOption[]): FormState => ({
  ...EMPTY,
  firstname: p.firstname,
  lastname: p.lastname,
  username: p.username,
  email: p.email,
  mobile: p.mobile ?? '',
  employeeCode: p.fieldProfile.employeeCode ?? '',
  designation: p.fieldProfile.designation ?? '',
  area: p.fieldProfile.area ?? '',
  territory: p.fieldProfile.territory ?? '',
  joinedOn: p.fieldProfile.joinedOn ?? '',
  notes: p.fieldProfile.notes ?? '',
  groupId: p.groups[0]?.id ?? '',
  sites,
});

/** /field-executives/create, /field-executives/edit/{id} (and the store manager and infra admin twins). */
export function FieldStaffFormPage() {
  const directory = useDirectory();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const permissions = permissionsOf(useUser());
  const allowed = id === null ? permissions.has(USER_PERMISSIONS.add) : permissions.has(USER_PERMISSIONS.view);
  const person = usePerson(directory.role, Number.isInteger(id) ? id : null);
  const grantable = useGrantable(allowed && (permissions.has(USER_PERMISSIONS.add) || permissions.has(USER_PERMISSIONS.change)));
  const sites = usePersonSites(id);
  const save = useSavePerson(directory.role, id);
  const remove = useDeletePerson(directory.role);
  const navigate = useNavigate();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = useDeleteConfirmation<{ id: number; name: string }>({
    mutation: {
      isPending: remove.isPending,
      mutate: (v, o) =>
        remove.mutate(v, {
          onSuccess: () => {
            o.onSuccess();
            navigate(directory.base);
          },
        }),
    },
    text: 'This removes the user, their profile and their site assignments. Their tickets stay.',
    successMessage: USER_ADMIN_MESSAGES.deleted,
  });

  useEffect(() => {
    if (person.data && sites.data)
      setForm(
        stateOf(
          person.data,
          sites.data.contents.map((l) => ({ id: l.asset.id, name: l.asset.name })),
        ),
      );
  }, [person.data, sites.data]);

  const denied = useDenied(allowed);
  if (denied) return denied;
  if (id !== null && (person.isLoading || sites.isLoading)) return <PageLoader />;
  if (id !== null && (person.isError || !person.data)) {
    return (
      <EmptyState
        title="Person not found"
        description={`This ${directory.singular} does not exist or was removed.`}
        action={<Link to={directory.base}>Back to {directory.title.toLowerCase()}</Link>}
      />
    );
  }
  const editable = id === null || Boolean(person.data?.can.change);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const groupOptions = [...(grantable.data?.groups ?? [])];
  const current = person.data?.groups[0];
  if (current && !groupOptions.some((g) => g.id === current.id)) groupOptions.push({ id: current.id, name: current.name });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
    const input = {
      username: form.username,
      email: form.email.trim(),
      firstname: form.firstname,
      lastname: form.lastname,
      mobile: orNull(form.mobile),
      groupId: form.groupId === '' ? null : form.groupId,
      assetIds: form.sites.map((s) => s.id),
      notificationConfig: { popup: person.data?.notificationConfig.popup ?? true },
      fieldProfile: Object.fromEntries(PROFILE_FIELDS.map((k) => [k, orNull(form[k])])),
      ...(id === null ? { role: directory.role } : {}),
      ...(id === null && form.passwordMode === 'set' ? { password: form.password } : {}),
    };
    const parsed = id === null ? fieldStaffCreateSchema.safeParse(input) : fieldStaffInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path.at(-1)), i.message])));
      return;
    }
    if (id === null && form.passwordMode === 'set' && !form.password) {
      setErrors({ password: 'Password is required' });
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        showToast('success', id === null ? USER_ADMIN_MESSAGES.created : USER_ADMIN_MESSAGES.updated);
        navigate(directory.base);
      },
      onError: (error) =>
        setFailure((isHttpError(error) && detailOf(error.data)) || (id === null ? USER_ADMIN_MESSAGES.createFailed : 'Failed to save')),
    });
  };

  const field = (key: TextKey | ProfileKey, extra: object = {}) => (
    <TextField
      key={key}
      label={LABELS[key]}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      error={Boolean(errors[key])}
      helperText={errors[key]}
      disabled={!editable}
      slotProps={{ htmlInput: { 'data-testid': `person-${key}` }, inputLabel: key === 'joinedOn' ? { shrink: true } : undefined }}
      {...extra}
    />
  );

  const title = id === null ? `Add ${directory.singular}` : `Edit ${directory.singular}`;
  return (
    <Box sx={{ maxWidth: 860 }}>
      <Box component="form" onSubmit={handleSubmit} noValidate>
        <PageHeader
          title={title}
          actions={
            person.data?.can.delete ? (
              <Button
                color="error"
                onClick={() => confirm.ask({ id: person.data.id, name: fullName(person.data) })}
                data-testid="delete-person"
              >
                Delete
              </Button>
            ) : null
          }
        />
        {confirm.dialog}
        {failure ? (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
            {failure}
          </Alert>
        ) : null}
        {!editable ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            You can view this person but not change them.
          </Alert>
        ) : null}
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
          <Typography variant="subtitle1" component="h2">
            Account
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            {field('firstname', { required: true })}
            {field('lastname', { required: true })}
            {field('username', { required: true, autoComplete: 'off' })}
            {field('email', { required: true, type: 'email' })}
            {field('mobile', { inputMode: 'numeric', placeholder: '10 digits' })}
            <TextField
              select
              label="Group"
              value={form.groupId}
              disabled={!editable}
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
          <SiteMultiPicker label="Sites looked after" value={form.sites} disabled={!editable} onChange={(v) => set('sites', v)} />
          <Typography variant="subtitle1" component="h2">
            Profile
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            {field('employeeCode')}
            {field('designation')}
            {field('area')}
            {field('territory')}
            {field('joinedOn', { type: 'date' })}
          </Box>
          {field('notes', { multiline: true, minRows: 2 })}
          {id === null ? (
            <InitialPasswordFields
              mode={form.passwordMode}
              password={form.password}
              error={errors.password}
              testIdPrefix="person"
              onModeChange={(mode) => set('passwordMode', mode)}
              onPasswordChange={(password) => set('password', password)}
            />
          ) : null}
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
            <Button component={Link} to={directory.base}>
              {editable ? 'Cancel' : 'Back'}
            </Button>
            {editable ? (
              <Button type="submit" variant="contained" disabled={save.isPending} data-testid="person-save">
                {id === null ? `Create ${directory.singular}` : 'Save'}
              </Button>
            ) : null}
          </Box>
        </Paper>
      </Box>
      {person.data ? (
        <PersonTickets
          person={{ id: person.data.id, name: fullName(person.data) }}
          mayAssign={permissions.has('change_ticket') && person.data.isActive}
        />
      ) : null}
    </Box>
  );
}
