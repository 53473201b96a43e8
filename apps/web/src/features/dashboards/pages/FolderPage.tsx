import AddOutlined from '@mui/icons-material/AddOutlined';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { loadState } from '../../../components/LoadState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { can } from '../../../lib/access.ts';
import { useUser } from '../../../lib/session.ts';
import { useFolder } from '../api.ts';
import { DirectoryList } from '../components/DirectoryList.tsx';
import { FolderCrumbs } from '../components/FolderCrumbs.tsx';
import { FolderDialog } from '../components/FolderDialog.tsx';

/** /folder/{folderId}: a folder's sub-folders and dashboards; the breadcrumb follows its path. */
export function FolderPage() {
  const { folderId } = useParams();
  const id = Number(folderId);
  const valid = Number.isInteger(id) && id > 0;
  const user = useUser();
  const folder = useFolder(valid ? id : 0);
  const [newFolder, setNewFolder] = useState(false);
  const state = loadState(folder, { title: 'Folder not found', back: { to: '/dashboards', label: 'Dashboards' } }, valid);
  if (state || !folder.data) return state;
  const data = folder.data;
  const path = data.path.some((p) => p.id === data.id) ? data.path : [...data.path, { id: data.id, name: data.name }];
  const mayAdd = can(user, 'add_dashboard');
  return (
    <Box data-testid="folder-page">
      <FolderCrumbs path={path} />
      <PageHeader
        title={data.name}
        actions={
          mayAdd ? (
            <>
              <Button startIcon={<CreateNewFolderOutlined />} onClick={() => setNewFolder(true)} data-testid="new-folder">
                New folder
              </Button>
              <Button
                variant="contained"
                startIcon={<AddOutlined />}
                component={RouterLink}
                to={`/dashboards/create?folderId=${data.id}`}
                data-testid="create-dashboard"
              >
                Create
              </Button>
            </>
          ) : undefined
        }
      />
      <DirectoryList parentId={data.id} folders={data.folders} dashboards={data.dashboards} />
      {newFolder ? <FolderDialog folder={null} parentId={data.id} onClose={() => setNewFolder(false)} /> : null}
    </Box>
  );
}
