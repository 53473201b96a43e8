import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { FORM_LIMITS, FORM_MESSAGES } from '@sitewatch/contracts/forms';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { devicesOf } from '../../devices/api.ts';
import { formKeys } from '../keys.ts';

export interface Entity {
  id: number;
  label: string;
}

/** Searches the sites or devices the user may see: 500 ms after typing stops, 15 at a time (SPEC 9). */
export function EntitySelect(props: {
  id: string;
  label: string;
  kind: 'asset' | 'device';
  multiple?: boolean;
  value: unknown;
  onChange(value: Entity | Entity[] | undefined): void;
  disabled: boolean;
  error: boolean;
}) {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setSearch(input.trim()), FORM_LIMITS.selectDebounceMs);
    return () => clearTimeout(t);
  }, [input]);
  const options = useQuery({
    queryKey: formKeys.select(props.kind, search),
    enabled: open,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      if (props.kind === 'asset') {
        const page = await api.get('/iotapp/assets/', {
          query: { limit: FORM_LIMITS.selectPageSize, page: 1, name__icontains: search || undefined },
          signal,
        });
        return page.contents.map((a) => ({ id: a.id, label: a.name }));
      }
      const page = devicesOf(
        await api.get('/iotapp/devices/', {
          query: { limit: FORM_LIMITS.selectPageSize, page: 1, label__icontains: search || undefined },
          signal,
        }),
      );
      return page.contents.map((d) => ({ id: d.id, label: d.label }));
    },
  });
  const value = props.multiple
    ? Array.isArray(props.value)
      ? (props.value as Entity[])
      : []
    : ((props.value as Entity | undefined) ?? null);
  return (
    <Autocomplete<Entity, boolean>
      id={props.id}
      multiple={props.multiple}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options.data ?? []}
      loading={options.isFetching}
      value={value as Entity}
      disabled={props.disabled}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => o.label}
      noOptionsText={FORM_MESSAGES.noOptions}
      onInputChange={(_e, v, reason) => {
        if (reason === 'input' || reason === 'clear') setInput(v);
      }}
      onChange={(_e, v) => {
        const next = Array.isArray(v) ? v.map((o) => ({ id: o.id, label: o.label })) : v ? { id: v.id, label: v.label } : undefined;
        props.onChange(Array.isArray(next) && next.length === 0 ? undefined : next);
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          error={props.error}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'aria-label': props.label } }}
        />
      )}
    />
  );
}
