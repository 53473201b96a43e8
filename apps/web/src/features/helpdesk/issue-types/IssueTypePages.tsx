import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { IssueType } from '@sitewatch/contracts/helpdesk/admin';
import { TICKET_TYPE_LABELS, TICKET_TYPES, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { editDeleteColumn, useDeleteConfirmation } from '../../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import { useDeleteIssueType, useIssueType, useIssueTypes, usePriorities, useSaveIssueType } from '../tickets/api.ts';
import { useDebounced } from '../tickets/components.tsx';

/** /issue-types: the issue types and sub types tickets are raised under. */
export function IssueTypesPage() {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const list = useIssueTypes(term ? { search: term } : {});
  const deletion = useDeleteConfirmation<IssueType>({
    mutation: useDeleteIssueType(),
    text: 'Tickets already raised keep their issue type; new tickets can no longer use it.',
    successMessage: 'Successfully Deleted',
  });
  const columns: GridColDef<IssueType>[] = [
    { field: 'name', headerName: 'Issue Type', flex: 1, minWidth: 160 },
    { field: 'subTypes', headerName: 'Issue Sub Types', flex: 2, minWidth: 220, valueGetter: (_v, row) => row.subTypes.join(', ') },
    {
      field: 'ticketTypes',
      headerName: 'For',
      flex: 1,
      minWidth: 180,
      valueGetter: (_v, row) => row.ticketTypes.map((t) => TICKET_TYPE_LABELS[t]).join(', '),
    },
    { field: 'defaultPriority', headerName: 'Default priority', width: 140 },
    { field: 'slaHours', headerName: 'Due in (h)', width: 110 },
    { field: 'active', headerName: 'Active', width: 90, type: 'boolean' },
    editDeleteColumn<IssueType>((row) => `/issue-types/edit/${row.id}`, deletion.ask),
  ];
  return (
    <Box>
      <PageHeader
        title="Issue types"
        actions={
          <Button variant="contained" startIcon={<AddIcon />} component={Link} to="/issue-types/create/">
            New issue type
          </Button>
        }
      />
      <TextField
        size="small"
        placeholder="Search issue types"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        sx={{ mb: 2, minWidth: 280 }}
      />
      {list.data && list.data.totalCount === 0 && !term ? (
        <EmptyState title="No issue types yet" description="Without issue types, tickets take any issue type text." />
      ) : (
        <DataGrid
          autoHeight
          rows={list.data?.contents ?? []}
          columns={columns}
          loading={list.isLoading}
          disableRowSelectionOnClick
          pageSizeOptions={[25, 50, 100]}
        />
      )}
      {deletion.dialog}
    </Box>
  );
}

function IssueTypeForm({ issue }: { issue: IssueType | null }) {
  const navigate = useNavigate();
  const save = useSaveIssueType(issue?.id ?? null);
  const priorities = usePriorities();
  const [name, setName] = useState(issue?.name ?? '');
  const [subTypes, setSubTypes] = useState<string[]>(issue?.subTypes ?? []);
  const [sub, setSub] = useState('');
  const [ticketTypes, setTicketTypes] = useState<TicketType[]>(issue?.ticketTypes ?? [...TICKET_TYPES]);
  const [defaultPriority, setDefaultPriority] = useState(issue?.defaultPriority ?? '');
  const [slaHours, setSlaHours] = useState(issue?.slaHours ? String(issue.slaHours) : '');
  const [description, setDescription] = useState(issue?.description ?? '');
  const [active, setActive] = useState(issue?.active ?? true);
  const nameError = !name.trim() ? "Event name can't be empty" : name.length > 250 ? 'Please use maximum 250 characters' : '';
  const addSub = () => {
    const value = sub.trim();
    if (value && !subTypes.includes(value)) setSubTypes([...subTypes, value]);
    setSub('');
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 800 }}>
      <PageHeader title={issue ? `Edit ${issue.name}` : 'New issue type'} />
      <TextField
        label="Issue Type"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={Boolean(nameError)}
        helperText={nameError || ' '}
        slotProps={{ htmlInput: { 'data-testid': 'issue-name' } }}
      />
      <Box>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <TextField
            size="small"
            label="Add an issue sub type"
            value={sub}
            onChange={(e) => setSub(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addSub();
              }
            }}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { maxLength: 250 } }}
          />
          <Button onClick={addSub} disabled={!sub.trim()}>
            Add
          </Button>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
          {subTypes.map((s) => (
            <Chip key={s} label={s} onDelete={() => setSubTypes(subTypes.filter((x) => x !== s))} />
          ))}
        </Box>
      </Box>
      <TextField
        select
        label="For ticket kinds"
        value={ticketTypes}
        onChange={(e) => setTicketTypes(e.target.value as unknown as TicketType[])}
        slotProps={{ select: { multiple: true } }}
        error={ticketTypes.length === 0}
        helperText={ticketTypes.length === 0 ? 'Choose at least one ticket type' : ' '}
      >
        {TICKET_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {TICKET_TYPE_LABELS[t]}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 }}>
        <TextField select label="Default priority" value={defaultPriority} onChange={(e) => setDefaultPriority(e.target.value)}>
          <MenuItem value="">Helpdesk default</MenuItem>
          {(priorities.data?.contents ?? []).map((p) => (
            <MenuItem key={p.name} value={p.name}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="number"
          label="Due in (hours)"
          value={slaHours}
          onChange={(e) => setSlaHours(e.target.value)}
          helperText="Empty: the helpdesk default"
          slotProps={{ htmlInput: { min: 1 } }}
        />
      </Box>
      <TextField
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 250 } }}
      />
      <FormControlLabel control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />} label="Active" />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button
          variant="contained"
          disabled={Boolean(nameError) || ticketTypes.length === 0 || save.isPending}
          data-testid="issue-save"
          onClick={() =>
            save.mutate(
              {
                name: name.trim(),
                subTypes,
                ticketTypes,
                defaultPriority: defaultPriority || null,
                slaHours: slaHours ? Math.max(1, Math.round(Number(slaHours))) : null,
                description: description.trim(),
                active,
              },
              {
                onSuccess: () => {
                  toast.success(issue ? 'Successfully Updated' : 'Successfully Created');
                  navigate('/issue-types');
                },
                onError: (error) => toast.error(isHttpError(error) ? (error.detail ?? error.message) : 'Issue type not saved'),
              },
            )
          }
        >
          Save
        </Button>
        <Button onClick={() => navigate('/issue-types')}>Cancel</Button>
      </Box>
    </Box>
  );
}

export function IssueTypeCreatePage() {
  return <IssueTypeForm issue={null} />;
}

export function IssueTypeEditPage() {
  const issue = useIssueType(Number(useParams().id));
  if (issue.isLoading) return <PageLoader />;
  if (!issue.data) return <EmptyState title="Issue type not found" />;
  return <IssueTypeForm issue={issue.data} />;
}
