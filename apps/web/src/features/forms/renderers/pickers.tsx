import Box from '@mui/material/Box';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import {
  DATE_RANGE_FORMAT,
  formatDuration,
  PICKER_DATE_FORMAT,
  PICKER_DATE_TIME_FORMAT,
  parseDuration,
  TIME_FORMAT,
} from '@sitewatch/contracts/forms';
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useState } from 'react';
import { PickerStandIn } from './PickerStandIn.tsx';

dayjs.extend(customParseFormat);

interface PickerProps {
  id: string;
  label: string;
  value: unknown;
  onChange(value: string | undefined): void;
  disabled: boolean;
  error: boolean;
}

const parse = (value: unknown, format: string) => {
  if (typeof value !== 'string' || !value) return null;
  const d = dayjs(value, format, true);
  return d.isValid() ? d : null;
};
const write = (d: Dayjs | null, format: string) => (d?.isValid() ? d.format(format) : undefined);
const slot = (id: string, error: boolean, label: string) => ({
  textField: { id, error, fullWidth: true, size: 'small' as const, inputProps: { 'aria-label': label } },
});

const shown = (value: unknown) => (typeof value === 'string' ? value : '');
/** The pickers' own empty-field placeholder: the format with hours as 'hh'. */
const placeholderOf = (format: string) => format.replace(/H/g, 'h');

/**
 * A picker is mounted the first time its field is focused or pressed (a plain stand-in shows the value until then),
 * focused, or open when its calendar or clock was pressed; it stays mounted afterwards.
 */
function useOnDemand() {
  const [active, setActive] = useState<'focus' | 'open' | null>(null);
  const [open, setOpen] = useState(false);
  return {
    active,
    activate(how: 'focus' | 'open') {
      setActive(how);
      setOpen(how === 'open');
    },
    picker: { autoFocus: active === 'focus', open, onOpen: () => setOpen(true), onClose: () => setOpen(false) },
  };
}

/** SPEC 5: YYYY-MM-DD, or YYYY-MM-DD HH:mm (24-hour) with withTime; a template may set its own format. */
export function DateField({ withTime, format, ...p }: PickerProps & { withTime?: boolean; format?: string }) {
  const fmt = format || (withTime ? PICKER_DATE_TIME_FORMAT : PICKER_DATE_FORMAT);
  const demand = useOnDemand();
  if (!demand.active)
    return (
      <PickerStandIn
        id={p.id}
        label={p.label}
        value={shown(p.value)}
        placeholder={placeholderOf(fmt)}
        icon="calendar"
        disabled={p.disabled}
        error={p.error}
        onActivate={demand.activate}
      />
    );
  const value = parse(p.value, fmt);
  if (withTime)
    return (
      <DateTimePicker
        {...demand.picker}
        value={value}
        ampm={false}
        format={fmt}
        disabled={p.disabled}
        onChange={(d) => p.onChange(write(d, fmt))}
        slotProps={slot(p.id, p.error, p.label)}
      />
    );
  return (
    <DatePicker
      {...demand.picker}
      value={value}
      format={fmt}
      disabled={p.disabled}
      onChange={(d) => p.onChange(write(d, fmt))}
      slotProps={slot(p.id, p.error, p.label)}
    />
  );
}

export function TimeField(p: PickerProps) {
  const demand = useOnDemand();
  if (!demand.active)
    return (
      <PickerStandIn
        id={p.id}
        label={p.label}
        value={shown(p.value)}
        placeholder={placeholderOf(TIME_FORMAT)}
        icon="clock"
        disabled={p.disabled}
        error={p.error}
        onActivate={demand.activate}
      />
    );
  return (
    <TimePicker
      {...demand.picker}
      value={parse(p.value, TIME_FORMAT)}
      ampm={false}
      format={TIME_FORMAT}
      disabled={p.disabled}
      onChange={(d) => p.onChange(write(d, TIME_FORMAT))}
      slotProps={slot(p.id, p.error, p.label)}
    />
  );
}

/** 'YYYY/MM/DD - YYYY/MM/DD', empty until both ends are chosen (SPEC 5). Partial choices stay in the pickers. */
export function DateRangeField(p: PickerProps) {
  const [a, b] = typeof p.value === 'string' && p.value.includes(' - ') ? p.value.split(' - ') : [undefined, undefined];
  const start = parse(a, DATE_RANGE_FORMAT);
  const end = parse(b, DATE_RANGE_FORMAT);
  const set = (s: Dayjs | null, e: Dayjs | null) =>
    p.onChange(s?.isValid() && e?.isValid() ? `${s.format(DATE_RANGE_FORMAT)} - ${e.format(DATE_RANGE_FORMAT)}` : undefined);
  const from = useOnDemand();
  const to = useOnDemand();
  // Both ends are mounted together, the one focused or pressed first taking the focus.
  const active = Boolean(from.active || to.active);
  if (!active)
    return (
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Box sx={{ flex: '1 1 160px' }}>
          <PickerStandIn
            id={p.id}
            label={`${p.label} from`}
            value={a ?? ''}
            placeholder={`From (${DATE_RANGE_FORMAT})`}
            icon="calendar"
            disabled={p.disabled}
            error={p.error}
            onActivate={from.activate}
          />
        </Box>
        <Box sx={{ flex: '1 1 160px' }}>
          <PickerStandIn
            id={`${p.id}-to`}
            label={`${p.label} to`}
            value={b ?? ''}
            placeholder={`To (${DATE_RANGE_FORMAT})`}
            icon="calendar"
            disabled={p.disabled}
            error={p.error}
            onActivate={to.activate}
          />
        </Box>
      </Box>
    );
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Box sx={{ flex: '1 1 160px' }}>
        <DatePicker
          {...from.picker}
          label="From"
          defaultValue={start}
          format={DATE_RANGE_FORMAT}
          maxDate={end ?? undefined}
          disabled={p.disabled}
          onChange={(d) => set(d, end)}
          slotProps={slot(p.id, p.error, `${p.label} from`)}
        />
      </Box>
      <Box sx={{ flex: '1 1 160px' }}>
        <DatePicker
          {...to.picker}
          label="To"
          defaultValue={end}
          format={DATE_RANGE_FORMAT}
          minDate={start ?? undefined}
          disabled={p.disabled}
          onChange={(d) => set(start, d)}
          slotProps={slot(`${p.id}-to`, p.error, `${p.label} to`)}
        />
      </Box>
    </Box>
  );
}

/** '{h}hr {m}min {s}sec'; hours from 0, minutes and seconds 0 to 59. */
export function DurationField(p: PickerProps) {
  const d = (typeof p.value === 'string' && parseDuration(p.value)) || { hours: 0, minutes: 0, seconds: 0 };
  const part = (name: 'hours' | 'minutes' | 'seconds', label: string, max?: number) => {
    const id = name === 'hours' ? p.id : `${p.id}-${name}`;
    return (
      <div className="dfs-part" key={name}>
        <input
          id={id}
          className="dfs-input"
          type="number"
          min={0}
          max={max}
          disabled={p.disabled}
          aria-invalid={p.error}
          aria-label={`${p.label} ${label}`}
          value={d[name]}
          onChange={(e) => {
            const n = Math.max(0, Math.min(max ?? 9999, Math.floor(Number(e.target.value) || 0)));
            p.onChange(formatDuration({ ...d, [name]: n }));
          }}
        />
        <label htmlFor={id}>{label}</label>
      </div>
    );
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {part('hours', 'hr')}
      {part('minutes', 'min', 59)}
      {part('seconds', 'sec', 59)}
    </Box>
  );
}
