import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { nameWithSite } from '@sitewatch/contracts/sites';
import type { Camera } from '@sitewatch/contracts/video';
import { useDeferredValue, useState } from 'react';
import { useCameras } from './api.ts';

const labelOf = (c: Camera) => nameWithSite(c.parentLabel ? `${c.label} (${c.parentLabel})` : c.label, c.siteName);

/** Picks one configured camera the user may see; typing searches all of them on the server. */
export function CameraPicker({
  label = 'Camera',
  onPick,
  value = null,
  size = 'small',
}: {
  label?: string;
  onPick: (camera: Camera | null) => void;
  value?: Camera | null;
  size?: 'small' | 'medium';
}) {
  const [input, setInput] = useState('');
  const search = useDeferredValue(input.trim());
  // the typed text is the chosen option's label after a pick: search by the camera label alone
  const cameras = useCameras({ configured: true, limit: 50, search: value && input === labelOf(value) ? undefined : search });
  return (
    <Autocomplete
      sx={{ minWidth: { xs: 0, sm: 260 }, width: { xs: '100%', sm: 'auto' } }}
      size={size}
      options={cameras.data?.contents ?? []}
      filterOptions={(options) => options}
      inputValue={input}
      onInputChange={(_e, text) => setInput(text)}
      loading={cameras.isLoading}
      value={value}
      getOptionLabel={labelOf}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, camera) => onPick(camera)}
      noOptionsText="No Options Available!"
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}
