import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DataGrid, GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { ASSET_MESSAGES, type SiteCustomer, siteCustomerInputSchema } from '@sitewatch/contracts/sites';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { downloadCsv, fetchAll, toCsv } from '../../lib/csv.ts';
import { formatDateTime } from '../../lib/format.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { hasRole, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { Section } from '../devices/components.tsx';
import { useAssetAlias } from './alias.ts';
import {
  type CustomerValues,
  fetchCustomers,
  useAssets,
  useCredentials,
  useCustomer,
  useCustomers,
  useDeleteCustomer,
  useRotateSecret,
  useSaveCustomer,
  useSetCredentials,
} from './api.ts';
import { listLoading, useListState } from './hooks.ts';
import { ListToolbar } from './ListToolbar.tsx';

const useCanWrite = () => hasRole(useUser(), 'sysadmin', 'customeradmin');

/** /customers: the organisations that own sites. */
export function CustomersPage() {
  const alias = useAssetAlias();
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  const list = useListState({ orderBy: 'name' });
  const customers = useCustomers(list.query);
  const deletion = useDeleteConfirmation<SiteCustomer>({
    mutation: useDeleteCustomer(),
    text: `Its ${alias.toLowerCase()}s stay, without a customer.`,
    successMessage: ASSET_MESSAGES.customerDeleted,
  });
  const [exporting, setExporting] = useState(false);
  const columns: GridColDef<SiteCustomer>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 180,
      renderCell: (p) => <Link to={`/customers/${p.row.id}/view/`}>{p.row.name}</Link>,
    },
    { field: 'email', headerName: 'E-mail', flex: 1, minWidth: 180, sortable: false },
    { field: 'phone', headerName: 'Phone', width: 150, sortable: false },
    { field: 'city', headerName: 'City', width: 140, sortable: false },
    { field: 'country', headerName: 'Country', width: 140, sortable: false },
    { field: 'siteCount', headerName: `${alias}s`, width: 90 },
    { field: 'createdAt', headerName: 'Created', width: 170, valueFormatter: (v: string) => formatDateTime(v) },
    {
      field: 'actions',
      type: 'actions',
      width: 150,
      getActions: (p) => [
        <GridActionsCellItem key="v" icon={<VisibilityOutlined />} label="View" onClick={() => navigate(`/customers/${p.row.id}/view/`)} />,
        ...(canWrite
          ? [
              <GridActionsCellItem key="e" icon={<EditOutlined />} label="Edit" onClick={() => navigate(`/customers/${p.row.id}/edit/`)} />,
              <GridActionsCellItem
                key="c"
                icon={<KeyOutlined />}
                label="IoT framework credentials"
                onClick={() => navigate(`/customers/${p.row.id}/iot-fw-cred/`)}
              />,
              <GridActionsCellItem key="d" icon={<DeleteOutline />} label="Delete" onClick={() => deletion.ask(p.row)} />,
            ]
          : []),
      ],
    },
  ];
  const handleExport = async () => {
    setExporting(true);
    try {
      const rows = await fetchAll((page, limit) => fetchCustomers({ ...list.query, page, limit }));
      downloadCsv(
        'Customers',
        toCsv(rows, [
          { header: 'Name', value: (c) => c.name },
          { header: 'E-mail', value: (c) => c.email },
          { header: 'Phone', value: (c) => c.phone },
          { header: 'City', value: (c) => c.city },
          { header: 'Country', value: (c) => c.country },
          { header: `${alias}s`, value: (c) => c.siteCount },
        ]),
      );
    } finally {
      setExporting(false);
    }
  };
  return (
    <Box>
      <PageHeader title="Customers" />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder="Search name, city or e-mail"
        onExport={() => void handleExport()}
        exporting={exporting}
        createTo={canWrite ? '/customers/create' : undefined}
        createLabel="Add Customer"
      />
      <DataGrid
        autoHeight
        rows={customers.data?.contents ?? []}
        columns={columns}
        loading={listLoading(customers)}
        rowCount={customers.data?.totalCount ?? 0}
        paginationMode="server"
        sortingMode="server"
        paginationModel={list.pagination}
        onPaginationModelChange={list.setPagination}
        sortModel={list.sort}
        onSortModelChange={list.setSort}
        pageSizeOptions={[20, 50, 100]}
        disableColumnMenu
        disableRowSelectionOnClick
      />
      {deletion.dialog}
    </Box>
  );
}

const FIELDS = [
  ['name', 'Name'],
  ['email', 'E-mail'],
  ['phone', 'Phone'],
  ['address', 'Address'],
  ['city', 'City'],
  ['country', 'Country'],
] as const;

/** /customers/create and /customers/{id}/edit/. */
export function CustomerFormPage() {
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const navigate = useNavigate();
  const existing = useCustomer(id);
  const save = useSaveCustomer(id);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const c = existing.data;
    if (c) setValues(Object.fromEntries(FIELDS.map(([k]) => [k, c[k] ?? ''])));
  }, [existing.data]);
  if (id && existing.isLoading) return <PageLoader />;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = siteCustomerInputSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    const input: CustomerValues = {
      name: parsed.data.name,
      email: parsed.data.email ?? null,
      phone: parsed.data.phone ?? null,
      address: parsed.data.address ?? null,
      city: parsed.data.city ?? null,
      country: parsed.data.country ?? null,
    };
    save.mutate(input, {
      onSuccess: (c) => {
        showToast('success', id ? ASSET_MESSAGES.customerUpdated : ASSET_MESSAGES.customerCreated);
        navigate(`/customers/${c.id}/view/`);
      },
      onError: (e) => setFailure((isHttpError(e) && detailOf(e.data)) || 'Failed to save'),
    });
  };
  return (
    <Box component="form" onSubmit={handleSubmit} noValidate sx={{ maxWidth: 720 }}>
      <PageHeader title={id ? 'Edit Customer' : 'Add Customer'} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
        {FIELDS.map(([key, label]) => (
          <TextField
            key={key}
            label={label}
            required={key === 'name'}
            value={values[key] ?? ''}
            onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
            error={Boolean(errors[key])}
            helperText={errors[key]}
          />
        ))}
        <Box sx={{ gridColumn: '1 / -1', display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
          <Button onClick={() => navigate(-1)}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Save
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}

/** /customers/{id}/view/. */
export function CustomerViewPage() {
  const id = Number(useParams().id);
  const alias = useAssetAlias();
  const canWrite = useCanWrite();
  const customer = useCustomer(id);
  const sites = useAssets({ customerId: id, limit: 100, orderBy: 'name' });
  if (customer.isLoading) return <PageLoader />;
  const c = customer.data;
  if (!c) return <EmptyState title="Customer not found" />;
  return (
    <Box>
      <PageHeader
        title={c.name}
        subtitle={[c.city, c.country].filter(Boolean).join(', ')}
        actions={
          canWrite ? (
            <>
              <Button component={Link} to={`/customers/${c.id}/iot-fw-cred/`}>
                IoT framework credentials
              </Button>
              <Button component={Link} to={`/customers/${c.id}/edit/`} variant="contained">
                Edit
              </Button>
            </>
          ) : null
        }
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { lg: '1fr 1fr' } }}>
        <Section title="Contact">
          {FIELDS.slice(1).map(([k, label]) => (
            <Typography key={k} variant="body2">
              <Box component="span" sx={{ color: 'text.secondary', display: 'inline-block', width: 90 }}>
                {label}
              </Box>
              {c[k] ?? '—'}
            </Typography>
          ))}
        </Section>
        <Section title={`${alias}s (${c.siteCount})`}>
          {(sites.data?.contents ?? []).map((s) => (
            <Typography key={s.id} variant="body2">
              <Link to={`/assets/view/${s.id}`}>{s.name}</Link> · {s.address.join(' / ')}
            </Typography>
          ))}
          {c.siteCount > 100 ? (
            <Typography variant="caption" color="text.secondary">
              The first 100 are listed; the {alias.toLowerCase()} list filters by customer.
            </Typography>
          ) : null}
        </Section>
      </Box>
    </Box>
  );
}

function Secret({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <TextField
        label={label}
        value={value}
        fullWidth
        size="small"
        slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': testId } }}
      />
      <Tooltip title="Copy">
        <IconButton
          aria-label={`Copy ${label}`}
          onClick={() =>
            void navigator.clipboard
              .writeText(value)
              .then(() => showToast('success', 'Copied'))
              .catch(() => showToast('error', 'Failed To Copy!'))
          }
        >
          <ContentCopy fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

/** /customers/{id}/iot-fw-cred/: where the customer's devices connect and the pair they provision themselves with. */
export function IotCredentialsPage() {
  const id = Number(useParams().id);
  const customer = useCustomer(id);
  const cred = useCredentials(id);
  const rotate = useRotateSecret(id);
  const [confirm, setConfirm] = useState(false);
  const [newSecret, setNewSecret] = useState<string | null>(null);
  if (cred.isLoading) return <PageLoader />;
  const c = cred.data;
  if (!c) return <EmptyState title="Credentials not found" />;
  return (
    <Box sx={{ maxWidth: 760 }}>
      <PageHeader title="IoT framework credentials" subtitle={customer.data?.name} />
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2 }}>
        <Typography variant="body2" color="text.secondary">
          Devices publish telemetry over MQTT with their access token as the user name (topic v1/devices/me/telemetry), or over HTTP. A new
          gateway registers itself by posting its name with this key and secret to /api/v1/provision; it then waits under Discovered Devices
          until an administrator adds it to the inventory.
        </Typography>
        <Secret label="MQTT broker" value={c.mqttUrl} testId="cred-mqtt" />
        <Secret label="HTTP telemetry URL" value={c.httpUrl} testId="cred-http" />
        <Secret label="Provision device key" value={c.provisionDeviceKey} testId="cred-key" />
        <Typography variant="body2" data-testid="cred-secret-state">
          Provision device secret: {c.provisionDeviceSecretSet ? 'set' : 'not set'} (write-only: it is never shown again once saved)
        </Typography>
        {newSecret ? (
          <Box>
            <Secret label="New provision device secret (shown this once)" value={newSecret} testId="cred-secret-new" />
          </Box>
        ) : null}
        <Typography variant="caption" color="text.secondary">
          Secret last changed {formatDateTime(c.secretRotatedAt)}
        </Typography>
        <Box>
          <Button color="warning" variant="outlined" onClick={() => setConfirm(true)}>
            Regenerate secret
          </Button>
        </Box>
      </Paper>
      <ProvisioningForm customerId={id} currentKey={c.provisionDeviceKey} onSaved={() => setNewSecret(null)} />
      <ConfirmDialog
        open={confirm}
        title="Regenerate the provisioning secret?"
        text="Gateways that are not registered yet need the new secret. Registered devices keep their access tokens."
        busy={rotate.isPending}
        onClose={() => setConfirm(false)}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: (data) => {
              showToast('success', 'Successfully Updated');
              setNewSecret(data.provisionDeviceSecret ?? null);
              setConfirm(false);
            },
          })
        }
      />
    </Box>
  );
}

/** A tenant administrator's own provisioning key and secret (what the gateways' firmware is flashed with). */
function ProvisioningForm({ customerId, currentKey, onSaved }: { customerId: number; currentKey: string; onSaved: () => void }) {
  const save = useSetCredentials(customerId);
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const input = { ...(key.trim() ? { provisionDeviceKey: key.trim() } : {}), ...(secret ? { provisionDeviceSecret: secret } : {}) };
    save.mutate(input, {
      onSuccess: () => {
        showToast('success', 'Provisioning credentials saved');
        setKey('');
        setSecret('');
        onSaved();
      },
      onError: (e) => setError((isHttpError(e) && detailOf(e.data)) || 'Could not save the provisioning credentials'),
    });
  };
  return (
    <Paper
      variant="outlined"
      component="form"
      onSubmit={submit}
      sx={{ p: 3, mt: 2, display: 'grid', gap: 2 }}
      aria-label="Set provisioning credentials"
    >
      <Typography variant="h6" component="h2" sx={{ fontSize: 16 }}>
        Set the provisioning key and secret
      </Typography>
      <TextField
        label="New provision device key"
        placeholder={currentKey}
        value={key}
        onChange={(e) => setKey(e.target.value)}
        size="small"
        helperText="Leave empty to keep the current key"
        slotProps={{ htmlInput: { 'data-testid': 'cred-key-input', autoComplete: 'off' } }}
      />
      <TextField
        label="New provision device secret"
        type="password"
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
        size="small"
        helperText="At least 16 characters; leave empty to keep the current secret"
        slotProps={{ htmlInput: { 'data-testid': 'cred-secret-input', autoComplete: 'new-password' } }}
      />
      {error ? (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
      <Box>
        <Button type="submit" variant="contained" disabled={save.isPending || (!key.trim() && !secret)}>
          Save
        </Button>
      </Box>
    </Paper>
  );
}
