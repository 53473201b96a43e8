import { useState } from 'react';

/**
 * Radios, toggle buttons, the on/off switch and the star rating of the form screen: native inputs and buttons with
 * the look of MUI's RadioGroup, ToggleButtonGroup, Switch and Rating, styled by class (skin.tsx).
 */

/** One choice of several, as MUI's RadioGroup of small radios with labels. */
export function RadioChoices(props: {
  id: string;
  choices: string[];
  value: unknown;
  row?: boolean;
  disabled: boolean;
  onChange(value: string): void;
}) {
  return (
    <div role="radiogroup" id={props.id} aria-labelledby={`${props.id}-label`} className={props.row ? 'dfs-radios row' : 'dfs-radios'}>
      {props.choices.map((c) => (
        <label key={c} className={props.disabled ? 'disabled' : undefined}>
          <input
            type="radio"
            name={props.id}
            value={c}
            checked={props.value === c}
            disabled={props.disabled}
            onChange={() => props.onChange(c)}
          />
          {c}
        </label>
      ))}
    </div>
  );
}

/** Buttons that pick one choice, or several with multiple; pressing the picked one again clears it. */
export function ToggleChoices(props: {
  id: string;
  choices: string[];
  value: unknown;
  multiple?: boolean;
  size: 'small' | 'medium' | 'large';
  disabled: boolean;
  onChange(value: string | string[] | undefined): void;
}) {
  const picked = props.multiple ? (Array.isArray(props.value) ? (props.value as string[]) : []) : [props.value];
  const toggle = (c: string) => {
    if (!props.multiple) return props.onChange(props.value === c ? undefined : c);
    const next = picked.includes(c) ? picked.filter((x) => x !== c) : [...picked, c];
    return props.onChange(next.length ? (next as string[]) : undefined);
  };
  return (
    <fieldset id={props.id} aria-labelledby={`${props.id}-label`} className={`dfs-toggles ${props.size}`}>
      {props.choices.map((c) => (
        <button key={c} type="button" value={c} aria-pressed={picked.includes(c)} disabled={props.disabled} onClick={() => toggle(c)}>
          {c}
        </button>
      ))}
    </fieldset>
  );
}

export function OnOffSwitch(props: { id: string; checked: boolean; disabled: boolean; onChange(checked: boolean): void }) {
  return (
    <input
      type="checkbox"
      role="switch"
      aria-checked={props.checked}
      className="dfs-switch"
      id={props.id}
      checked={props.checked}
      disabled={props.disabled}
      aria-labelledby={`${props.id}-label`}
      onChange={(e) => props.onChange(e.target.checked)}
    />
  );
}

const STAR = 'M12 17.27 18.18 21l-1.64-7.03L22 9.24l-7.19-.61L12 2 9.19 8.63 2 9.24l5.46 4.73L5.82 21z';
const STAR_BORDER =
  'm22 9.24-7.19-.62L12 2 9.19 8.63 2 9.24l5.46 4.73L5.82 21 12 17.27 18.18 21l-1.63-7.03zM12 15.4l-3.76 2.27 1-4.28-3.32-2.88 4.38-.38L12 6.1l1.71 4.04 4.38.38-3.32 2.88 1 4.28z';

/**
 * 1 to max stars as MUI's Rating: a radio per star named 'n Star(s)', the stars up to the one hovered lit, and a
 * click on the chosen star clearing the rating.
 */
export function Stars(props: {
  id: string;
  max: number;
  value: unknown;
  size: 'small' | 'medium' | 'large';
  disabled: boolean;
  onChange(value: number | undefined): void;
}) {
  const [hovered, setHovered] = useState(0);
  const value = typeof props.value === 'number' ? props.value : 0;
  const lit = hovered || value;
  const items = Array.from({ length: props.max }, (_, i) => i + 1);
  return (
    <span
      role="radiogroup"
      aria-labelledby={`${props.id}-label`}
      className={`dfs-rating ${props.size}${props.disabled ? ' disabled' : ''}`}
      onMouseLeave={() => setHovered(0)}
    >
      {items.map((n) => (
        <Star
          key={n}
          id={props.id}
          n={n}
          lit={n <= lit}
          hovered={n === hovered}
          checked={n === value}
          disabled={props.disabled}
          onChange={props.onChange}
          onHover={setHovered}
        />
      ))}
      <label className="dfs-sr" htmlFor={`${props.id}-empty`}>
        Empty
      </label>
      <input
        className="dfs-sr"
        type="radio"
        name={props.id}
        id={`${props.id}-empty`}
        value=""
        checked={!value}
        disabled={props.disabled}
        onChange={() => props.onChange(undefined)}
      />
    </span>
  );
}

function Star(props: {
  id: string;
  n: number;
  lit: boolean;
  hovered: boolean;
  checked: boolean;
  disabled: boolean;
  onChange(value: number | undefined): void;
  onHover(n: number): void;
}) {
  const id = `${props.id}-${props.n}`;
  return (
    <>
      <input
        className="dfs-sr"
        type="radio"
        name={props.id}
        id={id}
        value={props.n}
        checked={props.checked}
        disabled={props.disabled}
        onChange={() => props.onChange(props.n)}
        onClick={(e) => {
          // A click on the chosen star clears the rating; a key press (no pointer position) never does.
          if (props.checked && (e.clientX !== 0 || e.clientY !== 0)) props.onChange(undefined);
        }}
      />
      <label
        htmlFor={id}
        className={`${props.lit ? '' : 'empty'}${props.hovered ? ' hovered' : ''}` || undefined}
        onMouseEnter={() => props.onHover(props.n)}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d={props.lit ? STAR : STAR_BORDER} />
        </svg>
        <span className="dfs-sr">{`${props.n} Star${props.n === 1 ? '' : 's'}`}</span>
      </label>
    </>
  );
}
