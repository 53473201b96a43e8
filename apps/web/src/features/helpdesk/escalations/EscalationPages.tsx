import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { EscalationLevel, EscalationPolicy } from '@sitewatch/contracts/helpdesk/admin';
import { TICKET_TYPE_LABELS, TICKET_TYPES, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { ROLE_LABELS, ROLES, type Role } from '@sitewatch/contracts/roles';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { editDeleteColumn, useDeleteConfirmation } from '../../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import {
  type Assignee,
  useAssignees,
  useDeletePolicy,
  useIssueTypes,
  usePolicies,
  usePolicy,
  usePriorities,
  useSavePolicy,
} from '../tickets/api.ts';
import { UserPicker } from '../tickets/components.tsx';

const describeWait = (minutes: number) =>
  minutes % 1440 === 0 ? `${minutes / 1440} d` : minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;

/** /escalations: the escalation policies of the helpdesk. */
export function EscalationPoliciesPage() {
  const policies = usePolicies();
  const deletion = useDeleteConfirmation<EscalationPolicy>({
    mutation: useDeletePolicy(),
    text: 'Tickets under this policy stop escalating.',
    successMessage: 'Successfully Deleted',
  });
  const columns: GridColDef<EscalationPolicy>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 180,
      renderCell: (p) => <Link to={`/escalations/${p.row.id}/view`}>{p.row.name}</Link>,
    },
    {
      field: 'applies',
      headerName: 'Applies to',
      flex: 1,
      minWidth: 200,
      valueGetter: (_v, row) =>
        [row.ticketTypes.map((t) => TICKET_TYPE_LABELS[t]).join(', '), row.priorities.join(', '), row.events.join(', ')]
          .filter(Boolean)
          .join(' · ') || 'Every ticket',
    },
    {
      field: 'levels',
      headerName: 'Levels',
      width: 160,
      valueGetter: (_v, row) => row.levels.map((l) => describeWait(l.waitMinutes)).join(' → '),
    },
    { field: 'stopAt', headerName: 'Until', width: 110 },
    { field: 'activeTickets', headerName: 'Running on', width: 110 },
    { field: 'active', headerName: 'Active', width: 90, type: 'boolean' },
    editDeleteColumn<EscalationPolicy>((row) => `/escalations/${row.id}/edit`, deletion.ask),
  ];
  return (
    <Box>
      <PageHeader
        title="Escalation policies"
        subtitle="When a ticket is not handled in time, each level reassigns it and tells the people named."
        actions={
          <Button variant="contained" startIcon={<AddIcon />} component={Link} to="/escalations/create">
            New policy
          </Button>
        }
      />
      {policies.data && policies.data.totalCount === 0 ? (
        <EmptyState title="No escalation policies" description="Create one to escalate tickets that wait too long." />
      ) : (
        <DataGrid
          autoHeight
          rows={policies.data?.contents ?? []}
          columns={columns}
          loading={policies.isLoading}
          disableRowSelectionOnClick
          pageSizeOptions={[50]}
        />
      )}
      {deletion.dialog}
    </Box>
  );
}

type LevelDraft = Omit<EscalationLevel, 'assigneeId'> & { assignee: Assignee | null; notifyUsers: Assignee[] };
const newLevel = (): LevelDraft => ({
  waitMinutes: 30,
  role: null,
  assignee: null,
  notify: { assignee: true, owner: false, watchers: false, userIds: [] },
  notifyUsers: [],
  message: '',
});

function LevelEditor({
  index,
  level,
  onChange,
  onRemove,
}: {
  index: number;
  level: LevelDraft;
  onChange(l: LevelDraft): void;
  onRemove?: () => void;
}) {
  const [extra, setExtra] = useState<Assignee | null>(null);
  const set = (patch: Partial<LevelDraft>) => onChange({ ...level, ...patch });
  const nobody = !level.assignee && !level.role && !level.notifyUsers.length && !level.notify.owner && !level.notify.watchers;
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 2 }} data-testid="policy-level">
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          Level {index + 1}
        </Typography>
        {onRemove ? (
          <IconButton aria-label={`Remove level ${index + 1}`} onClick={onRemove}>
            <DeleteOutline />
          </IconButton>
        ) : null}
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '160px 1fr 1fr' }, gap: 2 }}>
        <TextField
          type="number"
          label="Wait (minutes)"
          helperText={index === 0 ? 'after the ticket is raised' : 'after the previous level'}
          value={level.waitMinutes}
          onChange={(e) => set({ waitMinutes: Math.max(1, Math.round(Number(e.target.value) || 1)) })}
          slotProps={{ htmlInput: { min: 1 } }}
        />
        <UserPicker
          label="Assign to"
          value={level.assignee}
          onChange={(assignee) => set({ assignee, ...(assignee ? { role: null } : {}) })}
        />
        <TextField
          select
          label="…or the least busy user of role"
          value={level.role ?? ''}
          disabled={Boolean(level.assignee)}
          onChange={(e) => set({ role: (e.target.value || null) as Role | null })}
        >
          <MenuItem value="">None</MenuItem>
          {ROLES.map((r) => (
            <MenuItem key={r} value={r}>
              {ROLE_LABELS[r]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Typography variant="body2">Notify:</Typography>
        {(['assignee', 'owner', 'watchers'] as const).map((k) => (
          <FormControlLabel
            key={k}
            control={<Checkbox checked={level.notify[k]} onChange={(e) => set({ notify: { ...level.notify, [k]: e.target.checked } })} />}
            label={k === 'assignee' ? 'Assignee' : k === 'owner' ? 'Owner' : 'Watchers'}
          />
        ))}
        {level.notifyUsers.map((u) => (
          <Chip key={u.id} label={u.name} onDelete={() => set({ notifyUsers: level.notifyUsers.filter((x) => x.id !== u.id) })} />
        ))}
        <Box sx={{ minWidth: 260 }}>
          <UserPicker
            label="Also notify"
            value={extra}
            onChange={(u) => {
              if (u && !level.notifyUsers.some((x) => x.id === u.id)) set({ notifyUsers: [...level.notifyUsers, u] });
              setExtra(null);
            }}
          />
        </Box>
      </Box>
      <TextField
        label="Message for the history and the notification"
        value={level.message}
        onChange={(e) => set({ message: e.target.value })}
        error={level.message.length > 250}
        helperText={level.message.length > 250 ? 'Please use maximum 250 characters' : ' '}
      />
      {nobody ? <Alert severity="warning">A level needs an assignee, a role or someone to notify</Alert> : null}
    </Paper>
  );
}

function PolicyForm({ policy }: { policy: EscalationPolicy | null }) {
  const navigate = useNavigate();
  const save = useSavePolicy(policy?.id ?? null);
  const priorities = usePriorities();
  const issueTypes = useIssueTypes();
  const ids = [...new Set((policy?.levels ?? []).flatMap((l) => [...(l.assigneeId ? [l.assigneeId] : []), ...l.notify.userIds]))];
  const users = useAssignees('', ids.length ? ids : undefined);
  const byId = (id: number | null) =>
    id ? (users.data?.contents.find((u) => u.id === id) ?? { id, name: `User ${id}`, email: '', roles: [] }) : null;
  const [name, setName] = useState(policy?.name ?? '');
  const [description, setDescription] = useState(policy?.description ?? '');
  const [ticketTypes, setTicketTypes] = useState<TicketType[]>(policy?.ticketTypes ?? []);
  const [prios, setPrios] = useState<string[]>(policy?.priorities ?? []);
  const [events, setEvents] = useState<string[]>(policy?.events ?? []);
  const [stopAt, setStopAt] = useState<'INPROGRESS' | 'RESOLVED'>(policy?.stopAt ?? 'RESOLVED');
  const [active, setActive] = useState(policy?.active ?? true);
  const [levels, setLevels] = useState<LevelDraft[] | null>(policy ? null : [newLevel()]);
  const loadedLevels =
    levels ??
    (policy && (ids.length === 0 || users.data)
      ? policy.levels.map((l) => ({ ...l, assignee: byId(l.assigneeId), notifyUsers: l.notify.userIds.map((id) => byId(id) as Assignee) }))
      : null);
  if (!loadedLevels) return <PageLoader />;
  const submit = () => {
    const body = {
      name: name.trim(),
      description: description.trim(),
      ticketTypes,
      priorities: prios,
      events,
      stopAt,
      active,
      levels: loadedLevels.map((l) => ({
        waitMinutes: l.waitMinutes,
        assigneeId: l.assignee?.id ?? null,
        role: l.assignee ? null : l.role,
        notify: { ...l.notify, userIds: l.notifyUsers.map((u) => u.id) },
        message: l.message.trim(),
      })),
    };
    save.mutate(body, {
      onSuccess: (saved) => {
        toast.success(policy ? 'Successfully Updated' : 'Successfully Created');
        navigate(`/escalations/${saved.id}/view`);
      },
      onError: (error) => toast.error(isHttpError(error) ? (error.detail ?? error.message) : 'Policy not saved'),
    });
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 1000 }}>
      <PageHeader title={policy ? `Edit ${policy.name}` : 'New escalation policy'} />
      <TextField
        label="Name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={!name.trim()}
        helperText={!name.trim() ? 'Name is required' : ' '}
      />
      <TextField label="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '1fr 1fr 1fr' }, gap: 2 }}>
        <TextField
          select
          label="Ticket kinds (none: all)"
          value={ticketTypes}
          onChange={(e) => setTicketTypes(e.target.value as unknown as TicketType[])}
          slotProps={{ select: { multiple: true } }}
        >
          {TICKET_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {TICKET_TYPE_LABELS[t]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Priorities (none: all)"
          value={prios}
          onChange={(e) => setPrios(e.target.value as unknown as string[])}
          slotProps={{ select: { multiple: true } }}
        >
          {(priorities.data?.contents ?? []).map((p) => (
            <MenuItem key={p.name} value={p.name}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Issue types (none: all)"
          value={events}
          onChange={(e) => setEvents(e.target.value as unknown as string[])}
          slotProps={{ select: { multiple: true } }}
        >
          {(issueTypes.data?.contents ?? []).map((i) => (
            <MenuItem key={i.id} value={i.name}>
              {i.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          select
          label="Escalate until the ticket is"
          value={stopAt}
          onChange={(e) => setStopAt(e.target.value as 'INPROGRESS' | 'RESOLVED')}
          sx={{ minWidth: 260 }}
        >
          <MenuItem value="INPROGRESS">In progress (response time)</MenuItem>
          <MenuItem value="RESOLVED">Resolved (resolution time)</MenuItem>
        </TextField>
        <FormControlLabel control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />} label="Active" />
      </Box>
      {loadedLevels.map((l, i) => (
        <LevelEditor
          // biome-ignore lint/suspicious/noArrayIndexKey: levels are ordered and have no identity of their own
          key={i}
          index={i}
          level={l}
          onChange={(next) => setLevels(loadedLevels.map((x, j) => (j === i ? next : x)))}
          onRemove={loadedLevels.length > 1 ? () => setLevels(loadedLevels.filter((_x, j) => j !== i)) : undefined}
        />
      ))}
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button startIcon={<AddIcon />} disabled={loadedLevels.length >= 10} onClick={() => setLevels([...loadedLevels, newLevel()])}>
          Add level
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={() => navigate('/escalations')}>Cancel</Button>
        <Button variant="contained" disabled={!name.trim() || save.isPending} onClick={submit} data-testid="policy-save">
          Save
        </Button>
      </Box>
    </Box>
  );
}

export function EscalationPolicyCreatePage() {
  return <PolicyForm policy={null} />;
}

export function EscalationPolicyEditPage() {
  const policy = usePolicy(Number(useParams().id));
  if (policy.isLoading) return <PageLoader />;
  if (!policy.data) return <EmptyState title="Policy not found" />;
  return <PolicyForm policy={policy.data} />;
}

export function EscalationPolicyViewPage() {
  const policy = usePolicy(Number(useParams().id));
  const p = policy.data;
  const ids = [...new Set((p?.levels ?? []).flatMap((l) => [...(l.assigneeId ? [l.assigneeId] : []), ...l.notify.userIds]))];
  const users = useAssignees('', ids.length ? ids : undefined);
  const nameOf = (id: number) => users.data?.contents.find((u) => u.id === id)?.name ?? `User ${id}`;
  if (policy.isLoading) return <PageLoader />;
  if (!p) return <EmptyState title="Policy not found" />;
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 900 }}>
      <PageHeader
        title={p.name}
        subtitle={p.description}
        actions={
          <Button variant="contained" component={Link} to={`/escalations/${p.id}/edit`}>
            Edit
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="body2">
          Applies to {p.ticketTypes.length ? p.ticketTypes.map((t) => TICKET_TYPE_LABELS[t]).join(', ') : 'every kind of ticket'}
          {p.priorities.length ? ` with priority ${p.priorities.join(' or ')}` : ''}
          {p.events.length ? ` and issue type ${p.events.join(' or ')}` : ''}; escalates until the ticket is{' '}
          {p.stopAt === 'INPROGRESS' ? 'in progress' : 'resolved'}. {p.active ? 'Active' : 'Inactive'}; running on {p.activeTickets}{' '}
          ticket(s).
        </Typography>
      </Paper>
      {p.levels.map((l, i) => (
        <Paper
          // biome-ignore lint/suspicious/noArrayIndexKey: levels are ordered and have no identity of their own
          key={i}
          variant="outlined"
          sx={{ p: 2 }}
        >
          <Typography variant="subtitle2">
            Level {i + 1}: after {describeWait(l.waitMinutes)}
          </Typography>
          <Typography variant="body2">
            {l.assigneeId
              ? `Assign to ${nameOf(l.assigneeId)}`
              : l.role
                ? `Assign to the least busy ${ROLE_LABELS[l.role]}`
                : 'Keep the assignee'}
            ; notify{' '}
            {[
              l.notify.assignee && 'the assignee',
              l.notify.owner && 'the owner',
              l.notify.watchers && 'the watchers',
              ...l.notify.userIds.map(nameOf),
            ]
              .filter(Boolean)
              .join(', ') || 'nobody'}
            .
          </Typography>
          {l.message ? (
            <Typography variant="body2" color="text.secondary">
              “{l.message}”
            </Typography>
          ) : null}
        </Paper>
      ))}
    </Box>
  );
}
