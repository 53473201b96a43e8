import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Typography from '@mui/material/Typography';
import { DASHBOARD_MESSAGES, type DashboardVersion } from '@sitewatch/contracts/dashboards';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { toast } from '../../../lib/toasts.ts';
import { useRestoreVersion, useVersions } from '../api.ts';
import { messageOf } from './errors.ts';

/** The versions a dashboard's saves stored, newest first; restoring one stores it as a new version. */
export function VersionsPanel({ dashboardId, current, onClose }: { dashboardId: number; current: number; onClose(): void }) {
  const [page, setPage] = useState(1);
  const versions = useVersions(dashboardId, page, true);
  const restore = useRestoreVersion(dashboardId);
  const [restoring, setRestoring] = useState<DashboardVersion | null>(null);
  const pages = Math.ceil((versions.data?.totalCount ?? 0) / 20);
  return (
    <Drawer anchor="right" open onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 380 } } } }}>
      <Box sx={{ p: 2 }} data-testid="versions-panel">
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            Versions
          </Typography>
          <Button onClick={onClose}>Close</Button>
        </Box>
        {versions.isLoading ? (
          <PageLoader />
        ) : versions.isError ? (
          <ErrorState onRetry={() => void versions.refetch()} />
        ) : (versions.data?.contents.length ?? 0) === 0 ? (
          <EmptyState compact title="No versions yet" />
        ) : (
          <List dense>
            {versions.data?.contents.map((v) => (
              <ListItem
                key={v.id}
                divider
                data-testid={`version-${v.version}`}
                secondaryAction={
                  v.version === current ? (
                    <Chip size="small" label="Current" />
                  ) : (
                    <Button size="small" onClick={() => setRestoring(v)} data-testid={`restore-${v.version}`}>
                      Restore
                    </Button>
                  )
                }
              >
                <ListItemText
                  primary={`Version ${v.version}${v.note ? ` · ${v.note}` : ''}`}
                  secondary={`${formatDateTime(v.createdAt)}${v.createdBy ? ` · ${v.createdBy.name}` : ''}${
                    v.restoredFrom ? ` · restored from ${v.restoredFrom}` : ''
                  }`}
                />
              </ListItem>
            ))}
          </List>
        )}
        {pages > 1 ? <Pagination count={pages} page={page} onChange={(_e, p) => setPage(p)} /> : null}
      </Box>
      <ConfirmDialog
        open={restoring !== null}
        title="Restore this version?"
        text={restoring ? `The dashboard goes back to version ${restoring.version}; this is saved as a new version.` : undefined}
        confirmLabel="Restore"
        busy={restore.isPending}
        onConfirm={() =>
          restoring &&
          // the restored dashboard replaces the editor (and this panel): the answer is awaited, not a mount-bound callback
          void restore.mutateAsync(restoring.version).then(
            () => {
              toast.success(DASHBOARD_MESSAGES.restored);
              setRestoring(null);
              onClose();
            },
            (e: unknown) => {
              toast.error(messageOf(e));
              setRestoring(null);
            },
          )
        }
        onClose={() => setRestoring(null)}
      />
    </Drawer>
  );
}
