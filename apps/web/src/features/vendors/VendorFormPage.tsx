import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { VENDOR_MESSAGES, VENDOR_PERMISSIONS, type Vendor, vendorInputSchema } from '@sitewatch/contracts/vendors';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { SiteMultiPicker, type SiteOption } from '../users/SiteMultiPicker.tsx';
import { useIssueTypeOptions, useSaveVendor, useVendor, useVendorUserOptions } from './api.ts';
import { VendorTickets } from './VendorTickets.tsx';

interface Named {
  id: number;
  name: string;
}

interface FormState {
  company: string;
  contactPerson: string;
  email: string;
  phone: string;
  address: string;
  notes: string;
  active: boolean;
  sites: SiteOption[];
  issueTypes: Named[];
  users: Named[];
}

const EMPTY: FormState = {
  company: '',
  contactPerson: '',
  email: '',
  phone: '',
  address: '',
  notes: '',
  active: true,
  sites: [],
  issueTypes: [],
  users: [],
};

const stateOf = (v: Vendor): FormState => ({
  company: v.company,
  contactPerson: v.contactPerson,
  email: v.email,
  phone: v.phone,
  address: v.address,
  notes: v.notes,
  active: v.active,
  sites: v.sites,
  issueTypes: v.issueTypes,
  users: v.users.map((u) => ({ id: u.id, name: u.name })),
});

/** The vendor's user accounts: users of role vendor, searched on the server. */
function VendorUserPicker(props: { value: Named[]; onChange(value: Named[]): void }) {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const options = useVendorUserOptions(useDebounced(input.trim(), 500), open);
  return (
    <Autocomplete
      multiple
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v, reason) => reason !== 'reset' && setInput(v)}
      options={(options.data?.contents ?? []).map((u) => ({ id: u.id, name: `${u.firstname} ${u.lastname}`.trim() || u.username }))}
      filterOptions={(x) => x}
      filterSelectedOptions
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      noOptionsText="No Options Available!"
      renderInput={(params) => <TextField {...params} label="User accounts (role vendor)" />}
    />
  );
}

/** /vendors/create and /vendors/edit/{id}: a vendor's company, contacts, sites, issue types and accounts. */
export function VendorFormPage() {
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const permissions = permissionsOf(useUser());
  const navigate = useNavigate();
  const vendor = useVendor(id);
  const issueTypes = useIssueTypeOptions();
  const save = useSaveVendor(id);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (vendor.data) setForm(stateOf(vendor.data));
  }, [vendor.data]);
  const denied = useDenied(permissions.has(id === null ? VENDOR_PERMISSIONS.add : VENDOR_PERMISSIONS.view));
  if (denied) return denied;
  if (id !== null && (Number.isNaN(id) || vendor.isError)) {
    return (
      <EmptyState
        title="Vendor not found"
        description="This vendor does not exist or was removed."
        action={<Link to="/vendors">Back to vendors</Link>}
      />
    );
  }
  if (id !== null && vendor.isLoading) return <PageLoader />;
  if (id === null && !permissions.has(VENDOR_PERMISSIONS.add)) return <Navigate to="/vendors" replace />;
  const editable = id === null || Boolean(vendor.data?.can.change);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = vendorInputSchema.safeParse({
      company: form.company,
      contactPerson: form.contactPerson,
      email: form.email.trim(),
      phone: form.phone.trim(),
      address: form.address,
      notes: form.notes,
      active: form.active,
      assetIds: form.sites.map((s) => s.id),
      issueTypeIds: form.issueTypes.map((s) => s.id),
      userIds: form.users.map((s) => s.id),
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (saved) => {
        showToast('success', id === null ? VENDOR_MESSAGES.created : VENDOR_MESSAGES.updated);
        navigate(id === null ? `/vendors/edit/${saved.id}` : '/vendors');
      },
      onError: (error) => setFailure((isHttpError(error) && detailOf(error.data)) || 'Failed to save'),
    });
  };

  const field = (key: 'company' | 'contactPerson' | 'email' | 'phone', label: string, extra: object = {}) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      error={Boolean(errors[key])}
      helperText={errors[key]}
      disabled={!editable}
      slotProps={{ htmlInput: { 'data-testid': `vendor-${key}` } }}
      {...extra}
    />
  );

  return (
    <Box sx={{ maxWidth: 860, display: 'grid', gap: 2 }}>
      <Box component="form" onSubmit={handleSubmit} noValidate>
        <PageHeader title={id === null ? 'Add vendor' : editable ? 'Edit vendor' : (vendor.data?.company ?? 'Vendor')} />
        {failure ? (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
            {failure}
          </Alert>
        ) : null}
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            {field('company', 'Company name', { required: true })}
            {field('contactPerson', 'Contact person')}
            {field('email', 'E-mail', { type: 'email' })}
            {field('phone', 'Phone (mobile)', { inputMode: 'numeric', placeholder: '10 digits' })}
          </Box>
          <TextField
            label="Address"
            value={form.address}
            onChange={(e) => set('address', e.target.value)}
            error={Boolean(errors.address)}
            helperText={errors.address}
            disabled={!editable}
            multiline
            minRows={2}
          />
          <SiteMultiPicker label="Sites served" value={form.sites} onChange={(v) => set('sites', v)} disabled={!editable} />
          {errors.assetIds ? <Alert severity="error">{errors.assetIds}</Alert> : null}
          <Autocomplete
            multiple
            disabled={!editable}
            value={form.issueTypes}
            onChange={(_e, v) => set('issueTypes', v)}
            options={(issueTypes.data?.contents ?? []).map((t) => ({ id: t.id, name: t.name }))}
            filterSelectedOptions
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            loading={issueTypes.isLoading}
            noOptionsText="No Options Available!"
            renderInput={(p) => <TextField {...p} label="Issue types served" />}
          />
          {editable ? (
            <VendorUserPicker value={form.users} onChange={(v) => set('users', v)} />
          ) : (
            <TextField label="User accounts" value={form.users.map((u) => u.name).join(', ')} disabled />
          )}
          <TextField
            label="Notes"
            value={form.notes}
            onChange={(e) => set('notes', e.target.value)}
            error={Boolean(errors.notes)}
            helperText={errors.notes}
            disabled={!editable}
            multiline
            minRows={2}
          />
          <FormControlLabel
            control={<Switch checked={form.active} onChange={(e) => set('active', e.target.checked)} disabled={!editable} />}
            label="Active (tickets may be assigned to it)"
          />
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
            <Button component={Link} to="/vendors">
              {editable ? 'Cancel' : 'Back'}
            </Button>
            {editable ? (
              <Button type="submit" variant="contained" disabled={save.isPending} data-testid="vendor-save">
                {id === null ? 'Create vendor' : 'Save'}
              </Button>
            ) : null}
          </Box>
        </Paper>
      </Box>
      {id !== null && vendor.data ? <VendorTickets vendorId={id} /> : null}
    </Box>
  );
}
