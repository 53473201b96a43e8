import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
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

/** SPEC 5: YYYY-MM-DD, or YYYY-MM-DD HH:mm (24-hour) with withTime; a template may set its own format. */
export function DateField({ withTime, format, ...p }: PickerProps & { withTime?: boolean; format?: string }) {
  const fmt = format || (withTime ? PICKER_DATE_TIME_FORMAT : PICKER_DATE_FORMAT);
  const value = parse(p.value, fmt);
  if (withTime)
    return (
      <DateTimePicker
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
      value={value}
      format={fmt}
      disabled={p.disabled}
      onChange={(d) => p.onChange(write(d, fmt))}
      slotProps={slot(p.id, p.error, p.label)}
    />
  );
}

export function TimeField(p: PickerProps) {
  return (
    <TimePicker
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
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Box sx={{ flex: '1 1 160px' }}>
        <DatePicker
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
  const part = (name: 'hours' | 'minutes' | 'seconds', label: string, max?: number) => (
    <TextField
      id={name === 'hours' ? p.id : `${p.id}-${name}`}
      label={label}
      type="number"
      size="small"
      disabled={p.disabled}
      error={p.error}
      value={d[name]}
      onChange={(e) => {
        const n = Math.max(0, Math.min(max ?? 9999, Math.floor(Number(e.target.value) || 0)));
        p.onChange(formatDuration({ ...d, [name]: n }));
      }}
      slotProps={{ htmlInput: { min: 0, max, 'aria-label': `${p.label} ${label}` } }}
      sx={{ width: 110 }}
    />
  );
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {part('hours', 'hr')}
      {part('minutes', 'min', 59)}
      {part('seconds', 'sec', 59)}
    </Box>
  );
}
