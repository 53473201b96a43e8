import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridRowSelectionModel } from '@mui/x-data-grid';
import type { User } from '@sitewatch/contracts/auth';
import { ROLE_LABELS, ROLES_SEEING_ALL_SITES, type Role } from '@sitewatch/contracts/roles';
import { DEVICE_PERMISSIONS, PERMISSION_MESSAGES, USER_ASSET_MESSAGES, type UserAsset } from '@sitewatch/contracts/users';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { countOf, formatDateTime } from '../../lib/format.ts';
import { fullName } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useAssetAlias } from './alias.ts';
import { useAssignAssets, useGroups, useSaveDevicePermissions, useUnassignAssets, useUserAssets, useUsers } from './api.ts';
import { listLoading, useDebounced, useListState } from './hooks.ts';
import { siteKeys } from './keys.ts';
import { ListToolbar } from './ListToolbar.tsx';
import { type Option, SitePicker } from './Pickers.tsx';

/** Administrators list users with their roles; a names-only row (what other users get) cannot be assigned sites. */
const isFullUser = (u: { id: number } & Partial<Pick<User, 'userRole'>>): u is User => Array.isArray(u.userRole);
const seesAll = (user: Pick<User, 'userRole'>) => user.userRole.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r));

function UserPicker({ value, onChange }: { value: User | null; onChange(user: User | null): void }) {
  const [input, setInput] = useState('');
  const searchText = useDebounced(input.trim(), 500);
  const users = useUsers({ searchText: searchText || undefined, limit: 15, orderBy: 'firstname' });
  return (
    <Autocomplete
      value={value}
      onChange={(_e, v) => onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      options={(users.data?.contents ?? []).filter(isFullUser)}
      filterOptions={(x) => x}
      getOptionLabel={(u) => `${fullName(u)} (${u.username})`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText="No Options Available!"
      renderInput={(params) => <TextField {...params} label="User" size="small" />}
      sx={{ minWidth: 320 }}
      data-testid="user-picker"
    />
  );
}

/** One address level picker: the children of the path, as the tree sees them. */
function LevelPicker({ path, value, onChange }: { path: string[]; value: string; onChange(level: string): void }) {
  const levels = useQuery({
    queryKey: siteKeys.tree(path),
    queryFn: () => api.get('/iotapp/assets/tree/', { query: { path, limit: 500 } }),
  });
  const options = (levels.data?.contents ?? []).filter((n) => n.nodeType === 'level');
  if (!options.length) return null;
  return (
    <TextField
      select
      size="small"
      label={path.length === 0 ? 'Country' : `Within ${path.at(-1)}`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 180 }}
    >
      <MenuItem value="">—</MenuItem>
      {options.map((n) => (
        <MenuItem key={n.id} value={n.text}>
          {n.text} ({n.count})
        </MenuItem>
      ))}
    </TextField>
  );
}

/** /assign-asset: which sites a user (whose role does not see every site) works on. */
export function AssignAssetPage() {
  const alias = useAssetAlias();
  const [search, setSearch] = useSearchParams();
  const userId = Number(search.get('userId')) || null;
  const preset = useUsers({ ids: userId ?? undefined, limit: 1 });
  const [user, setUser] = useState<User | null>(null);
  useEffect(() => {
    const first = preset.data?.contents[0];
    if (userId && first && isFullUser(first)) setUser(first);
  }, [userId, preset.data]);
  const list = useListState({ pageSize: 20 });
  const links = useUserAssets({
    userId: user?.id ?? null,
    page: list.query.page,
    limit: list.query.limit,
    searchText: list.query.searchText,
  });
  const assign = useAssignAssets();
  const unassign = useUnassignAssets();
  const [site, setSite] = useState<Option | null>(null);
  const [address, setAddress] = useState<string[]>([]);
  const [selection, setSelection] = useState<GridRowSelectionModel>({ type: 'include', ids: new Set() });

  const chooseUser = (u: User | null) => {
    setUser(u);
    setSearch(u ? { userId: String(u.id) } : {});
  };
  const done = (n: number) => showToast('success', USER_ASSET_MESSAGES.assigned(n));
  const columns: GridColDef<UserAsset>[] = [
    {
      field: 'name',
      headerName: alias,
      flex: 1,
      minWidth: 200,
      sortable: false,
      renderCell: (p) => <Link to={`/assets/view/${p.row.assetId}`}>{p.row.asset.name}</Link>,
    },
    {
      field: 'address',
      headerName: 'Address',
      flex: 1,
      minWidth: 220,
      sortable: false,
      valueGetter: (_v, row) => row.asset.address.join(' / '),
    },
    { field: 'createdAt', headerName: 'Assigned', width: 170, sortable: false, valueFormatter: (v: string) => formatDateTime(v) },
  ];
  const selected = [...selection.ids]
    .map((id) => (links.data?.contents ?? []).find((l) => l.id === Number(id))?.assetId)
    .filter((x): x is number => Boolean(x));

  return (
    <Box>
      <PageHeader
        title={`Assign ${alias}s`}
        subtitle={`A user whose role does not see every ${alias.toLowerCase()} sees only the ones assigned here, and their devices.`}
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <UserPicker value={user} onChange={chooseUser} />
        {user && seesAll(user) ? (
          <Alert severity="info">
            {ROLE_LABELS[user.userRole[0] as Role]} sees every {alias.toLowerCase()} already.
          </Alert>
        ) : null}
      </Paper>
      {user ? (
        <>
          <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'grid', gap: 2 }}>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
              <Box sx={{ minWidth: 300, flex: 1 }}>
                <SitePicker label={`Add a ${alias.toLowerCase()}`} value={site} onChange={setSite} />
              </Box>
              <Button
                variant="contained"
                disabled={!site || assign.isPending}
                onClick={() => {
                  if (!site) return;
                  assign.mutate(
                    { userId: user.id, assetIds: [site.id] },
                    {
                      onSuccess: (r) => {
                        done(r.assigned);
                        setSite(null);
                      },
                    },
                  );
                }}
                data-testid="assign-site"
              >
                Assign
              </Button>
            </Box>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
              <Typography variant="body2">Or every {alias.toLowerCase()} in</Typography>
              {[0, 1, 2].map((depth) =>
                depth <= address.length ? (
                  <LevelPicker
                    key={`${depth}:${address.slice(0, depth).join('/')}`}
                    path={address.slice(0, depth)}
                    value={address[depth] ?? ''}
                    onChange={(level) => setAddress(level ? [...address.slice(0, depth), level] : address.slice(0, depth))}
                  />
                ) : null,
              )}
              <Button
                variant="outlined"
                disabled={address.length === 0 || assign.isPending}
                onClick={() => assign.mutate({ userId: user.id, assetIds: [], address }, { onSuccess: (r) => done(r.assigned) })}
              >
                Assign all in {address.at(-1) ?? '…'}
              </Button>
            </Box>
          </Paper>
          <ListToolbar
            search={list.search}
            onSearch={list.setSearch}
            placeholder={`Search assigned ${alias.toLowerCase()}s`}
            filters={
              selected.length ? (
                <Button
                  color="error"
                  variant="outlined"
                  onClick={() =>
                    unassign.mutate(
                      { userId: user.id, assetIds: selected },
                      {
                        onSuccess: (r) => {
                          showToast('success', USER_ASSET_MESSAGES.removed(r.removed));
                          setSelection({ type: 'include', ids: new Set() });
                        },
                      },
                    )
                  }
                >
                  Remove {selected.length}
                </Button>
              ) : null
            }
          />
          <DataGrid
            autoHeight
            checkboxSelection
            rows={links.data?.contents ?? []}
            columns={columns}
            loading={listLoading(links)}
            rowCount={links.data?.totalCount ?? 0}
            paginationMode="server"
            paginationModel={list.pagination}
            onPaginationModelChange={list.setPagination}
            pageSizeOptions={[20, 50, 100]}
            rowSelectionModel={selection}
            onRowSelectionModelChange={setSelection}
            disableColumnMenu
          />
        </>
      ) : null}
    </Box>
  );
}

/** /device-permission: the device and site codenames each group grants. */
export function DevicePermissionPage() {
  const groups = useGroups();
  const save = useSaveDevicePermissions();
  const [draft, setDraft] = useState<Record<number, Set<string>>>({});
  useEffect(() => {
    if (groups.data) setDraft(Object.fromEntries(groups.data.contents.map((g) => [g.id, new Set(g.permissions.map((p) => p.codename))])));
  }, [groups.data]);
  const toggle = (groupId: number, codename: string) =>
    setDraft((d) => {
      const next = new Set(d[groupId]);
      if (next.has(codename)) next.delete(codename);
      else next.add(codename);
      return { ...d, [groupId]: next };
    });
  return (
    <Box>
      <PageHeader title="Device Permissions" subtitle="Permissions come from a user's first group and apply at once." />
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Permission</TableCell>
              {(groups.data?.contents ?? []).map((g) => (
                <TableCell key={g.id} align="center">
                  {g.name}
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {countOf(g.userCount, 'user')}
                  </Typography>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {DEVICE_PERMISSIONS.map((p) => (
              <TableRow key={p.codename}>
                <TableCell>
                  {p.name}
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {p.codename}
                  </Typography>
                </TableCell>
                {(groups.data?.contents ?? []).map((g) => (
                  <TableCell key={g.id} align="center">
                    <Checkbox
                      checked={Boolean(draft[g.id]?.has(p.codename))}
                      onChange={() => toggle(g.id, p.codename)}
                      slotProps={{ input: { 'aria-label': `${p.name} for ${g.name}` } }}
                    />
                  </TableCell>
                ))}
              </TableRow>
            ))}
            <TableRow>
              <TableCell />
              {(groups.data?.contents ?? []).map((g) => (
                <TableCell key={g.id} align="center">
                  <Button
                    size="small"
                    variant="contained"
                    disabled={save.isPending}
                    onClick={() =>
                      save.mutate(
                        { groupId: g.id, codenames: DEVICE_PERMISSIONS.map((p) => p.codename).filter((c) => draft[g.id]?.has(c)) },
                        { onSuccess: () => showToast('success', PERMISSION_MESSAGES.updated) },
                      )
                    }
                  >
                    Save
                  </Button>
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </Paper>
    </Box>
  );
}
