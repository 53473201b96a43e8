import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { GROUP_MESSAGES, GROUP_PERMISSIONS, groupInputSchema, type PermissionGroup } from '@sitewatch/contracts/permissions';
import { USER_PERMISSIONS } from '@sitewatch/contracts/user-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { api } from '../../lib/api.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { fullName, permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { userKeys } from '../users/keys.ts';
import { useDenied } from '../users/RightsGate.tsx';
import {
  type CatalogueEntry,
  type Member,
  useAssignGroup,
  useCatalogue,
  useDeleteGroup,
  useMembers,
  usePermissionGroups,
  useSaveGroup,
} from './api.ts';

const errorText = (error: unknown, fallback: string) => (isHttpError(error) && detailOf(error.data)) || fallback;

/** /permissions/: each group's permissions by codename and name, and the users the group is the first group of. */
export function PermissionsPage() {
  const me = useUser();
  const mine = permissionsOf(me);
  const groups = usePermissionGroups();
  const catalogue = useCatalogue();
  const [selected, setSelected] = useState<number | 'new' | null>(null);

  useEffect(() => {
    if (selected === null && groups.data?.contents[0]) setSelected(groups.data.contents[0].id);
  }, [groups.data, selected]);

  const denied = useDenied(mine.has(GROUP_PERMISSIONS.view));
  if (denied) return denied;
  if (groups.isLoading || catalogue.isLoading) return <PageLoader />;
  if (groups.isError || catalogue.isError) return <ErrorState onRetry={() => Promise.all([groups.refetch(), catalogue.refetch()])} />;
  const list = groups.data?.contents ?? [];
  const group = typeof selected === 'number' ? list.find((g) => g.id === selected) : undefined;

  return (
    <Box>
      <PageHeader
        title="Permissions"
        actions={
          mine.has(GROUP_PERMISSIONS.add) ? (
            <Button variant="contained" onClick={() => setSelected('new')} data-testid="new-group">
              New group
            </Button>
          ) : null
        }
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '260px 1fr' }, alignItems: 'start' }}>
        <Paper variant="outlined">
          {/* list items hold the buttons (a list holds only items) */}
          <List dense aria-label="Groups">
            {list.map((g) => (
              <ListItem key={g.id} disablePadding>
                <ListItemButton
                  selected={g.id === selected}
                  aria-current={g.id === selected ? 'true' : undefined}
                  onClick={() => setSelected(g.id)}
                >
                  <ListItemText
                    primary={g.name}
                    secondary={`${g.userCount} user${g.userCount === 1 ? '' : 's'} · ${g.permissions.length} permissions`}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          {list.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              No groups yet.
            </Typography>
          ) : null}
        </Paper>
        {selected === 'new' ? (
          <GroupEditor key="new" group={null} catalogue={catalogue.data?.contents ?? []} mine={mine} onSaved={(g) => setSelected(g.id)} />
        ) : group ? (
          <GroupEditor
            key={group.id}
            group={group}
            catalogue={catalogue.data?.contents ?? []}
            mine={mine}
            onSaved={() => undefined}
            onDeleted={() => setSelected(null)}
          />
        ) : null}
      </Box>
    </Box>
  );
}

function GroupEditor(props: {
  group: PermissionGroup | null;
  catalogue: CatalogueEntry[];
  mine: Set<string>;
  onSaved(group: PermissionGroup): void;
  onDeleted?: () => void;
}) {
  const { group, catalogue, mine } = props;
  const editable = group ? group.can.change : mine.has(GROUP_PERMISSIONS.add);
  const [name, setName] = useState(group?.name ?? '');
  const [codenames, setCodenames] = useState<Set<string>>(new Set(group?.permissions.map((p) => p.codename) ?? []));
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const save = useSaveGroup();
  const remove = useDeleteGroup();
  const areas = useMemo(() => [...new Set(catalogue.map((p) => p.area))], [catalogue]);

  const toggle = (codename: string, on: boolean) =>
    setCodenames((current) => {
      const next = new Set(current);
      if (on) next.add(codename);
      else next.delete(codename);
      return next;
    });

  const submit = () => {
    const parsed = groupInputSchema.safeParse({ name, codenames: [...codenames].filter((c) => catalogue.some((p) => p.codename === c)) });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the form');
    setError(null);
    save.mutate(
      { id: group?.id ?? null, input: parsed.data },
      {
        onSuccess: (saved) => {
          showToast('success', group ? GROUP_MESSAGES.updated : GROUP_MESSAGES.created);
          props.onSaved(saved);
        },
        onError: (e) => setError(errorText(e, 'Failed to save the group')),
      },
    );
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }} data-testid="group-editor">
        {error ? <Alert severity="error">{error}</Alert> : null}
        {group && !group.can.change ? (
          <Alert severity="info">This group holds rights you do not have: you can read it but not change it.</Alert>
        ) : null}
        <TextField label="Group name" required value={name} onChange={(e) => setName(e.target.value)} disabled={!editable} />
        {areas.map((area) => (
          <Box key={area} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
              {area}
            </Typography>
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
              {catalogue
                .filter((p) => p.area === area)
                .map((p) => (
                  <FormControlLabel
                    key={p.codename}
                    label={
                      <span>
                        {p.name}{' '}
                        <Typography component="span" variant="caption" color="text.secondary">
                          {p.codename}
                        </Typography>
                      </span>
                    }
                    control={
                      <Checkbox
                        checked={codenames.has(p.codename)}
                        onChange={(e) => toggle(p.codename, e.target.checked)}
                        // Only rights the admin holds can be granted.
                        disabled={!editable || !mine.has(p.codename)}
                      />
                    }
                  />
                ))}
            </Box>
          </Box>
        ))}
        {editable || group?.can.delete ? (
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
            {group?.can.delete ? (
              <Button color="error" onClick={() => setConfirmDelete(true)}>
                Delete group
              </Button>
            ) : null}
            {editable ? (
              <Button variant="contained" onClick={submit} disabled={save.isPending} data-testid="save-group">
                {group ? 'Save' : 'Create group'}
              </Button>
            ) : null}
          </Box>
        ) : null}
      </Paper>
      {group ? <Members group={group} mine={mine} /> : null}
      {group ? (
        <ConfirmDialog
          open={confirmDelete}
          title="Delete this group?"
          text={`The group ${group.name} and its permissions are removed.`}
          confirmLabel="Delete"
          destructive
          busy={remove.isPending}
          onConfirm={() =>
            remove.mutate(group.id, {
              onSuccess: () => {
                setConfirmDelete(false);
                showToast('success', GROUP_MESSAGES.deleted);
                props.onDeleted?.();
              },
              onError: (e) => {
                setConfirmDelete(false);
                showToast('error', errorText(e, 'Failed to delete the group'));
              },
            })
          }
          onClose={() => setConfirmDelete(false)}
        />
      ) : null}
    </Box>
  );
}

function Members({ group, mine }: { group: PermissionGroup; mine: Set<string> }) {
  const members = useMembers(group.id);
  const assign = useAssignGroup();
  const [chosen, setChosen] = useState<Member[]>([]);
  const [input, setInput] = useState('');
  const searchText = useDebounced(input.trim(), 500);
  const mayAssign = group.can.change && mine.has(USER_PERMISSIONS.change);
  const candidates = useQuery({
    queryKey: userKeys.picker(searchText),
    enabled: mayAssign,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/iotapp/users/', { query: { limit: 15, searchText: searchText || undefined }, toast: false }),
  });
  const memberIds = new Set(members.data?.contents.map((m) => m.id));
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 1.5 }}>
      <Typography variant="h6" component="h2">
        Users in this group
      </Typography>
      {members.data?.contents.length ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {members.data.contents.map((m) =>
            mine.has(USER_PERMISSIONS.view) ? (
              <Chip key={m.id} size="small" label={fullName(m)} component={Link} to={`/user-details/${m.id}`} clickable />
            ) : (
              <Chip key={m.id} size="small" label={fullName(m)} />
            ),
          )}
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {members.isLoading ? 'Loading…' : 'Nobody has this group yet.'}
        </Typography>
      )}
      {mayAssign ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <Autocomplete
            multiple
            sx={{ flex: 1, minWidth: 220 }}
            value={chosen}
            onChange={(_e, v) => setChosen(v)}
            inputValue={input}
            onInputChange={(_e, v, reason) => reason !== 'reset' && setInput(v)}
            options={(candidates.data?.contents ?? []).filter((u) => !memberIds.has(u.id))}
            filterOptions={(x) => x}
            getOptionLabel={(u) => `${fullName(u)} (${u.username})`}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText="No Options Available!"
            renderInput={(params) => <TextField {...params} size="small" label="Move users into this group" />}
          />
          <Button
            variant="outlined"
            disabled={chosen.length === 0 || assign.isPending}
            onClick={() =>
              assign.mutate(
                { id: group.id, userIds: chosen.map((u) => u.id) },
                {
                  onSuccess: () => {
                    setChosen([]);
                    showToast('success', GROUP_MESSAGES.assigned);
                  },
                  onError: (e) => showToast('error', errorText(e, 'Failed to assign the group')),
                },
              )
            }
          >
            Assign
          </Button>
        </Box>
      ) : null}
    </Paper>
  );
}
