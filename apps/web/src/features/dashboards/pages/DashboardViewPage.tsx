import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { DASHBOARD_MESSAGES, type DashboardDetail } from '@sitewatch/contracts/dashboards';
import { Link as RouterLink, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { loadState } from '../../../components/LoadState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { can } from '../../../lib/access.ts';
import { useUser } from '../../../lib/session.ts';
import { useDashboard } from '../api.ts';
import { FolderCrumbs } from '../components/FolderCrumbs.tsx';
import { DashboardCanvas } from '../grid/DashboardCanvas.tsx';

/** An external page dashboard (`layouts.src`) in a frame that may not reach this app's session. */
export function ExternalPage({ src, title }: { src: string; title: string }) {
  return (
    <Box
      component="iframe"
      src={src}
      title={title}
      sandbox="allow-scripts allow-same-origin allow-popups allow-forms"
      referrerPolicy="no-referrer"
      data-testid="external-page"
      sx={{ width: '100%', height: 'calc(100vh - 200px)', minHeight: 400, border: 0, borderRadius: 1, bgcolor: 'background.paper' }}
    />
  );
}

export function DashboardBody({ dashboard }: { dashboard: DashboardDetail }) {
  if (dashboard.layouts.src) return <ExternalPage src={dashboard.layouts.src} title={dashboard.name} />;
  if (dashboard.widgets.length === 0) return <EmptyState title="This dashboard has no widgets yet" data-testid="dashboard-empty" />;
  return (
    <DashboardCanvas
      widgets={dashboard.widgets}
      layouts={dashboard.layouts}
      components={dashboard.components}
      sourceOf={(widget) => ({ kind: 'saved', dashboardId: dashboard.id, widgetId: widget.id })}
    />
  );
}

/** SPEC 2.5: the folder path; with titleAsBreadCrumb the dashboard's name stands in for the path's last item. */
export const dashboardCrumbs = (d: Pick<DashboardDetail, 'path' | 'name' | 'config'>) =>
  d.config.titleAsBreadCrumb ? { path: d.path.slice(0, -1), last: d.name } : { path: d.path };

/** /dashboards/{id}/view: the dashboard, live; the breadcrumb follows its folder path. */
export function DashboardViewPage() {
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const valid = Number.isInteger(id) && id > 0;
  const user = useUser();
  const dashboard = useDashboard(valid ? id : 0, valid);
  const state = loadState(dashboard, { title: DASHBOARD_MESSAGES.notFound, back: { to: '/dashboards', label: 'Dashboards' } }, valid);
  if (state || !dashboard.data) return state;
  const data = dashboard.data;
  return (
    <Box data-testid="dashboard-view">
      <FolderCrumbs {...dashboardCrumbs(data)} />
      <PageHeader
        title={data.name}
        actions={
          can(user, 'change_dashboard') || (data.createdBy?.id === user?.id && can(user, 'add_dashboard')) ? (
            <Button startIcon={<EditOutlined />} component={RouterLink} to={`/dashboards/${data.id}/edit`} data-testid="edit-dashboard">
              Edit
            </Button>
          ) : undefined
        }
      />
      <DashboardBody dashboard={data} />
    </Box>
  );
}
