import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useDebounced } from '../sites/hooks.ts';
import { useLeadOptions } from './api.ts';

export interface LeadOption {
  id: number;
  name: string;
}

/** One active user of a lead role, searched by name. */
export function LeadPicker(props: {
  leadRole: 'citylead' | 'areahead' | 'regionalhead';
  label: string;
  value: LeadOption | null;
  onChange(value: LeadOption | null): void;
  error?: string;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const searchText = useDebounced(input.trim(), 400);
  const options = useLeadOptions(props.leadRole, searchText, open);
  const rows = (options.data?.contents ?? []).map((u) => ({ id: u.id, name: `${u.firstname} ${u.lastname}`.trim() || u.username }));
  return (
    <Autocomplete
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      options={rows}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching}
      noOptionsText="No Options Available!"
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          error={Boolean(props.error)}
          helperText={props.error}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': props.testId } }}
        />
      )}
    />
  );
}
