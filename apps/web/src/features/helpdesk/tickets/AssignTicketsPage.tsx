import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridColDef, type GridRowSelectionModel } from '@mui/x-data-grid';
import type { TicketSummary, TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import { listLoading } from '../../sites/hooks.ts';
import { ticketKeys } from '../keys.ts';
import { type Assignee, useTickets } from './api.ts';
import { PriorityChip, StatusChip, UserPicker } from './components.tsx';
import { viewPath } from './model.ts';
import { TicketTypeField } from './TicketFilterFields.tsx';

/** /assign-ticket: pick unfinished tickets and give them to one person (or take them back) in one go. */
export function AssignTicketsPage() {
  const client = useQueryClient();
  const [type, setType] = useState<TicketType | 'all'>('all');
  const [scope, setScope] = useState<'none' | 'any'>('none');
  const [page, setPage] = useState({ page: 0, pageSize: 50 });
  const [selection, setSelection] = useState<GridRowSelectionModel>({ type: 'include', ids: new Set() });
  const [assignee, setAssignee] = useState<Assignee | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<{ id: number; detail: string }[]>([]);
  const tickets = useTickets(
    {
      type,
      status: 'OPEN,INPROGRESS,ESCALATE,RE-OPENED,OVERDUE,FLAGGED,INREVIEW',
      ...(scope === 'none' ? { assignedTo: 'none' } : {}),
      page: page.page + 1,
      limit: page.pageSize,
      orderBy: '-createdAt',
    },
    false,
  );
  const columns: GridColDef<TicketSummary>[] = [
    {
      field: 'ticketId',
      headerName: 'Ticket ID',
      width: 120,
      renderCell: (p) => <Link to={viewPath(p.row.type, p.row.id)}>{p.row.ticketId}</Link>,
    },
    { field: 'title', headerName: 'Summary', flex: 1, minWidth: 200 },
    { field: 'location', headerName: 'Location', width: 160, valueGetter: (_v, row) => row.additionalInformation.assetLabel ?? '' },
    { field: 'assignee', headerName: 'Assigned To', width: 160, valueGetter: (_v, row) => row.assignee?.name ?? '' },
    { field: 'priority', headerName: 'Priority', width: 120, renderCell: (p) => <PriorityChip priority={p.row.priority} /> },
    { field: 'status', headerName: 'Status', width: 140, renderCell: (p) => <StatusChip status={p.row.status} /> },
    { field: 'createdAt', headerName: 'Created Date', width: 170, valueGetter: (_v, row) => formatDateTime(row.createdAt) },
  ];
  const ids = [...selection.ids].map(Number);
  const assign = async (to: number | null) => {
    setBusy(true);
    try {
      const result = await api.post('/helpdesk/tickets/assign/', { ticketIds: ids, assignedTo: to }, { toast: false });
      setFailed(result.failed);
      if (result.updated.length) toast.success(`${result.updated.length} ticket(s) updated successfully`);
      setSelection({ type: 'include', ids: new Set() });
      void client.invalidateQueries({ queryKey: ticketKeys.all });
    } catch (error) {
      toast.error(isHttpError(error) ? (error.detail ?? error.message) : 'Tickets not assigned');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box>
      <PageHeader title="Assign tickets" subtitle="Choose tickets, then the person to give them to." />
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <TicketTypeField value={type} onChange={setType} />
        <TextField
          select
          size="small"
          label="Show"
          value={scope}
          onChange={(e) => setScope(e.target.value as 'none' | 'any')}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="none">Unassigned tickets</MenuItem>
          <MenuItem value="any">All unfinished tickets</MenuItem>
        </TextField>
        <Box sx={{ minWidth: 280, flex: 1 }}>
          <UserPicker label="Assign to" value={assignee} onChange={setAssignee} />
        </Box>
        <Button
          variant="contained"
          disabled={!assignee || ids.length === 0 || busy}
          onClick={() => assignee && void assign(assignee.id)}
          data-testid="assign-selected"
        >
          Assign {ids.length || ''}
        </Button>
        <Button disabled={ids.length === 0 || busy} onClick={() => void assign(null)}>
          Unassign
        </Button>
      </Paper>
      {failed.length ? (
        <Alert severity="warning" sx={{ mb: 2 }} onClose={() => setFailed([])}>
          Not updated: {failed.map((f) => `#${f.id} (${f.detail})`).join(', ')}
        </Alert>
      ) : null}
      <DataGrid
        autoHeight
        checkboxSelection
        keepNonExistentRowsSelected
        rows={tickets.data?.contents ?? []}
        columns={columns}
        loading={listLoading(tickets)}
        rowCount={tickets.data?.totalCount ?? 0}
        paginationMode="server"
        paginationModel={page}
        onPaginationModelChange={setPage}
        pageSizeOptions={[20, 50, 100]}
        rowSelectionModel={selection}
        onRowSelectionModelChange={setSelection}
        disableColumnMenu
      />
    </Box>
  );
}
