import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { DataGrid, GridActionsCellItem, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import { type EntityKind, type EntityMapping, RELATION_TYPES } from '@sitewatch/contracts/devices';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useAssetAlias } from '../sites/alias.ts';
import { listLoading } from '../sites/hooks.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useDeleteMapping, useMappings } from './api.ts';
import { MappingsPanel } from './MappingsPanel.tsx';

const linkOf = (kind: EntityKind, id: number) => (kind === 'ASSET' ? `/assets/view/${id}` : `/devices/${id}/view`);

/** /entity-mapping: every mapping by relation type, and the mappings of one site or device with add and remove. */
export function EntityMappingPage() {
  const alias = useAssetAlias();
  const canEdit = permissionsOf(useUser()).has('change_device');
  const [relationType, setRelationType] = useState('');
  const [page, setPage] = useState<GridPaginationModel>({ page: 0, pageSize: 50 });
  const mappings = useMappings({ relationType: relationType || undefined, page: page.page + 1, limit: page.pageSize });
  const remove = useDeleteMapping();
  const [fromType, setFromType] = useState<EntityKind>('DEVICE');
  const [from, setFrom] = useState<Option | null>(null);

  const end = (kind: EntityKind, e: EntityMapping['toEntity']) => <Link to={linkOf(kind, e.id)}>{e.label}</Link>;
  const columns: GridColDef<EntityMapping>[] = [
    { field: 'relationType', headerName: 'Relation', width: 200 },
    {
      field: 'from',
      headerName: 'From',
      flex: 1,
      minWidth: 200,
      sortable: false,
      renderCell: (p) => end(p.row.fromType, p.row.fromEntity),
    },
    { field: 'to', headerName: 'To', flex: 1, minWidth: 200, sortable: false, renderCell: (p) => end(p.row.toType, p.row.toEntity) },
    { field: 'createdAt', headerName: 'Created', width: 170, valueFormatter: (v: string) => formatDateTime(v) },
    {
      field: 'actions',
      type: 'actions',
      width: 60,
      getActions: (p) =>
        canEdit ? [<GridActionsCellItem key="d" icon={<DeleteOutline />} label="Remove" onClick={() => remove.mutate(p.row.id)} />] : [],
    },
  ];

  return (
    <Box>
      <PageHeader title="Entity Mapping" subtitle={`Cameras, ${alias.toLowerCase()}s and devices that belong together`} />
      <Paper variant="outlined" sx={{ p: 2, mb: 3, display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            label="From"
            value={fromType}
            onChange={(e) => {
              setFromType(e.target.value as EntityKind);
              setFrom(null);
            }}
            sx={{ width: 160 }}
          >
            <MenuItem value="DEVICE">Device</MenuItem>
            <MenuItem value="ASSET">{alias}</MenuItem>
          </TextField>
          <Box sx={{ flex: 1, minWidth: 260 }}>
            {fromType === 'ASSET' ? (
              <SitePicker label={alias} value={from} onChange={setFrom} />
            ) : (
              <DevicePicker label="Device" value={from} onChange={setFrom} />
            )}
          </Box>
        </Box>
        {from ? <MappingsPanel fromType={fromType} fromEntity={from.id} canEdit={canEdit} /> : null}
      </Paper>
      <Box sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label="Relation"
          value={relationType}
          onChange={(e) => setRelationType(e.target.value)}
          sx={{ width: 260 }}
        >
          <MenuItem value="">All relations</MenuItem>
          {RELATION_TYPES.map((r) => (
            <MenuItem key={r} value={r}>
              {r}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <DataGrid
        autoHeight
        rows={mappings.data?.contents ?? []}
        columns={columns}
        loading={listLoading(mappings)}
        rowCount={mappings.data?.totalCount ?? 0}
        paginationMode="server"
        paginationModel={page}
        onPaginationModelChange={setPage}
        pageSizeOptions={[50, 100]}
        disableColumnMenu
        disableRowSelectionOnClick
      />
    </Box>
  );
}
