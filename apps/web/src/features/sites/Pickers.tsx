import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { DeviceType } from '@sitewatch/contracts/devices';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { devicesOf } from '../devices/api.ts';
import { useDebounced } from './hooks.ts';
import { siteKeys } from './keys.ts';

/** SPEC 9: selects search after 500 ms and fetch 15 options at a time. */
const SELECT_DEBOUNCE_MS = 500;
const SELECT_PAGE_SIZE = 15;
const NO_OPTIONS = 'No Options Available!';

export interface Option {
  id: number;
  name: string;
  label?: string;
  type?: string;
  assetName?: string | null;
}

const pickers = {
  sites: (query: Query) => api.get('/iotapp/assets/', { query, toast: false }),
  devices: async (query: Query) => devicesOf(await api.get('/iotapp/devices/', { query, toast: false })),
};

type PickerRow = { id: number; name: string; label?: string; type?: string; asset?: { name: string } | null };

function useOptions(kind: keyof typeof pickers, input: string, extra: Query, enabled: boolean) {
  const searchText = useDebounced(input.trim(), SELECT_DEBOUNCE_MS);
  return useQuery({
    queryKey: siteKeys.picker(kind, searchText, extra),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: (): Promise<{ contents: PickerRow[] }> =>
      pickers[kind]({ ...extra, page: 1, limit: SELECT_PAGE_SIZE, searchText: searchText || undefined }),
  });
}

export function SitePicker(props: {
  label: string;
  value: Option | null;
  onChange(value: Option | null): void;
  required?: boolean;
  disabled?: boolean;
}) {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const options = useOptions('sites', input, { orderBy: 'name' }, open);
  return (
    <Autocomplete
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      disabled={props.disabled}
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      options={(options.data?.contents ?? []).map((a) => ({ id: a.id, name: a.name }))}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      noOptionsText={NO_OPTIONS}
      renderInput={(params) => <TextField {...params} label={props.label} required={props.required} size="small" />}
      data-testid="site-picker"
    />
  );
}

export function DevicePicker(props: {
  label: string;
  value: Option | null;
  onChange(value: Option | null): void;
  types?: readonly DeviceType[];
  assetId?: number | null;
  disabled?: boolean;
}) {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const extra = {
    orderBy: 'name',
    searchKeys: 'label,name,site__name',
    type: props.types?.length ? props.types.join(',') : undefined,
    assetId: props.assetId === undefined ? undefined : props.assetId === null ? 'null' : props.assetId,
  };
  const options = useOptions('devices', input, extra, open);
  return (
    <Autocomplete
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      disabled={props.disabled}
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      options={(options.data?.contents ?? []).map((d) => ({
        id: d.id,
        name: d.name,
        label: d.label,
        type: d.type,
        assetName: d.asset?.name ?? null,
      }))}
      filterOptions={(x) => x}
      getOptionLabel={(o) => nameWithSite(o.label ?? o.name, o.assetName)}
      renderOption={(liProps, o) => (
        <li {...liProps} key={o.id}>
          {o.label} <span style={{ opacity: 0.6, marginLeft: 8 }}>{o.assetName ?? o.name}</span>
        </li>
      )}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      noOptionsText={NO_OPTIONS}
      renderInput={(params) => <TextField {...params} label={props.label} size="small" />}
      data-testid="device-picker"
    />
  );
}
