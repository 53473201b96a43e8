import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import { DEVICE_TYPE_LABELS, type Device, type DeviceType } from '@sitewatch/contracts/devices';
import { ROLE_LABELS, type Role } from '@sitewatch/contracts/roles';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { formatRelative } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useDevices } from '../devices/api.ts';
import { AlarmChip, Section, StatusChip } from '../devices/components.tsx';
import { MappingsPanel } from '../devices/MappingsPanel.tsx';
import { useAssetAlias } from './alias.ts';
import { useAsset } from './api.ts';
import { listLoading } from './hooks.ts';

/** /assets/view/{id}: a site, the people assigned to it, its devices in hierarchy order and its mappings. */
export function AssetViewPage() {
  const id = Number(useParams().id);
  const alias = useAssetAlias();
  const perms = permissionsOf(useUser());
  const asset = useAsset(id, { showRoles: true });
  const [page, setPage] = useState<GridPaginationModel>({ page: 0, pageSize: 50 });
  const devices = useDevices({ assetId: id, orderBy: 'name', page: page.page + 1, limit: page.pageSize });

  if (asset.isLoading) return <PageLoader />;
  const a = asset.data;
  if (!a) return <EmptyState title={`${alias} not found`} description={`It does not exist or is not assigned to you.`} />;
  const root = a.metadata.assetCode || a.name;
  const depth = (d: Device) => Math.max(0, d.name.slice(root.length + 1).split(':').length - 1);
  const columns: GridColDef<Device>[] = [
    {
      field: 'label',
      headerName: 'Device',
      flex: 1,
      minWidth: 200,
      sortable: false,
      renderCell: (p) => (
        <Box sx={{ pl: depth(p.row) * 2.5 }}>
          <Link to={`/devices/${p.row.id}/view`}>{p.row.label}</Link>
        </Box>
      ),
    },
    { field: 'type', headerName: 'Type', width: 140, sortable: false, valueFormatter: (v: DeviceType) => DEVICE_TYPE_LABELS[v] },
    { field: 'status', headerName: 'Status', width: 160, sortable: false, renderCell: (p) => <StatusChip status={p.row.status} /> },
    {
      field: 'alarmStatus',
      headerName: 'Alarm',
      width: 110,
      sortable: false,
      renderCell: (p) => <AlarmChip alarmStatus={p.row.alarmStatus} />,
    },
    {
      field: 'lastActivityAt',
      headerName: 'Last activity',
      width: 150,
      sortable: false,
      valueFormatter: (v: string | null) => (v ? formatRelative(v) : '—'),
    },
  ];

  return (
    <Box>
      <PageHeader
        title={a.name}
        subtitle={[a.metadata.assetCode, a.address.join(' / '), a.customerName].filter(Boolean).join(' · ')}
        actions={
          <>
            <Button component={Link} to={`/sitemonitoring?assetId=${a.id}`}>
              Site Dashboard
            </Button>
            {perms.has('add_device') ? (
              <Button component={Link} to={`/device/create?assetId=${a.id}`}>
                Add Device
              </Button>
            ) : null}
            {perms.has('change_asset') ? (
              <Button component={Link} to={`/assets/edit/${a.id}`} variant="contained">
                Edit {alias}
              </Button>
            ) : null}
          </>
        }
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { lg: '1fr 1fr' }, mb: 2 }}>
        <Section title="Details">
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: '140px 1fr', rowGap: 0.75, m: 0 }}>
            {(
              [
                ['Asset Code', a.metadata.assetCode ?? '—'],
                ['Merchant ID', a.metadata.merchantId ?? '—'],
                ['Address', a.address.join(' / ')],
                ['Location', a.latitude !== null && a.longitude !== null ? `${a.latitude}, ${a.longitude}` : '—'],
                ['Customer', a.customerName ?? '—'],
                ['Devices', String(a.deviceCount)],
              ] as const
            ).map(([k, v]) => (
              <Box key={k} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {k}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {v}
                </Typography>
              </Box>
            ))}
          </Box>
        </Section>
        <Section title="People">
          {a.roles && Object.keys(a.roles).length ? (
            <Box sx={{ display: 'grid', gap: 1 }} data-testid="asset-roles">
              {Object.entries(a.roles).map(([role, users]) => (
                <Box key={role}>
                  <Typography variant="caption" color="text.secondary">
                    {ROLE_LABELS[role as Role] ?? role}
                  </Typography>
                  <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                    {users.map((u) => (
                      <Chip key={u.id} size="small" label={u.name} title={u.email} />
                    ))}
                  </Box>
                </Box>
              ))}
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Nobody is assigned to this {alias.toLowerCase()} yet. Administrators see every {alias.toLowerCase()}.
            </Typography>
          )}
        </Section>
      </Box>
      <Section title="Devices">
        <DataGrid
          autoHeight
          rows={devices.data?.contents ?? []}
          columns={columns}
          loading={listLoading(devices)}
          rowCount={devices.data?.totalCount ?? 0}
          paginationMode="server"
          paginationModel={page}
          onPaginationModelChange={setPage}
          pageSizeOptions={[50, 100]}
          disableColumnMenu
          disableRowSelectionOnClick
          density="compact"
        />
      </Section>
      <Box sx={{ mt: 2 }}>
        <MappingsPanel fromType="ASSET" fromEntity={a.id} canEdit={perms.has('change_asset')} />
      </Box>
    </Box>
  );
}
