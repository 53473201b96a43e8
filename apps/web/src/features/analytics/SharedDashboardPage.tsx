import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DASHBOARD_MESSAGES, type LinkRefusal } from '@sitewatch/contracts/dashboards';
import { useParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { isHttpError } from '../../lib/http.ts';
import { useSharedDashboard } from '../dashboards/api.ts';
import { DashboardCanvas } from '../dashboards/grid/DashboardCanvas.tsx';
import { ExternalPage } from '../dashboards/pages/DashboardViewPage.tsx';

/** The words for a refused link: expired and revoked say so; anything else (tampered, unknown) is "not valid". */
export function refusalMessage(error: unknown): string {
  // the server's code is the refusal prefixed with `link_` (link_expired, link_revoked, link_tampered, …)
  const raw = isHttpError(error) ? (error.data as { code?: string } | null)?.code : undefined;
  const code = raw?.replace(/^link_/, '') as LinkRefusal | undefined;
  if (code === 'expired') return DASHBOARD_MESSAGES.linkExpired;
  if (code === 'revoked') return DASHBOARD_MESSAGES.linkRevoked;
  return DASHBOARD_MESSAGES.linkRefused;
}

function Refusal({ message }: { message: string }) {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Paper variant="outlined" sx={{ p: 4, maxWidth: 420, textAlign: 'center' }} data-testid="link-refused" role="alert">
        <LinkOffOutlined sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
        <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
          {message}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          Ask the person who shared it for a new link.
        </Typography>
      </Paper>
    </Box>
  );
}

/**
 * /analytics-dashboard/{id}/{token}: a shared analytics dashboard, no session, no bars (also inside a frame).
 * Widgets run through the link's own widget query (the server applies the link's row conditions); without a push
 * socket they refresh at the dashboard's refresh interval.
 */
export function SharedDashboardPage() {
  const params = useParams();
  const dashboardId = Number(params.id);
  const token = params.token ?? '';
  const valid = Number.isInteger(dashboardId) && dashboardId > 0 && /^[A-Za-z0-9_.-]{34,4000}$/.test(token);
  const shared = useSharedDashboard(valid ? dashboardId : 0, valid ? token : '');
  if (!valid) return <Refusal message={DASHBOARD_MESSAGES.linkRefused} />;
  if (shared.isPending) return <PageLoader fullScreen />;
  if (shared.isError || !shared.data) return <Refusal message={refusalMessage(shared.error)} />;
  const { dashboard, label } = shared.data;
  const refresh = Math.max(5, dashboard.config.settings.refreshInterval) * 1000;
  return (
    <Box component="main" sx={{ p: { xs: 1, sm: 2 }, minHeight: '100vh', bgcolor: 'background.default' }} data-testid="shared-dashboard">
      <Typography variant="h5" component="h1" sx={{ mb: 0.5 }}>
        {dashboard.name}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {label}
      </Typography>
      {dashboard.layouts.src ? (
        <ExternalPage src={dashboard.layouts.src} title={dashboard.name} />
      ) : (
        <DashboardCanvas
          widgets={dashboard.widgets}
          layouts={dashboard.layouts}
          components={dashboard.components}
          refetchInterval={refresh}
          sourceOf={(widget) => ({ kind: 'shared', dashboardId, token, widgetId: widget.id })}
        />
      )}
    </Box>
  );
}
