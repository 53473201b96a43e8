import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { DASHBOARD_LIMITS, DASHBOARD_MESSAGES, type DashboardFolder } from '@sitewatch/contracts/dashboards';
import { useState } from 'react';
import { toast } from '../../../lib/toasts.ts';
import { useSaveFolder } from '../api.ts';
import { messageOf } from './errors.ts';

/** Create a folder under `parentId`, or rename an existing one. */
export function FolderDialog({ folder, parentId, onClose }: { folder: DashboardFolder | null; parentId: number | null; onClose(): void }) {
  const [name, setName] = useState(folder?.name ?? '');
  const [titleAsBreadCrumb, setTitle] = useState(folder?.config.titleAsBreadCrumb ?? false);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveFolder(folder?.id ?? null);
  const handleSave = () => {
    if (!name.trim()) return setError(DASHBOARD_MESSAGES.nameRequired);
    save.mutate(
      { name: name.trim(), parentId: folder ? folder.parentId : parentId, config: { titleAsBreadCrumb } },
      {
        onSuccess: () => {
          toast.success(folder ? DASHBOARD_MESSAGES.updated : DASHBOARD_MESSAGES.created);
          onClose();
        },
        onError: (e) => setError(messageOf(e)),
      },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="folder-dialog">
      <DialogTitle>{folder ? 'Rename folder' : 'New folder'}</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <TextField
          autoFocus
          fullWidth
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { maxLength: DASHBOARD_LIMITS.name, 'data-testid': 'folder-name' } }}
          sx={{ mt: 1 }}
        />
        <FormControlLabel
          control={<Checkbox checked={titleAsBreadCrumb} onChange={(e) => setTitle(e.target.checked)} />}
          label="Show the dashboard name as the last breadcrumb"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={handleSave} disabled={save.isPending} data-testid="folder-save">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
