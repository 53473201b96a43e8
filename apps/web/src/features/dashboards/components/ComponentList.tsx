import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import WidgetsOutlined from '@mui/icons-material/WidgetsOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import { DASHBOARD_MESSAGES, type DashboardComponent, WIDGET_KIND_LABELS } from '@sitewatch/contracts/dashboards';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { can } from '../../../lib/access.ts';
import { useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { useComponents, useDeleteComponent } from '../api.ts';
import { messageOf } from './errors.ts';

const LIMIT = 50;

/** Reusable components (one widget each) with view, edit and delete. */
export function ComponentList() {
  const user = useUser();
  const [page, setPage] = useState(1);
  const list = useComponents({ page, limit: LIMIT });
  const remove = useDeleteComponent();
  const [removing, setRemoving] = useState<DashboardComponent | null>(null);
  if (list.isLoading) return <PageLoader />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  const rows = list.data?.contents ?? [];
  if (rows.length === 0) {
    return (
      <Paper variant="outlined">
        <EmptyState compact title="No components yet" description="A component is a widget kept once and placed on many dashboards." />
      </Paper>
    );
  }
  const pages = Math.ceil((list.data?.totalCount ?? 0) / LIMIT);
  return (
    <Box>
      <Paper variant="outlined">
        <List disablePadding data-testid="component-list">
          {rows.map((c) => (
            <ListItem
              key={c.id}
              divider
              disablePadding
              data-testid={`component-${c.id}`}
              secondaryAction={
                <Box sx={{ display: 'flex', gap: 0.25 }}>
                  {can(user, 'change_dashboard') ? (
                    <IconButton size="small" aria-label={`Edit ${c.name}`} component={RouterLink} to={`/dashboards/component/${c.id}/edit`}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  ) : null}
                  {can(user, 'delete_dashboard') ? (
                    <IconButton size="small" aria-label={`Delete ${c.name}`} onClick={() => setRemoving(c)}>
                      <DeleteOutlined fontSize="small" />
                    </IconButton>
                  ) : null}
                </Box>
              }
              sx={{ pr: 12 }}
            >
              <ListItemButton component={RouterLink} to={`/dashboards/component/${c.id}/view`}>
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <WidgetsOutlined />
                </ListItemIcon>
                <ListItemText primary={c.name} secondary={`${WIDGET_KIND_LABELS[c.widget.kind]} · on ${c.usedBy} dashboards`} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Paper>
      {pages > 1 ? <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_e, p) => setPage(p)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        destructive
        title="Delete component?"
        text={removing ? `${removing.name} will be deleted. This cannot be undone.` : undefined}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => toast.success(DASHBOARD_MESSAGES.deleted),
            onError: (e) => toast.error(messageOf(e)),
            onSettled: () => setRemoving(null),
          })
        }
        onClose={() => setRemoving(null)}
      />
    </Box>
  );
}
