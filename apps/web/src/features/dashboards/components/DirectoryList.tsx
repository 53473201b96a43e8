import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import { DASHBOARD_MESSAGES, type DashboardFolder, type DashboardSummary } from '@sitewatch/contracts/dashboards';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { can } from '../../../lib/access.ts';
import { useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { useDeleteDashboard, useDeleteFolder, useReorder } from '../api.ts';
import { byIndex, moveInList } from './directory-order.ts';
import { messageOf } from './errors.ts';
import { FolderDialog } from './FolderDialog.tsx';
import { MoveDialog } from './MoveDialog.tsx';

type Entry = { kind: 'folder'; item: DashboardFolder } | { kind: 'dashboard'; item: DashboardSummary };

export const dashboardViewPath = (id: number) => `/dashboards/${id}/view`;

/**
 * The folders and dashboards directly under one parent, in `index` order: open, edit, move, reorder and delete
 * (with confirmation), each action offered only to users who may do it.
 */
export function DirectoryList({
  parentId,
  folders,
  dashboards,
}: {
  parentId: number | null;
  folders: readonly DashboardFolder[];
  dashboards: readonly DashboardSummary[];
}) {
  const user = useUser();
  const mayChange = can(user, 'change_dashboard');
  const mayDelete = can(user, 'delete_dashboard');
  const orderedFolders = byIndex(folders);
  const orderedDashboards = byIndex(dashboards);
  const reorder = useReorder();
  const deleteDashboard = useDeleteDashboard();
  const deleteFolder = useDeleteFolder();
  const [moving, setMoving] = useState<Entry | null>(null);
  const [renaming, setRenaming] = useState<DashboardFolder | null>(null);
  const [removing, setRemoving] = useState<Entry | null>(null);

  const handleStep = (entry: Entry, step: -1 | 1) => {
    const folderIds = orderedFolders.map((f) => f.id);
    const dashboardIds = orderedDashboards.map((d) => d.id);
    const next =
      entry.kind === 'folder'
        ? { folderIds: [...moveInList(folderIds, folderIds.indexOf(entry.item.id), step)], dashboardIds }
        : { folderIds, dashboardIds: [...moveInList(dashboardIds, dashboardIds.indexOf(entry.item.id), step)] };
    reorder.mutate({ parentId, ...next }, { onError: (e) => toast.error(messageOf(e)) });
  };
  const handleDelete = () => {
    if (!removing) return;
    const done = {
      onSuccess: () => {
        toast.success(DASHBOARD_MESSAGES.deleted);
        setRemoving(null);
      },
      onError: (e: unknown) => {
        toast.error(messageOf(e));
        setRemoving(null);
      },
    };
    if (removing.kind === 'folder') deleteFolder.mutate(removing.item.id, done);
    else deleteDashboard.mutate(removing.item.id, done);
  };

  const entries: Entry[] = [
    ...orderedFolders.map((item) => ({ kind: 'folder' as const, item })),
    ...orderedDashboards.map((item) => ({ kind: 'dashboard' as const, item })),
  ];
  if (entries.length === 0) {
    return (
      <Paper variant="outlined">
        <EmptyState compact title="No dashboards here yet" data-testid="directory-empty" />
      </Paper>
    );
  }

  const row = (entry: Entry, index: number, count: number): ReactNode => {
    const { item } = entry;
    const to = entry.kind === 'folder' ? `/folder/${item.id}` : dashboardViewPath(item.id);
    const testId = `${entry.kind}-${item.id}`;
    return (
      <ListItem
        key={testId}
        disablePadding
        divider
        data-testid={testId}
        secondaryAction={
          <Box sx={{ display: 'flex', gap: 0.25 }}>
            {mayChange ? (
              <>
                <Tooltip title="Move up">
                  <span>
                    <IconButton
                      size="small"
                      aria-label={`Move ${item.name} up`}
                      disabled={index === 0 || reorder.isPending}
                      onClick={() => handleStep(entry, -1)}
                    >
                      <ArrowUpward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Move down">
                  <span>
                    <IconButton
                      size="small"
                      aria-label={`Move ${item.name} down`}
                      disabled={index === count - 1 || reorder.isPending}
                      onClick={() => handleStep(entry, 1)}
                      data-testid={`${testId}-down`}
                    >
                      <ArrowDownward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Move to folder">
                  <IconButton
                    size="small"
                    aria-label={`Move ${item.name} to a folder`}
                    onClick={() => setMoving(entry)}
                    data-testid={`${testId}-move`}
                  >
                    <DriveFileMoveOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                {entry.kind === 'folder' ? (
                  <Tooltip title="Rename">
                    <IconButton size="small" aria-label={`Rename ${item.name}`} onClick={() => setRenaming(entry.item)}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : (
                  <Tooltip title="Edit">
                    <IconButton size="small" aria-label={`Edit ${item.name}`} component={RouterLink} to={`/dashboards/${item.id}/edit`}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </>
            ) : null}
            {mayDelete ? (
              <Tooltip title="Delete">
                <IconButton
                  size="small"
                  aria-label={`Delete ${item.name}`}
                  onClick={() => setRemoving(entry)}
                  data-testid={`${testId}-delete`}
                >
                  <DeleteOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
            ) : null}
          </Box>
        }
        sx={{ pr: { xs: mayChange ? 26 : 6, sm: mayChange ? 28 : 6 } }}
      >
        <ListItemButton component={RouterLink} to={to} sx={{ minWidth: 0 }}>
          <ListItemIcon sx={{ minWidth: 36 }}>{entry.kind === 'folder' ? <FolderOutlined /> : <DashboardOutlined />}</ListItemIcon>
          <ListItemText
            primary={item.name}
            secondary={entry.kind === 'folder' ? `${entry.item.dashboardCount} dashboards` : undefined}
            slotProps={{ primary: { noWrap: true } }}
          />
          {entry.kind === 'dashboard' && entry.item.config.type === 'ANALYTICS' ? (
            <Chip size="small" label="Analytics" sx={{ ml: 1 }} />
          ) : null}
        </ListItemButton>
      </ListItem>
    );
  };

  return (
    <Paper variant="outlined">
      <List disablePadding data-testid="directory-list">
        {orderedFolders.map((item, i) => row({ kind: 'folder', item }, i, orderedFolders.length))}
        {orderedDashboards.map((item, i) => row({ kind: 'dashboard', item }, i, orderedDashboards.length))}
      </List>
      {moving ? (
        <MoveDialog
          item={{
            kind: moving.kind,
            id: moving.item.id,
            name: moving.item.name,
            parentId: moving.kind === 'folder' ? moving.item.parentId : moving.item.folder,
          }}
          onClose={() => setMoving(null)}
        />
      ) : null}
      {renaming ? <FolderDialog folder={renaming} parentId={renaming.parentId} onClose={() => setRenaming(null)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        destructive
        title={removing?.kind === 'folder' ? 'Delete folder?' : 'Delete dashboard?'}
        text={removing ? `${removing.item.name} will be deleted. This cannot be undone.` : undefined}
        confirmLabel="Delete"
        busy={deleteDashboard.isPending || deleteFolder.isPending}
        onConfirm={handleDelete}
        onClose={() => setRemoving(null)}
      />
    </Paper>
  );
}
