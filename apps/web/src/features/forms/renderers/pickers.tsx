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
import { useRef, useState } from 'react';
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

/** What one picker field shows until it is used: its value, the empty field's placeholder and the picker's icon. */
const standIn = (
  p: Pick<PickerProps, 'id' | 'label' | 'disabled' | 'error'>,
  look: { value: string; placeholder: string; icon: 'calendar' | 'clock' },
  onActivate: (how: 'focus' | 'open') => void,
) => <PickerStandIn id={p.id} label={p.label} {...look} disabled={p.disabled} error={p.error} onActivate={onActivate} />;

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

/** The props of a field's mounted picker: its value read and written in `format`. */
const pickerProps = (p: PickerProps, demand: ReturnType<typeof useOnDemand>, format: string) => ({
  ...demand.picker,
  value: parse(p.value, format),
  format,
  disabled: p.disabled,
  onChange: (d: Dayjs | null) => p.onChange(write(d, format)),
  slotProps: slot(p.id, p.error, p.label),
});

/** SPEC 5: YYYY-MM-DD, or YYYY-MM-DD HH:mm (24-hour) with withTime; a template may set its own format. */
export function DateField({ withTime, format, ...p }: PickerProps & { withTime?: boolean; format?: string }) {
  const fmt = format || (withTime ? PICKER_DATE_TIME_FORMAT : PICKER_DATE_FORMAT);
  const demand = useOnDemand();
  if (!demand.active) return standIn(p, { value: shown(p.value), placeholder: placeholderOf(fmt), icon: 'calendar' }, demand.activate);
  if (withTime) return <DateTimePicker {...pickerProps(p, demand, fmt)} ampm={false} />;
  return <DatePicker {...pickerProps(p, demand, fmt)} />;
}

export function TimeField(p: PickerProps) {
  const demand = useOnDemand();
  if (!demand.active) return standIn(p, { value: shown(p.value), placeholder: placeholderOf(TIME_FORMAT), icon: 'clock' }, demand.activate);
  return <TimePicker {...pickerProps(p, demand, TIME_FORMAT)} ampm={false} />;
}

/** 'YYYY/MM/DD - YYYY/MM/DD', empty until both ends are chosen (SPEC 5). Partial choices stay in the pickers. */
export function DateRangeField(p: PickerProps) {
  const [a, b] = typeof p.value === 'string' && p.value.includes(' - ') ? p.value.split(' - ') : [undefined, undefined];
  const start = parse(a, DATE_RANGE_FORMAT);
  const end = parse(b, DATE_RANGE_FORMAT);
  // An end chosen while the other is still empty is kept here (the value stays empty until both are chosen).
  const picked = useRef<{ from?: Dayjs | null; to?: Dayjs | null }>({});
  const choose = (key: 'from' | 'to', d: Dayjs | null) => {
    picked.current[key] = d;
    const s = 'from' in picked.current ? picked.current.from : start;
    const e = 'to' in picked.current ? picked.current.to : end;
    p.onChange(s?.isValid() && e?.isValid() ? `${s.format(DATE_RANGE_FORMAT)} - ${e.format(DATE_RANGE_FORMAT)}` : undefined);
  };
  const from = useOnDemand();
  const to = useOnDemand();
  // Both ends are mounted together, the one focused or pressed first taking the focus.
  const active = Boolean(from.active || to.active);
  const ends = [
    { key: 'from', id: p.id, title: 'From', text: a, demand: from, value: start, limits: { maxDate: end ?? undefined } },
    { key: 'to', id: `${p.id}-to`, title: 'To', text: b, demand: to, value: end, limits: { minDate: start ?? undefined } },
  ] as const;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {ends.map((e) => (
        <Box key={e.key} sx={{ flex: '1 1 160px' }}>
          {active ? (
            <DatePicker
              {...e.demand.picker}
              {...e.limits}
              label={e.title}
              defaultValue={e.value}
              format={DATE_RANGE_FORMAT}
              disabled={p.disabled}
              onChange={(d) => choose(e.key, d)}
              slotProps={slot(e.id, p.error, `${p.label} ${e.key}`)}
            />
          ) : (
            standIn(
              { ...p, id: e.id, label: `${p.label} ${e.key}` },
              { value: e.text ?? '', placeholder: `${e.title} (${DATE_RANGE_FORMAT})`, icon: 'calendar' },
              e.demand.activate,
            )
          )}
        </Box>
      ))}
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
