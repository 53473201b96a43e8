import type { SyntheticEvent } from 'react';

const ICONS = {
  // The pickers' own calendar and clock.
  calendar:
    'M17 12h-5v5h5v-5zM16 1v2H8V1H6v2H5c-1.11 0-1.99.9-1.99 2L3 19c0 1.1.89 2 2 2h14c1.1 0 2-.9 2-2V5c0-1.1-.9-2-2-2h-1V1h-2zm3 18H5V8h14v11z',
  clock:
    'M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8zM12.5 7H11v6l5.25 3.15.75-1.23-4.5-2.67z',
};

/**
 * What a date, time or date range picker shows until its field is first focused or pressed: a plain input with the
 * picker's look (outlined, the calendar or clock at the end), the value as the picker shows it, the same id and the
 * same accessible name, so that the label, the error and the tab order are the picker's. MUI's pickers cost a few
 * milliseconds each to mount; a large form mounts only those that are used.
 */
export function PickerStandIn(props: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  icon: keyof typeof ICONS;
  disabled: boolean;
  error: boolean;
  /** The real picker takes over, focused, or open when its calendar or clock was pressed. */
  onActivate(how: 'focus' | 'open'): void;
}) {
  const activate = (how: 'focus' | 'open') => (e: SyntheticEvent) => {
    if (props.disabled) return;
    e.preventDefault();
    props.onActivate(how);
  };
  return (
    <div
      className="dfs-picker"
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        // The calendar or clock opens the picker, the rest of the field focuses it, as on the picker itself.
        const box = e.currentTarget.getBoundingClientRect();
        activate(e.clientX >= box.right - 44 ? 'open' : 'focus')(e);
      }}
    >
      <input
        id={props.id}
        className="dfs-input"
        readOnly
        value={props.value}
        placeholder={props.placeholder}
        disabled={props.disabled}
        aria-label={props.label}
        aria-invalid={props.error}
        onFocus={activate('focus')}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') activate('open')(e);
        }}
      />
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d={ICONS[props.icon]} />
      </svg>
    </div>
  );
}
