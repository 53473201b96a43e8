import AddOutlined from '@mui/icons-material/AddOutlined';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { can } from '../../../lib/access.ts';
import { useUser } from '../../../lib/session.ts';
import { useDashboardList, useFolders } from '../api.ts';
import { ComponentList } from '../components/ComponentList.tsx';
import { DirectoryList } from '../components/DirectoryList.tsx';
import { FolderDialog } from '../components/FolderDialog.tsx';

/** /dashboards: the top-level folders and dashboards, and the reusable components. */
export function DashboardsPage() {
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'components' ? 'components' : 'dashboards';
  const [newFolder, setNewFolder] = useState(false);
  const folders = useFolders();
  const dashboards = useDashboardList({ folderId: 'root', limit: 200 }, tab === 'dashboards');
  const mayAdd = can(user, 'add_dashboard');
  return (
    <Box data-testid="dashboards-page">
      <PageHeader
        title="Dashboards"
        actions={
          mayAdd ? (
            tab === 'dashboards' ? (
              <>
                <Button startIcon={<CreateNewFolderOutlined />} onClick={() => setNewFolder(true)} data-testid="new-folder">
                  New folder
                </Button>
                <Button
                  variant="contained"
                  startIcon={<AddOutlined />}
                  component={RouterLink}
                  to="/dashboards/create"
                  data-testid="create-dashboard"
                >
                  Create
                </Button>
              </>
            ) : (
              <Button
                variant="contained"
                startIcon={<AddOutlined />}
                component={RouterLink}
                to="/dashboards/component/create"
                data-testid="create-component"
              >
                Create component
              </Button>
            )
          ) : undefined
        }
      />
      <Tabs
        value={tab}
        onChange={(_e, value: string) => setParams(value === 'components' ? { tab: 'components' } : {}, { replace: true })}
        sx={{ mb: 2 }}
      >
        <Tab value="dashboards" label="Dashboards" data-testid="tab-dashboards" />
        <Tab value="components" label="Components" data-testid="tab-components" />
      </Tabs>
      {tab === 'components' ? (
        <ComponentList />
      ) : folders.isLoading || dashboards.isLoading ? (
        <PageLoader />
      ) : folders.isError || dashboards.isError ? (
        <ErrorState
          onRetry={() => {
            void folders.refetch();
            void dashboards.refetch();
          }}
        />
      ) : (
        <DirectoryList
          parentId={null}
          folders={(folders.data?.contents ?? []).filter((f) => f.parentId === null)}
          dashboards={dashboards.data?.contents ?? []}
        />
      )}
      {newFolder ? <FolderDialog folder={null} parentId={null} onClose={() => setNewFolder(false)} /> : null}
    </Box>
  );
}
