import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { approveSchema, REGISTRATION_MESSAGES, type RegistrationRequest, rejectSchema } from '@sitewatch/contracts/registration';
import { ROLE_LABELS, ROLES_SEEING_ALL_SITES, type Role } from '@sitewatch/contracts/roles';
import { USER_PERMISSIONS } from '@sitewatch/contracts/user-admin';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { fullName, hasRole, permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { listLoading } from '../sites/hooks.ts';
import { useGrantable } from '../users/api.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { SiteMultiPicker, type SiteOption } from '../users/SiteMultiPicker.tsx';
import { useApprove, useRegistration, useRegistrations, useReject } from './api.ts';
import { PeopleSettingsPanel } from './PeopleSettingsPanel.tsx';

const STATUS_LABELS: Record<RegistrationRequest['status'], string> = {
  unconfirmed: 'E-mail not confirmed',
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
};
const errorText = (error: unknown, fallback: string) => (isHttpError(error) && detailOf(error.data)) || fallback;

/** The registration requests waiting for a customer admin, and those decided before. */
export function RegistrationRequestsPage() {
  const user = useUser();
  const allowed = permissionsOf(user).has(USER_PERMISSIONS.add);
  const denied = useDenied(allowed);
  const [status, setStatus] = useState<'pending' | 'approved' | 'rejected'>('pending');
  const [page, setPage] = useState(0);
  const list = useRegistrations(status, page + 1, allowed);
  if (denied) return denied;
  const columns: GridColDef<RegistrationRequest>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 180,
      sortable: false,
      renderCell: (p) => <Link to={`/registration-requests/${p.row.id}/view`}>{fullName(p.row)}</Link>,
    },
    { field: 'username', headerName: 'Username', width: 150, sortable: false },
    { field: 'email', headerName: 'E-mail', flex: 1, minWidth: 200, sortable: false },
    { field: 'createdAt', headerName: 'Requested', width: 180, sortable: false, valueFormatter: (v) => formatDateTime(v as string) },
  ];
  return (
    <Box>
      <PageHeader title="Registration requests" />
      {hasRole(user, 'customeradmin') ? <PeopleSettingsPanel /> : null}
      <TextField
        select
        size="small"
        label="Status"
        value={status}
        onChange={(e) => {
          setStatus(e.target.value as typeof status);
          setPage(0);
        }}
        sx={{ mb: 2, minWidth: 200 }}
      >
        <MenuItem value="pending">Waiting for approval</MenuItem>
        <MenuItem value="approved">Approved</MenuItem>
        <MenuItem value="rejected">Rejected</MenuItem>
      </TextField>
      {list.isError ? (
        <ErrorState message={REGISTRATION_MESSAGES.fetchFailed} onRetry={() => list.refetch()} />
      ) : list.data?.totalCount === 0 ? (
        <EmptyState title="No requests" description={status === 'pending' ? 'Nobody is waiting for approval.' : 'Nothing here yet.'} />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }}>
          <DataGrid
            autoHeight
            rows={list.data?.contents ?? []}
            columns={columns}
            loading={listLoading(list)}
            rowCount={list.data?.totalCount ?? 0}
            paginationMode="server"
            paginationModel={{ page, pageSize: 20 }}
            onPaginationModelChange={(m) => setPage(m.page)}
            pageSizeOptions={[20]}
            disableColumnMenu
            disableRowSelectionOnClick
            sx={{ minWidth: 560 }}
          />
        </Box>
      )}
    </Box>
  );
}

/** /registration-requests/{id}/view: approve with role, group and sites in one step, or reject with a reason. */
export function RegistrationRequestPage() {
  const id = Number(useParams().id);
  const allowed = permissionsOf(useUser()).has(USER_PERMISSIONS.add);
  const denied = useDenied(allowed);
  const request = useRegistration(id, allowed && Number.isInteger(id));
  const grantable = useGrantable(allowed);
  const approve = useApprove(id);
  const reject = useReject(id);
  const navigate = useNavigate();
  const [roles, setRoles] = useState<Role[]>([]);
  const [groupId, setGroupId] = useState<number | ''>('');
  const [sites, setSites] = useState<SiteOption[]>([]);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  if (denied) return denied;
  if (request.isLoading) return <PageLoader />;
  if (!request.data) {
    return (
      <EmptyState
        title="Request not found"
        description="This registration request does not exist."
        action={<Link to="/registration-requests">Back to requests</Link>}
      />
    );
  }
  const r = request.data;
  const seesAll = roles.some((role) => ROLES_SEEING_ALL_SITES.includes(role));

  const doApprove = () => {
    const parsed = approveSchema.safeParse({
      userRole: roles,
      groupId: groupId === '' ? null : groupId,
      assetIds: seesAll ? [] : sites.map((s) => s.id),
    });
    if (!parsed.success) return setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
    setErrors({});
    approve.mutate(parsed.data, {
      onSuccess: (done) => {
        showToast('success', REGISTRATION_MESSAGES.approved);
        navigate(done.userId ? `/user-details/${done.userId}` : '/registration-requests');
      },
      onError: (e) => setFailure(errorText(e, 'Error Occurred while Creating User')),
    });
  };
  const doReject = () => {
    const parsed = rejectSchema.safeParse({ reason });
    if (!parsed.success) return setErrors({ reason: parsed.error.issues[0]?.message ?? 'Reason is required' });
    setErrors({});
    reject.mutate(parsed.data.reason, {
      onSuccess: () => {
        showToast('success', REGISTRATION_MESSAGES.rejected);
        navigate('/registration-requests');
      },
      onError: (e) => setFailure(errorText(e, 'Failed to reject the request')),
    });
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 760 }}>
      <PageHeader title={fullName(r)} subtitle={<Chip size="small" label={STATUS_LABELS[r.status]} />} />
      {failure ? <Alert severity="error">{failure}</Alert> : null}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
          {[
            ['Username', r.username],
            ['E-mail', r.email],
            ['Mobile', r.mobile ?? '—'],
            ['Requested', formatDateTime(r.createdAt)],
            ['E-mail confirmed', r.confirmedAt ? formatDateTime(r.confirmedAt) : 'Not yet'],
            ...(r.decidedAt ? [['Decided', formatDateTime(r.decidedAt)]] : []),
            ...(r.reason ? [['Reason', r.reason]] : []),
          ].map(([k, v]) => (
            <Box key={k} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {k}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {v}
              </Typography>
            </Box>
          ))}
        </Box>
      </Paper>
      {r.status === 'pending' ? (
        <>
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
            <Typography variant="h6" component="h2">
              Approve
            </Typography>
            <TextField
              select
              label="Roles"
              required
              value={roles}
              onChange={(e) => setRoles((typeof e.target.value === 'string' ? [e.target.value] : e.target.value) as Role[])}
              error={Boolean(errors.userRole)}
              helperText={errors.userRole}
              slotProps={{ select: { multiple: true, renderValue: (v) => (v as Role[]).map((x) => ROLE_LABELS[x]).join(', ') } }}
            >
              {(grantable.data?.roles ?? []).map((role) => (
                <MenuItem key={role} value={role}>
                  {ROLE_LABELS[role]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Group"
              value={groupId}
              onChange={(e) => setGroupId(e.target.value === '' ? '' : Number(e.target.value))}
            >
              <MenuItem value="">No group</MenuItem>
              {(grantable.data?.groups ?? []).map((g) => (
                <MenuItem key={g.id} value={g.id}>
                  {g.name}
                </MenuItem>
              ))}
            </TextField>
            {seesAll ? (
              <Alert severity="info">This role sees every site of the customer.</Alert>
            ) : (
              <SiteMultiPicker label="Sites" value={sites} onChange={setSites} />
            )}
            <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Button variant="contained" onClick={doApprove} disabled={approve.isPending} data-testid="approve">
                Approve and create user
              </Button>
            </Box>
          </Paper>
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
            <Typography variant="h6" component="h2">
              Reject
            </Typography>
            <TextField
              label="Reason"
              required
              multiline
              minRows={2}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              error={Boolean(errors.reason)}
              helperText={errors.reason ?? 'Sent to the applicant'}
            />
            <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Button color="error" onClick={doReject} disabled={reject.isPending}>
                Reject request
              </Button>
            </Box>
          </Paper>
        </>
      ) : null}
    </Box>
  );
}
