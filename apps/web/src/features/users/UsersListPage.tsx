import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { ROLE_LABELS, ROLES, ROLES_SEEING_ALL_SITES, type Role } from '@sitewatch/contracts/roles';
import { type AdminUser, USER_INACTIVITY_DAYS, USER_PERMISSIONS } from '@sitewatch/contracts/user-admin';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { fullName, permissionsOf, useUser } from '../../lib/session.ts';
import { useListState } from '../sites/hooks.ts';
import { ListGrid } from '../sites/ListGrid.tsx';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { useAdminUsers } from './api.ts';
import { useDenied } from './RightsGate.tsx';
import { UserImportDialog } from './UserImportDialog.tsx';

type Status = 'active' | 'deactivated' | 'all';
const seesAll = (user: AdminUser) => (user.userRole ?? []).some((r) => ROLES_SEEING_ALL_SITES.includes(r));

// Rows are read defensively: when the user's rights were just taken away, the server answers names only until the
// refreshed rights send the user to access denied.
/** /users: the customer's users, their roles, groups and sites, with inactive users flagged. */
export function UsersListPage() {
  const me = useUser();
  const permissions = permissionsOf(me);
  const list = useListState({ orderBy: 'firstname' });
  const [role, setRole] = useState<Role | ''>('');
  const [status, setStatus] = useState<Status>('active');
  const [importing, setImporting] = useState(false);
  const users = useAdminUsers({ ...list.query, role: role || undefined, status });
  const denied = useDenied(permissions.has(USER_PERMISSIONS.view));
  if (denied) return denied;

  const columns: GridColDef<AdminUser>[] = [
    {
      field: 'firstname',
      headerName: 'Name',
      flex: 1,
      minWidth: 200,
      renderCell: (p) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, height: '100%' }}>
          <Link to={`/user-details/${p.row.id}`}>{fullName(p.row)}</Link>
          {p.row.isActive === false ? <Chip size="small" label="Deactivated" /> : null}
          {p.row.isActive && p.row.inactive ? (
            <Chip size="small" color="warning" label="Inactive" title={`No sign-in for over ${USER_INACTIVITY_DAYS} days`} />
          ) : null}
        </Box>
      ),
    },
    { field: 'username', headerName: 'Username', width: 150 },
    { field: 'email', headerName: 'E-mail', flex: 1, minWidth: 200 },
    {
      field: 'roles',
      headerName: 'Role',
      width: 160,
      sortable: false,
      valueGetter: (_v, row) => (row.userRole ?? []).map((r) => ROLE_LABELS[r] ?? r).join(', '),
    },
    { field: 'group', headerName: 'Group', width: 140, sortable: false, valueGetter: (_v, row) => row.groups?.[0]?.name ?? '' },
    {
      field: 'sites',
      headerName: 'Sites',
      width: 110,
      sortable: false,
      valueGetter: (_v, row) => (seesAll(row) ? 'All' : String(row.assetIds?.length ?? 0)),
    },
  ];

  return (
    <Box>
      <PageHeader
        title="Users"
        actions={
          permissions.has(USER_PERMISSIONS.add) ? (
            <>
              <Button component={Link} to="/registration-requests">
                Registration requests
              </Button>
              <Button variant="outlined" onClick={() => setImporting(true)} data-testid="import-users">
                Import
              </Button>
              <Button variant="contained" component={Link} to="/user/create" data-testid="add-user">
                Add user
              </Button>
            </>
          ) : null
        }
      />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder="Search name, username or e-mail"
        filters={
          <>
            <TextField
              select
              size="small"
              label="Role"
              value={role}
              onChange={(e) => setRole(e.target.value as Role | '')}
              sx={{ minWidth: 160 }}
            >
              <MenuItem value="">All roles</MenuItem>
              {ROLES.map((r) => (
                <MenuItem key={r} value={r}>
                  {ROLE_LABELS[r]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label="Status"
              value={status}
              onChange={(e) => setStatus(e.target.value as Status)}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="active">Active</MenuItem>
              <MenuItem value="deactivated">Deactivated</MenuItem>
              <MenuItem value="all">All</MenuItem>
            </TextField>
          </>
        }
      />
      {permissions.has(USER_PERMISSIONS.add) ? <UserImportDialog open={importing} onClose={() => setImporting(false)} /> : null}
      {users.isError ? (
        <ErrorState onRetry={() => users.refetch()} />
      ) : users.data && users.data.totalCount === 0 && !list.query.searchText && !role && status === 'active' ? (
        <EmptyState title="No users yet" description="Add the people who work with your sites." />
      ) : (
        <ListGrid list={list} page={users.data} columns={columns} result={users} noRowsLabel="No users match" minWidth={640} />
      )}
      <Typography variant="caption" color="text.secondary">
        Users flagged inactive have not signed in for over {USER_INACTIVITY_DAYS} days.
      </Typography>
    </Box>
  );
}
