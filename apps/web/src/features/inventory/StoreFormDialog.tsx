import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { INVENTORY_MESSAGES, INVENTORY_PERMISSIONS, type Store } from '@sitewatch/contracts/inventory';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { useDeleteStore, useSaveStore, useSiteOptions, useStoreManagers } from './api.ts';

type Option = { id: number; name: string };

/** Adds or changes a store: its name, the site it is at (optional) and its store managers. */
export function StoreFormDialog(props: { open: boolean; onClose(): void; store: Store | null; onDeleted?(): void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const [name, setName] = useState(props.store?.name ?? '');
  const [site, setSite] = useState<Option | null>(
    props.store?.assetId ? { id: props.store.assetId, name: props.store.siteName ?? `Site ${props.store.assetId}` } : null,
  );
  const [siteInput, setSiteInput] = useState('');
  const [managers, setManagers] = useState<Option[]>(props.store?.managers ?? []);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const siteSearch = useDebounced(siteInput.trim(), 400);
  const sites = useSiteOptions(siteSearch, props.open);
  const people = useStoreManagers(props.open);
  const save = useSaveStore(props.store?.id ?? null);
  const remove = useDeleteStore();
  const [confirming, setConfirming] = useState(false);
  const permissions = permissionsOf(useUser());
  const canDelete = Boolean(props.store) && permissions.has(INVENTORY_PERMISSIONS.delete);
  const onDelete = async () => {
    if (!props.store) return;
    try {
      await remove.mutateAsync(props.store.id);
      toast.success(INVENTORY_MESSAGES.deleted);
      props.onDeleted?.();
      props.onClose();
    } catch (e) {
      setConfirming(false);
      setError((isHttpError(e) && detailOf(e.data)) || 'The store could not be deleted.');
    }
  };

  const submit = async () => {
    setError(null);
    if (!name.trim()) {
      setNameError('Name is required');
      return;
    }
    setNameError(null);
    try {
      await save.mutateAsync({ name: name.trim(), assetId: site?.id ?? null, managerIds: managers.map((m) => m.id) });
      toast.success(props.store ? INVENTORY_MESSAGES.updated : INVENTORY_MESSAGES.created);
      props.onClose();
    } catch (e) {
      setError((isHttpError(e) && detailOf(e.data)) || 'The store could not be saved. Please try again.');
    }
  };
  return (
    <Dialog
      open={props.open}
      onClose={save.isPending ? undefined : props.onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>{props.store ? 'Edit store' : 'Add store'}</DialogTitle>
      <DialogContent>
        <Box
          component="form"
          id="inventory-store-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          sx={{ display: 'grid', gap: 2, pt: 1 }}
        >
          {error ? <Alert severity="error">{error}</Alert> : null}
          <TextField
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.target.value.slice(0, 120))}
            error={Boolean(nameError)}
            helperText={nameError}
            slotProps={{ htmlInput: { 'data-testid': 'store-name', maxLength: 120 } }}
          />
          <Autocomplete
            value={site}
            onChange={(_e, v) => setSite(v)}
            inputValue={siteInput}
            onInputChange={(_e, v, reason) => reason !== 'reset' && setSiteInput(v)}
            options={(sites.data?.contents ?? []).map((a) => ({ id: a.id, name: a.name }))}
            filterOptions={(x) => x}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => <TextField {...params} label="Site (optional)" />}
          />
          <Autocomplete
            multiple
            value={managers}
            onChange={(_e, v) => setManagers(v)}
            options={people.data?.contents ?? []}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => <TextField {...params} label="Store managers" helperText="Users with the Store Manager role" />}
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {canDelete ? (
          <Button color="error" onClick={() => setConfirming(true)} sx={{ mr: 'auto' }} disabled={save.isPending}>
            Delete
          </Button>
        ) : null}
        <Button onClick={props.onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" form="inventory-store-form" variant="contained" disabled={save.isPending} data-testid="store-save">
          Save
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={confirming}
        destructive
        title={`Delete '${props.store?.name ?? ''}'?`}
        text="A store that holds stock or has movements cannot be deleted."
        busy={remove.isPending}
        onConfirm={() => void onDelete()}
        onClose={() => setConfirming(false)}
      />
    </Dialog>
  );
}
