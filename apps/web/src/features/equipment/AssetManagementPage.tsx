import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DataGrid } from '@mui/x-data-grid';
import { EQUIPMENT_PERMISSIONS, WARRANTY_SOON_DAYS } from '@sitewatch/contracts/equipment';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { listLoading } from '../sites/hooks.ts';
import { useDenied } from '../users/RightsGate.tsx';
import { useEquipmentOverview } from './api.ts';

function Figure(props: { label: string; value: number | undefined; to?: string; tone?: 'warning.main' | 'error.main' }) {
  const body = (
    <Card variant="outlined" sx={{ minWidth: 150, flex: 1 }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {props.label}
        </Typography>
        <Typography variant="h5" sx={{ color: props.value ? props.tone : undefined }}>
          {props.value ?? '…'}
        </Typography>
      </CardContent>
    </Card>
  );
  return props.to ? (
    <Box component={Link} to={props.to} sx={{ textDecoration: 'none', flex: 1, display: 'flex' }}>
      {body}
    </Box>
  ) : (
    body
  );
}

/** /asset-management: equipment per site, with the warranties that need attention. */
export function AssetManagementPage() {
  const permissions = permissionsOf(useUser());
  const allowed = permissions.has(EQUIPMENT_PERMISSIONS.view);
  const overview = useEquipmentOverview(allowed);
  const denied = useDenied(allowed);
  if (denied) return denied;
  const totals = overview.data?.totals;
  return (
    <Box>
      <PageHeader
        title="Asset Management"
        actions={
          <Button variant="outlined" component={Link} to="/equipments">
            All equipment
          </Button>
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <Figure label="Equipment" value={totals?.total} to="/equipments" />
        <Figure label="Sites with equipment" value={totals?.sites} />
        <Figure
          label={`Warranty ending in ${WARRANTY_SOON_DAYS} days`}
          value={totals?.warrantyExpiringSoon}
          to="/equipments?warranty=expiring"
          tone="warning.main"
        />
        <Figure label="Warranty expired" value={totals?.warrantyExpired} to="/equipments?warranty=expired" tone="error.main" />
      </Stack>
      {overview.isError ? (
        <ErrorState onRetry={() => overview.refetch()} />
      ) : overview.data && overview.data.contents.length === 0 ? (
        <EmptyState title="No equipment yet" description="Equipment added on the Equipments page shows here per site." />
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }} data-testid="asset-overview">
          <DataGrid
            autoHeight
            loading={listLoading(overview)}
            rows={(overview.data?.contents ?? []).map((r) => ({ ...r, id: r.assetId }))}
            columns={[
              {
                field: 'siteName',
                headerName: 'Site',
                flex: 1,
                minWidth: 160,
                renderCell: (p) => <Link to={`/equipments?assetId=${p.row.assetId}`}>{p.row.siteName}</Link>,
              },
              { field: 'total', headerName: 'Equipment', width: 100 },
              { field: 'active', headerName: 'Active', width: 80 },
              { field: 'underMaintenance', headerName: 'In maintenance', width: 130 },
              { field: 'retired', headerName: 'Retired', width: 80 },
              { field: 'linked', headerName: 'With device', width: 110 },
              { field: 'warrantyExpiringSoon', headerName: 'Warranty ending', width: 140 },
              { field: 'warrantyExpired', headerName: 'Expired', width: 90 },
            ]}
            pageSizeOptions={[20, 50, 100]}
            initialState={{ pagination: { paginationModel: { pageSize: 20 } } }}
            disableColumnMenu
            disableRowSelectionOnClick
            sx={{ minWidth: 860 }}
          />
        </Box>
      )}
    </Box>
  );
}
