import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DASHBOARD_MESSAGES } from '@sitewatch/contracts/dashboards';
import { useState } from 'react';
import { toast } from '../../../lib/toasts.ts';
import { useFolders, useMoveDashboard, useMoveFolder } from '../api.ts';
import { folderTargets } from './directory-order.ts';
import { messageOf } from './errors.ts';

const TOP = 'top';

/** Move a dashboard or a folder into another folder (or to the top level). */
export function MoveDialog({
  item,
  onClose,
}: {
  item: { kind: 'dashboard' | 'folder'; id: number; name: string; parentId: number | null };
  onClose(): void;
}) {
  const folders = useFolders();
  const [target, setTarget] = useState<string>(item.parentId === null ? TOP : String(item.parentId));
  const [error, setError] = useState<string | null>(null);
  const moveDashboard = useMoveDashboard();
  const moveFolder = useMoveFolder();
  const options = folderTargets(folders.data?.contents ?? [], item.kind === 'folder' ? item.id : null);
  const busy = moveDashboard.isPending || moveFolder.isPending;
  const handleMove = () => {
    const parentId = target === TOP ? null : Number(target);
    const mutation = item.kind === 'dashboard' ? moveDashboard : moveFolder;
    mutation.mutate(
      { id: item.id, parentId },
      {
        onSuccess: () => {
          toast.success(DASHBOARD_MESSAGES.updated);
          onClose();
        },
        onError: (e) => setError(messageOf(e)),
      },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="move-dialog">
      <DialogTitle>Move {item.name}</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <TextField
          select
          fullWidth
          label="Folder"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          sx={{ mt: 1 }}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'move-target' } as object } }}
        >
          <MenuItem value={TOP}>Top level</MenuItem>
          {options.map((f) => (
            <MenuItem key={f.id} value={String(f.id)}>
              {f.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={handleMove} disabled={busy} data-testid="move-confirm">
          Move
        </Button>
      </DialogActions>
    </Dialog>
  );
}
