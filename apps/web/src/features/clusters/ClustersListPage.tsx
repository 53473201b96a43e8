import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { GridColDef } from '@mui/x-data-grid';
import { CLUSTER_MESSAGES, CLUSTER_PERMISSIONS, type Cluster } from '@sitewatch/contracts/clusters';
import { Link } from 'react-router';
import { useDeleteConfirmation } from '../../components/DeleteConfirmation.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useListState } from '../sites/hooks.ts';
import { ListGrid } from '../sites/ListGrid.tsx';
import { ListToolbar } from '../sites/ListToolbar.tsx';
import { useDenied } from '../users/RightsGate.tsx';
import { useClusters, useDeleteCluster } from './api.ts';

const personName = (p: Cluster['cityLead']) => (p ? `${p.name}${p.isActive ? '' : ' (deactivated)'}` : '—');

/** /cluster-view: named groups of sites with their city lead, area head and regional head. */
export function ClustersListPage() {
  const permissions = permissionsOf(useUser());
  const list = useListState({ orderBy: 'name' });
  const mayView = permissions.has(CLUSTER_PERMISSIONS.view);
  const clusters = useClusters(list.query, mayView);
  const remove = useDeleteCluster();
  const confirm = useDeleteConfirmation<{ id: number; name: string }>({
    mutation: remove,
    text: 'This removes the cluster. Its sites and leads stay as they are.',
    successMessage: CLUSTER_MESSAGES.deleted,
  });
  const denied = useDenied(mayView);
  if (denied) return denied;

  const columns: GridColDef<Cluster>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 180,
      renderCell: (p) => (p.row.can.change ? <Link to={`/cluster-view/${p.row.id}/edit`}>{p.row.name}</Link> : p.row.name),
    },
    { field: 'cityLead', headerName: 'City lead', width: 160, sortable: false, valueGetter: (_v, row) => personName(row.cityLead) },
    { field: 'areaHead', headerName: 'Area head', width: 160, sortable: false, valueGetter: (_v, row) => personName(row.areaHead) },
    {
      field: 'regionalHead',
      headerName: 'Regional head',
      width: 160,
      sortable: false,
      valueGetter: (_v, row) => personName(row.regionalHead),
    },
    {
      field: 'sites',
      headerName: 'Sites',
      flex: 1,
      minWidth: 180,
      sortable: false,
      valueGetter: (_v, row) => `${row.siteCount}${row.sites.length ? `: ${row.sites.map((s) => s.name).join(', ')}` : ''}`,
    },
    {
      field: 'actions',
      headerName: '',
      width: 150,
      sortable: false,
      renderCell: (p) => (
        <>
          {p.row.can.change ? (
            <Button size="small" component={Link} to={`/cluster-view/${p.row.id}/edit`}>
              Edit
            </Button>
          ) : null}
          {p.row.can.delete ? (
            <Button
              size="small"
              color="error"
              onClick={() => confirm.ask({ id: p.row.id, name: p.row.name })}
              aria-label={`Delete ${p.row.name}`}
            >
              Delete
            </Button>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <Box>
      <PageHeader
        title="Clusters"
        actions={
          permissions.has(CLUSTER_PERMISSIONS.add) ? (
            <Button variant="contained" component={Link} to="/cluster-view/create" data-testid="add-cluster">
              Add cluster
            </Button>
          ) : null
        }
      />
      <ListToolbar search={list.search} onSearch={list.setSearch} placeholder="Search cluster name" />
      {confirm.dialog}
      {clusters.isError ? (
        <ErrorState onRetry={() => clusters.refetch()} />
      ) : clusters.data && clusters.data.totalCount === 0 && !list.query.searchText ? (
        <EmptyState title="No clusters yet" description="Group sites into clusters with their city lead, area head and regional head." />
      ) : (
        <ListGrid list={list} page={clusters.data} columns={columns} result={clusters} noRowsLabel="No clusters match" minWidth={900} />
      )}
    </Box>
  );
}
