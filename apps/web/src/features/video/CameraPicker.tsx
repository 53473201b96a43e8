import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { Camera } from '@sitewatch/contracts/video';
import { useCameras } from './api.ts';

/** Picks one configured camera the user may see. */
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
  const cameras = useCameras();
  return (
    <Autocomplete
      sx={{ minWidth: 260 }}
      size={size}
      options={(cameras.data?.contents ?? []).filter((c) => c.configured)}
      loading={cameras.isLoading}
      value={value}
      getOptionLabel={(c) => (c.parentLabel ? `${c.label} (${c.parentLabel})` : c.label)}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, camera) => onPick(camera)}
      noOptionsText="No Options Available!"
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}
