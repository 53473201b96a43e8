import AddIcon from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { HelpdeskConfig, TicketTypeSettings } from '@sitewatch/contracts/helpdesk/admin';
import { TICKET_STATUS_LABELS, TICKET_STATUSES, type TicketStatus, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { useState } from 'react';
import { Link } from 'react-router';
import { isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import { useHelpdeskConfig, useUpdateConfig } from './api.ts';

const VIEW_TOGGLES: Array<[keyof TicketTypeSettings['ticketViewConfigs'], string]> = [
  ['watchers', 'Watchers'],
  ['rating', 'Rating'],
  ['ratingOwnerOnly', 'Only the owner rates'],
  ['history', 'History'],
  ['checklists', 'Checklists'],
  ['costIncurred', 'Cost incurred'],
  ['workOrder', 'Work order'],
  ['markAttendance', 'Mark attendance'],
];

/** Ticket settings of one type and of the helpdesk, for admins (SPEC 3 "Ticket settings", priority list). */
function SettingsDialog({ config, type, onClose }: { config: HelpdeskConfig; type: TicketType; onClose(): void }) {
  const update = useUpdateConfig();
  const [settings, setSettings] = useState<TicketTypeSettings>(config.types[type]);
  const [priorities, setPriorities] = useState(config.priorities);
  const [threshold, setThreshold] = useState(config.ratingThreshold);
  const [raise, setRaise] = useState(config.raiseTicketOnLowRating);
  const [dueHours, setDueHours] = useState(config.defaultDueHours);
  const set = (patch: Partial<TicketTypeSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const badRefresh = settings.refreshInterval < 5;
  const save = () =>
    update.mutate(
      { typeSettings: settings, priorities, ratingThreshold: threshold, raiseTicketOnLowRating: raise, defaultDueHours: dueHours },
      {
        onSuccess: () => {
          toast.success('Settings updated successfully');
          onClose();
        },
        onError: (error) => toast.error(isHttpError(error) ? (error.detail ?? 'Failed To Update Settings') : 'Failed To Update Settings'),
      },
    );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="helpdesk-settings">
      <DialogTitle>Ticket settings · {settings.label}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '2fr 1fr' }, gap: 2 }}>
          <TextField
            label="Label"
            value={settings.label}
            onChange={(e) => set({ label: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 60 } }}
          />
          <TextField
            type="number"
            label="Refresh interval (s)"
            value={settings.refreshInterval}
            onChange={(e) => set({ refreshInterval: Math.round(Number(e.target.value) || 0) })}
            error={badRefresh}
            helperText={badRefresh ? 'Input Value cannot be less than 5' : ' '}
          />
        </Box>
        <TextField
          select
          label="Status cards"
          value={settings.statusCards}
          onChange={(e) => set({ statusCards: e.target.value as unknown as TicketStatus[] })}
          slotProps={{ select: { multiple: true } }}
        >
          {TICKET_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {TICKET_STATUS_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Checkbox checked={settings.createdBy} onChange={(e) => set({ createdBy: e.target.checked })} />}
          label="Users other than admins see only the tickets they raised"
        />
        <Typography variant="subtitle2">Ticket view</Typography>
        <FormGroup row>
          {VIEW_TOGGLES.map(([key, label]) => (
            <FormControlLabel
              key={key}
              control={
                <Checkbox
                  checked={settings.ticketViewConfigs[key]}
                  onChange={(e) => set({ ticketViewConfigs: { ...settings.ticketViewConfigs, [key]: e.target.checked } })}
                />
              }
              label={label}
            />
          ))}
        </FormGroup>
        <Divider />
        <Typography variant="subtitle2">All tickets</Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr 1fr' }, gap: 2, alignItems: 'center' }}>
          <TextField
            type="number"
            label="Rating threshold"
            value={threshold}
            onChange={(e) => setThreshold(Math.min(5, Math.max(1, Math.round(Number(e.target.value) || 1))))}
          />
          <FormControlLabel
            control={<Checkbox checked={raise} onChange={(e) => setRaise(e.target.checked)} />}
            label="A lower rating raises a ticket"
          />
          <TextField
            type="number"
            label="Default due in (hours, 0: none)"
            value={dueHours}
            onChange={(e) => setDueHours(Math.max(0, Math.round(Number(e.target.value) || 0)))}
          />
        </Box>
        <Typography variant="subtitle2">Priorities</Typography>
        {priorities.map((p, i) => (
          <Box key={p.name || i} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <TextField
              size="small"
              label="Name"
              value={p.name}
              onChange={(e) => setPriorities(priorities.map((x, j) => (j === i ? { ...x, name: e.target.value.toUpperCase() } : x)))}
            />
            <TextField
              size="small"
              type="color"
              label="Colour"
              value={p.color}
              onChange={(e) => setPriorities(priorities.map((x, j) => (j === i ? { ...x, color: e.target.value } : x)))}
              sx={{ width: 100 }}
            />
            <IconButton
              aria-label={`Remove ${p.name}`}
              disabled={priorities.length === 1}
              onClick={() => setPriorities(priorities.filter((_x, j) => j !== i))}
            >
              <DeleteOutlined />
            </IconButton>
          </Box>
        ))}
        <Box>
          <Button startIcon={<AddIcon />} onClick={() => setPriorities([...priorities, { name: '', color: '#808080' }])}>
            Add priority
          </Button>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={badRefresh || update.isPending || priorities.some((p) => !p.name.trim())} onClick={save}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The helpdesk's other screens, reachable from every ticket list, and the ticket settings for admins. */
export function HelpdeskMenu({
  type,
  isAdmin,
  mayAssign,
  mayImport,
}: {
  type: TicketType | 'all';
  isAdmin: boolean;
  mayAssign: boolean;
  mayImport: boolean;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const config = useHelpdeskConfig();
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton aria-label="More helpdesk pages" onClick={(e) => setAnchor(e.currentTarget)} data-testid="helpdesk-menu">
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        <MenuItem component={Link} to="/ticket/dashboard" onClick={close}>
          Ticket dashboard
        </MenuItem>
        <MenuItem component={Link} to="/ticket-report/status" onClick={close}>
          Ticket reports
        </MenuItem>
        {mayAssign ? (
          <MenuItem component={Link} to="/assign-ticket" onClick={close}>
            Assign tickets
          </MenuItem>
        ) : null}
        {mayImport ? (
          <MenuItem component={Link} to="/import" onClick={close}>
            Import tickets
          </MenuItem>
        ) : null}
        {mayImport ? (
          <MenuItem component={Link} to="/bulk-import" onClick={close}>
            Bulk import
          </MenuItem>
        ) : null}
        {isAdmin ? (
          <MenuItem component={Link} to="/issue-types" onClick={close}>
            Issue types
          </MenuItem>
        ) : null}
        {isAdmin ? (
          <MenuItem component={Link} to="/escalations" onClick={close}>
            Escalation policies
          </MenuItem>
        ) : null}
        {isAdmin && type !== 'all' && config.data ? (
          <MenuItem
            onClick={() => {
              close();
              setSettingsOpen(true);
            }}
          >
            Ticket settings
          </MenuItem>
        ) : null}
      </Menu>
      {settingsOpen && config.data && type !== 'all' ? (
        <SettingsDialog config={config.data} type={type} onClose={() => setSettingsOpen(false)} />
      ) : null}
    </>
  );
}
