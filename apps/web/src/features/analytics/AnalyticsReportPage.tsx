import AddLinkOutlined from '@mui/icons-material/AddLinkOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type AnalyticsLink, RLS_COLUMN_LABELS, type RlsCondition } from '@sitewatch/contracts/dashboards';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { VisuallyHidden } from '../../components/VisuallyHidden.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { toast } from '../../lib/toasts.ts';
import { useAnalyticsReport, useLinks, useRevokeLink } from '../dashboards/api.ts';
import { messageOf } from '../dashboards/components/errors.ts';
import { LinkDialog } from './LinkDialog.tsx';

const LIMIT = 50;

export const conditionText = (c: RlsCondition) =>
  `${RLS_COLUMN_LABELS[`${c.dataset}.${c.column}`] ?? `${c.dataset}.${c.column}`} ${c.operator === 'eq' ? '=' : c.operator === 'in' ? 'in' : 'not in'} ${c.values.join(', ')}`;

const absolute = (path: string) => new URL(path, window.location.origin).toString();

async function copyLink(path: string) {
  try {
    await navigator.clipboard.writeText(absolute(path));
    toast.success('Copied');
  } catch {
    toast.error('Failed To Copy!');
  }
}

/** /analytics-report: analytics dashboards with their labels, the shared links with view counts, create and revoke. */
export function AnalyticsReportPage() {
  const report = useAnalyticsReport();
  const [page, setPage] = useState(1);
  const links = useLinks({ page, limit: LIMIT });
  const revoke = useRevokeLink();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<AnalyticsLink | null>(null);
  const pages = Math.ceil((links.data?.totalCount ?? 0) / LIMIT);
  return (
    <Box data-testid="analytics-report">
      <PageHeader
        title="Analytics report"
        actions={
          <Button variant="contained" startIcon={<AddLinkOutlined />} onClick={() => setCreating(true)} data-testid="create-link">
            Create link
          </Button>
        }
      />
      <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
        Analytics dashboards
      </Typography>
      {report.isLoading ? (
        <PageLoader />
      ) : report.isError ? (
        <ErrorState onRetry={() => void report.refetch()} />
      ) : (report.data?.contents.length ?? 0) === 0 ? (
        <Paper variant="outlined" sx={{ mb: 3 }}>
          <EmptyState compact title="No shared analytics dashboards" />
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined" sx={{ mb: 3 }}>
          <Table size="small" data-testid="report-table">
            <TableHead>
              <TableRow>
                <TableCell>Dashboard</TableCell>
                <TableCell>Label</TableCell>
                <TableCell>Conditions</TableCell>
                <TableCell align="right">Views</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.data?.contents.map((row) => (
                <TableRow key={row.linkId}>
                  <TableCell>
                    <RouterLink to={`/dashboards/${row.dashboardId}/view`}>{row.dashboardName}</RouterLink>
                  </TableCell>
                  <TableCell>{row.label}</TableCell>
                  <TableCell>{row.rls_conditions.map(conditionText).join('; ') || '—'}</TableCell>
                  <TableCell align="right">{row.viewCount}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
        Shared links
      </Typography>
      {links.isLoading ? (
        <PageLoader />
      ) : links.isError ? (
        <ErrorState onRetry={() => void links.refetch()} />
      ) : (links.data?.contents.length ?? 0) === 0 ? (
        <Paper variant="outlined">
          <EmptyState compact title="No links yet" description="Create a link to share an analytics dashboard without a sign-in." />
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" data-testid="links-table">
            <TableHead>
              <TableRow>
                <TableCell>Label</TableCell>
                <TableCell>Dashboard</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell align="right">Views</TableCell>
                <TableCell align="right">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {links.data?.contents.map((link) => (
                <TableRow key={link.id} data-testid={`link-${link.id}`}>
                  <TableCell>
                    {link.label}
                    {link.rls_conditions.length ? (
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                        {link.rls_conditions.map(conditionText).join('; ')}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>{link.dashboardName}</TableCell>
                  <TableCell>
                    <Chip size="small" label={link.state} color={link.state === 'active' ? 'success' : 'default'} />
                  </TableCell>
                  <TableCell>{formatDateTime(link.expiresAt)}</TableCell>
                  <TableCell align="right" data-testid="link-views">
                    {link.viewCount}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {link.path ? (
                      <Tooltip title="Copy link">
                        <IconButton
                          size="small"
                          aria-label={`Copy link ${link.label}`}
                          onClick={() => void copyLink(link.path as string)}
                          data-testid="link-copy"
                        >
                          <ContentCopyOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                    {link.state === 'active' ? (
                      <Tooltip title="Revoke">
                        <IconButton
                          size="small"
                          aria-label={`Revoke ${link.label}`}
                          onClick={() => setRevoking(link)}
                          data-testid="link-revoke"
                        >
                          <LinkOffOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {pages > 1 ? <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_e, p) => setPage(p)} /> : null}
      {creating ? (
        <LinkDialog
          onClose={() => setCreating(false)}
          onCreated={(link) => {
            setCreating(false);
            toast.success('Successfully Created');
            if (link.path) void copyLink(link.path);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        destructive
        title="Revoke this link?"
        text={revoking ? `${revoking.label}: anyone opening it will be refused. This cannot be undone.` : undefined}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => toast.success('Link revoked'),
            onError: (e) => toast.error(messageOf(e)),
            onSettled: () => setRevoking(null),
          })
        }
        onClose={() => setRevoking(null)}
      />
    </Box>
  );
}
