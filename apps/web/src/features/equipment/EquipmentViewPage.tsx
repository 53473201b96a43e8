import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { EQUIPMENT_MESSAGES, EQUIPMENT_PERMISSIONS, EQUIPMENT_STATUS_LABELS } from '@sitewatch/contracts/equipment';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { isHttpError } from '../../lib/http.ts';
import { usePageCrumb } from '../../lib/page-crumb.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { StatusChip } from '../helpdesk/tickets/components.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { useDeleteEquipment, useEquipment, useEquipmentHistory } from './api.ts';
import { EquipmentDialog } from './EquipmentDialog.tsx';
import { WarrantyChip } from './WarrantyChip.tsx';

/** /equipments/{id}: one equipment and its maintenance history from tickets. */
export function EquipmentViewPage() {
  const id = Number(useParams().id);
  const permissions = permissionsOf(useUser());
  const navigate = useNavigate();
  const allowed = permissions.has(EQUIPMENT_PERMISSIONS.view);
  const equipment = useEquipment(id, allowed && id > 0);
  const history = useEquipmentHistory(id, allowed && equipment.isSuccess);
  const remove = useDeleteEquipment();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const denied = useDenied(allowed);
  usePageCrumb(equipment.data ? nameWithSite(equipment.data.name, equipment.data.siteName) : null);
  if (denied) return denied;
  if (equipment.isPending) return <PageLoader />;
  if (equipment.isError)
    return isHttpError(equipment.error) && equipment.error.status === 404 ? (
      <EmptyState
        data-testid="not-found-state"
        title="Equipment not found"
        description="It was removed, or it is at a site you do not see."
        action={
          <Button component={Link} to="/equipments" variant="outlined">
            All equipment
          </Button>
        }
      />
    ) : (
      <ErrorState onRetry={() => equipment.refetch()} />
    );
  const e = equipment.data;
  const facts: Array<[string, React.ReactNode]> = [
    ['Site', e.siteName],
    ['Category', e.category],
    ['Make', e.make || '—'],
    ['Model', e.model || '—'],
    ['Serial number', e.serial],
    ['Install date', e.installDate ?? '—'],
    ['Warranty until', <WarrantyChip key="w" until={e.warrantyUntil} />],
    [
      'Linked device',
      e.deviceId ? (
        <Link key="d" to={`/devices/${e.deviceId}/view`}>
          {e.deviceLabel ?? `#${e.deviceId}`}
        </Link>
      ) : (
        '—'
      ),
    ],
    ['Status', EQUIPMENT_STATUS_LABELS[e.status]],
  ];
  return (
    <Box>
      <PageHeader
        title={<SiteNamed label={e.name} site={e.siteName} />}
        actions={
          <Stack direction="row" spacing={1}>
            {permissions.has(EQUIPMENT_PERMISSIONS.change) ? (
              <Button variant="outlined" onClick={() => setEditing(true)}>
                Edit
              </Button>
            ) : null}
            {permissions.has(EQUIPMENT_PERMISSIONS.delete) ? (
              <Button color="error" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            ) : null}
          </Stack>
        }
      />
      {editing ? <EquipmentDialog open equipment={e} onClose={() => setEditing(false)} /> : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete '${e.name}'?`}
        text="This removes the equipment record. Its tickets stay in the helpdesk."
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(e.id, {
            onSuccess: () => {
              toast.success(EQUIPMENT_MESSAGES.deleted);
              navigate('/equipments');
            },
          })
        }
      />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Card variant="outlined" sx={{ flex: 1, width: '100%' }}>
          <CardContent>
            <Box
              component="dl"
              sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, m: 0 }}
              data-testid="equipment-facts"
            >
              {facts.map(([label, value]) => (
                <Box key={label} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                    {value}
                  </Typography>
                </Box>
              ))}
            </Box>
            {e.notes ? (
              <Typography variant="body2" sx={{ mt: 2, whiteSpace: 'pre-wrap' }}>
                {e.notes}
              </Typography>
            ) : null}
          </CardContent>
        </Card>
        <Card variant="outlined" sx={{ flex: 1, width: '100%' }}>
          <CardContent>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }} gutterBottom>
              Maintenance history
            </Typography>
            {history.isError ? (
              <ErrorState onRetry={() => history.refetch()} />
            ) : (history.data?.contents.length ?? 0) === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {history.isPending ? 'Loading…' : 'No tickets on its linked device or naming its serial number.'}
              </Typography>
            ) : (
              <List dense disablePadding data-testid="equipment-history">
                {history.data?.contents.map((t) => (
                  <ListItem key={t.id} disableGutters secondaryAction={<StatusChip status={t.status} />}>
                    <ListItemText
                      primary={<Link to={`/tickets/all/view/?ticketId=${t.id}`}>{`${t.ticketId} · ${t.title}`}</Link>}
                      secondary={`${formatDateTime(t.createdAt)} · ${t.reason === 'device' ? 'on its device' : 'names its serial'}`}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}
