import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import type { FieldStaff } from '@sitewatch/contracts/field-staff';
import { USER_ADMIN_MESSAGES, USER_PERMISSIONS } from '@sitewatch/contracts/user-admin';
import { useState } from 'react';
import { Link } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { fullName, permissionsOf, useUser } from '../../lib/session.ts';
import { useListState } from '../sites/hooks.ts';
import { ListGrid } from '../sites/ListGrid.tsx';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { AssignTicketDialog } from './AssignTicketDialog.tsx';
import { useAreas, useDeletePerson, useFieldStaff } from './api.ts';
import { useDirectory } from './directories.ts';

type Status = 'active' | 'deactivated' | 'all';

/** /field-executives, /store-manager, /infra-admin: the people of a field role with their area, sites and open tickets. */
export function FieldStaffListPage() {
  const directory = useDirectory();
  const permissions = permissionsOf(useUser());
  const list = useListState({ orderBy: 'firstname' });
  const [area, setArea] = useState('');
  const [status, setStatus] = useState<Status>('active');
  const [assigning, setAssigning] = useState<{ id: number; name: string } | null>(null);
  const mayView = permissions.has(USER_PERMISSIONS.view);
  const people = useFieldStaff({ ...list.query, role: directory.role, status, ...(area ? { area } : {}) }, mayView);
  const areas = useAreas(directory.role, mayView);
  const remove = useDeletePerson(directory.role);
  const confirm = useDeleteConfirmation<{ id: number; name: string }>({
    mutation: remove,
    text: 'This removes the user, their profile and their site assignments. Their tickets stay.',
    successMessage: USER_ADMIN_MESSAGES.deleted,
  });
  const denied = useDenied(mayView);
  if (denied) return denied;
  const mayAssign = permissions.has('change_ticket');

  const columns: GridColDef<FieldStaff>[] = [
    {
      field: 'firstname',
      headerName: 'Name',
      flex: 1,
      minWidth: 180,
      renderCell: (p) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, height: '100%' }}>
          {p.row.can.change ? (
            <Link to={`${directory.base}/edit/${p.row.id}`}>{fullName(p.row)}</Link>
          ) : (
            <Link to={`/user-details/${p.row.id}`}>{fullName(p.row)}</Link>
          )}
          {p.row.isActive ? null : <Chip size="small" label="Deactivated" />}
        </Box>
      ),
    },
    {
      field: 'contact',
      headerName: 'Contact',
      flex: 1,
      minWidth: 200,
      sortable: false,
      valueGetter: (_v, row) => [row.email, row.mobile].filter(Boolean).join(' · '),
    },
    {
      field: 'code',
      headerName: 'Employee code',
      width: 130,
      sortable: false,
      valueGetter: (_v, row) => row.fieldProfile.employeeCode ?? '',
    },
    { field: 'area', headerName: 'Area', width: 120, sortable: false, valueGetter: (_v, row) => row.fieldProfile.area ?? '' },
    { field: 'siteCount', headerName: 'Sites', width: 80, sortable: false },
    { field: 'openTickets', headerName: 'Open tickets', width: 110, sortable: false },
    {
      field: 'lastLoginAt',
      headerName: 'Last sign-in',
      width: 170,
      sortable: false,
      valueGetter: (_v, row) => (row.lastLoginAt ? formatDateTime(row.lastLoginAt) : 'Never'),
    },
    {
      field: 'actions',
      headerName: '',
      width: 250,
      sortable: false,
      renderCell: (p) => (
        <>
          {mayAssign && p.row.isActive ? (
            <Button
              size="small"
              onClick={() => setAssigning({ id: p.row.id, name: fullName(p.row) })}
              data-testid={`assign-${p.row.username}`}
            >
              Assign ticket
            </Button>
          ) : null}
          {p.row.can.change ? (
            <Button size="small" component={Link} to={`${directory.base}/edit/${p.row.id}`}>
              Edit
            </Button>
          ) : null}
          {p.row.can.delete ? (
            <Button
              size="small"
              color="error"
              onClick={() => confirm.ask({ id: p.row.id, name: fullName(p.row) })}
              aria-label={`Delete ${fullName(p.row)}`}
            >
              Delete
            </Button>
          ) : null}
        </>
      ),
    },
  ];

  const filtered = Boolean(list.query.searchText) || area !== '' || status !== 'active';
  return (
    <Box>
      <PageHeader
        title={directory.title}
        actions={
          permissions.has(USER_PERMISSIONS.add) ? (
            <Button variant="contained" component={Link} to={`${directory.base}/create`} data-testid="add-person">
              Add {directory.singular}
            </Button>
          ) : null
        }
      />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder="Search name, contact, code or area"
        filters={
          <>
            <TextField select size="small" label="Area" value={area} onChange={(e) => setArea(e.target.value)} sx={{ minWidth: 150 }}>
              <MenuItem value="">All areas</MenuItem>
              {(areas.data?.contents ?? []).map((a) => (
                <MenuItem key={a} value={a}>
                  {a}
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
      {confirm.dialog}
      <AssignTicketDialog person={assigning} onClose={() => setAssigning(null)} />
      {people.isError ? (
        <ErrorState onRetry={() => people.refetch()} />
      ) : people.data && people.data.totalCount === 0 && !filtered ? (
        <EmptyState
          title={`No ${directory.title.toLowerCase()} yet`}
          description={`Add a ${directory.singular} to look after your sites.`}
        />
      ) : (
        <ListGrid list={list} page={people.data} columns={columns} result={people} noRowsLabel="Nobody matches" minWidth={1000} />
      )}
    </Box>
  );
}
