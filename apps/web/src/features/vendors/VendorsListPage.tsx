import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { TERMINAL_STATUSES, TICKET_STATUSES } from '@sitewatch/contracts/helpdesk';
import { VENDOR_MESSAGES, VENDOR_PERMISSIONS, type VendorSummary } from '@sitewatch/contracts/vendors';
import { useState } from 'react';
import { Link } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useListState } from '../sites/hooks.ts';
import { ListGrid } from '../sites/ListGrid.tsx';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { useDeleteVendor, useIssueTypeOptions, useVendors } from './api.ts';

const OPEN_STATUSES = TICKET_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s)).join(',');

/** The tickets list filtered by a vendor's open tickets. */
export const vendorTicketsPath = (vendorId: number) => `/tickets/all?vendor=${vendorId}&range=last6m&status=${OPEN_STATUSES}`;

/** /vendors: the companies that serve the customer's sites, with their open tickets. */
export function VendorsListPage() {
  const permissions = permissionsOf(useUser());
  const list = useListState({ orderBy: 'company' });
  const [issueType, setIssueType] = useState<number | ''>('');
  const { page, limit, searchText } = list.query;
  const vendors = useVendors({ page, limit, search: searchText, ...(issueType ? { issueType } : {}) });
  const issueTypes = useIssueTypeOptions();
  const remove = useDeleteVendor();
  const confirm = useDeleteConfirmation<{ id: number; name: string; openTickets: number }>({
    mutation: remove,
    text: (row) =>
      row.openTickets > 0 ? VENDOR_MESSAGES.hasOpenTickets : 'This removes the vendor, its sites, issue types and user links.',
    successMessage: VENDOR_MESSAGES.deleted,
  });
  const denied = useDenied(permissions.has(VENDOR_PERMISSIONS.view));
  if (denied) return denied;

  const columns: GridColDef<VendorSummary>[] = [
    {
      field: 'company',
      headerName: 'Company',
      flex: 1,
      minWidth: 180,
      renderCell: (p) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, height: '100%' }}>
          <Link to={`/vendors/edit/${p.row.id}`}>{p.row.company}</Link>
          {p.row.active ? null : <Chip size="small" label="Inactive" />}
        </Box>
      ),
    },
    { field: 'contactPerson', headerName: 'Contact', width: 150 },
    { field: 'phone', headerName: 'Phone', width: 120 },
    {
      field: 'sites',
      headerName: 'Sites',
      flex: 1,
      minWidth: 160,
      valueGetter: (_v, row) => row.sites.map((s) => s.name).join(', '),
    },
    {
      field: 'issueTypes',
      headerName: 'Issue types',
      flex: 1,
      minWidth: 150,
      valueGetter: (_v, row) => row.issueTypes.map((s) => s.name).join(', '),
    },
    {
      field: 'openTickets',
      headerName: 'Open tickets',
      width: 120,
      renderCell: (p) => (
        <Link to={vendorTicketsPath(p.row.id)} data-testid={`vendor-open-${p.row.id}`}>
          {p.row.openTickets}
        </Link>
      ),
    },
    ...(permissions.has(VENDOR_PERMISSIONS.delete)
      ? [
          {
            field: 'actions',
            headerName: '',
            width: 90,
            sortable: false,
            renderCell: (p) => (
              <Button
                size="small"
                color="error"
                onClick={() => confirm.ask({ id: p.row.id, name: p.row.company, openTickets: p.row.openTickets })}
                aria-label={`Delete ${p.row.company}`}
              >
                Delete
              </Button>
            ),
          } satisfies GridColDef<VendorSummary>,
        ]
      : []),
  ];

  const filtered = Boolean(searchText) || issueType !== '';
  return (
    <Box>
      <PageHeader
        title="Vendors"
        actions={
          permissions.has(VENDOR_PERMISSIONS.add) ? (
            <Button variant="contained" component={Link} to="/vendors/create" data-testid="add-vendor">
              Add vendor
            </Button>
          ) : null
        }
      />
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        placeholder="Search company, contact, e-mail or phone"
        filters={
          <TextField
            select
            size="small"
            label="Issue type"
            value={issueType}
            onChange={(e) => setIssueType(e.target.value === '' ? '' : Number(e.target.value))}
            sx={{ minWidth: 170 }}
          >
            <MenuItem value="">All issue types</MenuItem>
            {(issueTypes.data?.contents ?? []).map((t) => (
              <MenuItem key={t.id} value={t.id}>
                {t.name}
              </MenuItem>
            ))}
          </TextField>
        }
      />
      {confirm.dialog}
      {vendors.isError ? (
        <ErrorState onRetry={() => vendors.refetch()} />
      ) : vendors.data && vendors.data.totalCount === 0 && !filtered ? (
        <EmptyState title="No vendors yet" description="Add the companies that serve your sites." />
      ) : (
        <ListGrid
          list={list}
          page={vendors.data}
          columns={columns}
          result={vendors}
          noRowsLabel="No vendors match"
          minWidth={760}
          sortable={false}
        />
      )}
    </Box>
  );
}
