import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { TICKET_STATUS_LABELS, type TicketStatus } from '@sitewatch/contracts/helpdesk/tickets';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { useEffect, useState } from 'react';
import { useStatusColours } from '../../../components/useStatusColours.ts';
import { filledChip } from '../../../lib/contrast.ts';
import { type Assignee, type DeviceOption, type SiteOption, useAssignees, useDeviceOptions, usePriorities, useSiteOptions } from './api.ts';
import { priorityColour, statusColour } from './model.ts';

/** Small building blocks of the ticket screens: status and priority chips, and the pickers. */

export function StatusChip({ status, size = 'small' }: { status: string; size?: 'small' | 'medium' }) {
  const colour = statusColour(status);
  return (
    <Chip
      size={size}
      label={TICKET_STATUS_LABELS[status as TicketStatus] ?? status}
      sx={{ ...filledChip(colour), fontWeight: 600 }}
      data-testid="status-chip"
      data-status={status}
    />
  );
}

export function PriorityChip({ priority }: { priority: string }) {
  const priorities = usePriorities();
  const colour = useStatusColours().text(priorityColour(priorities.data?.contents, priority));
  return <Chip size="small" variant="outlined" label={priority} sx={{ borderColor: colour, color: colour, fontWeight: 600 }} />;
}

/** A value typed into a search box, passed on after the user pauses (SPEC 9: select debounce 500 ms). */
export function useDebounced<T>(value: T, ms = 500) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

interface PickerProps<T> {
  label: string;
  value: T | null;
  onChange(value: T | null): void;
  disabled?: boolean;
  helperText?: string;
  size?: 'small' | 'medium';
  'data-testid'?: string;
}

export function UserPicker(props: PickerProps<Assignee>) {
  const [input, setInput] = useState('');
  const search = useDebounced(input);
  const users = useAssignees(search);
  return (
    <Autocomplete
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      size={props.size}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      options={users.data?.contents ?? []}
      getOptionLabel={(u) => `${u.name} (${u.email})`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(x) => x}
      loading={users.isFetching}
      noOptionsText="No Options Available!"
      disabled={props.disabled}
      data-testid={props['data-testid']}
      renderInput={(params) => <TextField {...params} label={props.label} helperText={props.helperText} />}
    />
  );
}

export function SitePicker(props: PickerProps<SiteOption>) {
  const [input, setInput] = useState('');
  const search = useDebounced(input);
  const sites = useSiteOptions(search);
  return (
    <Autocomplete
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      options={sites.data?.contents ?? []}
      getOptionLabel={(s) => s.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(x) => x}
      loading={sites.isFetching}
      noOptionsText="No Options Available!"
      disabled={props.disabled}
      data-testid={props['data-testid']}
      renderInput={(params) => <TextField {...params} label={props.label} helperText={props.helperText} />}
    />
  );
}

export function DevicePicker(props: PickerProps<DeviceOption> & { assetId: number | null }) {
  const [input, setInput] = useState('');
  const search = useDebounced(input);
  const devices = useDeviceOptions(props.assetId, search);
  return (
    <Autocomplete
      value={props.value}
      onChange={(_e, v) => props.onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      options={(devices.data?.contents ?? []).filter((d) => props.assetId === null || d.assetId === props.assetId)}
      getOptionLabel={(d) => nameWithSite(`${d.label} (${d.type})`, d.siteName)}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(x) => x}
      loading={devices.isFetching}
      noOptionsText="No Options Available!"
      disabled={props.disabled}
      data-testid={props['data-testid']}
      renderInput={(params) => <TextField {...params} label={props.label} helperText={props.helperText} />}
    />
  );
}
