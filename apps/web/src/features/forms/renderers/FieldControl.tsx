import { type ControlProps, rankWith, type Tester } from '@jsonforms/core';
import { withJsonFormsControlProps } from '@jsonforms/react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { choicesOf, FORM_LIMITS, type FormField, generateRandomId, type MultiLevelOption } from '@sitewatch/contracts/forms';
import { type ChangeEvent, memo, useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { FormState } from '../form-state.ts';
import type { FieldSchema } from '../schema.ts';
import { OnOffSwitch, RadioChoices, Stars, ToggleChoices } from './choices.tsx';
import { EntitySelect } from './EntitySelect.tsx';
import { FieldShell } from './FieldShell.tsx';
import { FileField, type PendingFiles } from './FileField.tsx';
import { DateField, DateRangeField, DurationField, TimeField } from './pickers.tsx';
import { Skin } from './skin.tsx';

export interface FormRenderConfig {
  files: PendingFiles;
  /** Keys whose default value is shown read-only (SPEC 2.9). */
  readOnly: Set<string>;
  /**
   * The form screen's answers (form-state.ts): each control reads and sets its own field there, so that a key press
   * re-renders only that control. Without it (the builder's preview) the controls use JSON Forms' data and errors.
   */
  state?: FormState;
}

const noSubscription = () => () => {};

/** The value, the shown error and the setter of one field, from the form state or else from JSON Forms. */
function useField(props: ControlProps, key: string) {
  const state = (props.config as FormRenderConfig).state;
  const subscribe = useCallback((listener: () => void) => (state ? state.subscribe(key, listener) : noSubscription()), [state, key]);
  const value = useSyncExternalStore(subscribe, () => (state ? state.get(key) : props.data));
  const error = useSyncExternalStore(subscribe, () => (state ? state.error(key) : props.errors || undefined));
  const { handleChange } = props;
  const set = useMemo(() => (state ? (v: unknown) => state.set(key, v) : (v: unknown) => handleChange(key, v)), [state, key, handleChange]);
  return { value, error, set };
}

/** Picks our control for every Control whose schema carries one of our field types. */
export const fieldTester: Tester = (uischema, schema, context) => {
  if (uischema.type !== 'Control') return false;
  const key = String((uischema as { scope?: string }).scope ?? '').replace('#/properties/', '');
  const field =
    (schema.properties as Record<string, FieldSchema> | undefined)?.[key] ??
    (context.rootSchema.properties as Record<string, FieldSchema> | undefined)?.[key];
  return Boolean(field?.fieldType);
};

function Levels(props: {
  id: string;
  label: string;
  options: MultiLevelOption[];
  value: unknown;
  onChange(v: string[] | undefined): void;
  disabled: boolean;
  error: boolean;
}) {
  const path = Array.isArray(props.value) ? (props.value as string[]) : [];
  const levels: MultiLevelOption[][] = [props.options];
  for (const step of path) {
    const next = levels.at(-1)?.find((o) => o.label === step)?.children;
    if (next?.length) levels.push(next);
    else break;
  }
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {levels.map((options, depth) => (
        <TextField
          // biome-ignore lint/suspicious/noArrayIndexKey: levels are positional
          key={depth}
          id={depth === 0 ? props.id : `${props.id}-${depth}`}
          select
          size="small"
          label={depth === 0 ? 'Choose' : 'Then'}
          value={path[depth] ?? ''}
          disabled={props.disabled}
          error={props.error}
          onChange={(e) => {
            const next = [...path.slice(0, depth), e.target.value];
            props.onChange(next.length ? next : undefined);
          }}
          sx={{ minWidth: 160, flex: '1 1 160px' }}
          slotProps={{ htmlInput: { 'aria-label': `${props.label} level ${depth + 1}` } }}
        >
          {options.map((o) => (
            <MenuItem key={o.label} value={o.label}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      ))}
    </Box>
  );
}

function Input({
  field,
  id,
  value,
  set,
  disabled,
  error,
  config,
}: {
  field: FormField;
  id: string;
  value: unknown;
  set(v: unknown): void;
  disabled: boolean;
  error: boolean;
  config: FormRenderConfig;
}) {
  const label = field.label ?? id;
  useEffect(() => {
    if (field.type === 'randomid' && !value && !disabled) set(generateRandomId());
  }, [field.type, value, disabled, set]);
  switch (field.type) {
    case 'string': {
      const onChange = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        const raw = e.target.value;
        set(raw === '' ? undefined : field.inputType === 'number' && Number.isFinite(Number(raw)) ? Number(raw) : raw);
      };
      const common = {
        id,
        value: (value ?? '') as string | number,
        disabled,
        onChange,
        'aria-labelledby': `${id}-label`,
        'aria-invalid': error,
      };
      if (field.inputType === 'textarea') return <textarea className="dfs-input" {...common} rows={3} />;
      return (
        <input
          className="dfs-input"
          {...common}
          type={
            field.inputType === 'number'
              ? 'number'
              : field.inputType === 'email'
                ? 'email'
                : field.inputType === 'password'
                  ? 'password'
                  : 'text'
          }
        />
      );
    }
    case 'assetApiSelect':
    case 'deviceApiSelect':
      return (
        <EntitySelect
          id={id}
          label={label}
          kind={field.type === 'assetApiSelect' ? 'asset' : 'device'}
          multiple={field.multiple}
          value={value}
          onChange={set}
          disabled={disabled}
          error={error}
        />
      );
    case 'button':
      return (
        <ToggleChoices
          id={id}
          choices={choicesOf(field)}
          value={value}
          multiple={field.multiple}
          size={field.size ?? 'small'}
          disabled={disabled}
          onChange={set}
        />
      );
    case 'toggle':
      return <OnOffSwitch id={id} checked={value === true} disabled={disabled} onChange={set} />;
    case 'duration':
      return <DurationField id={id} label={label} value={value} onChange={set} disabled={disabled} error={error} />;
    case 'radio':
      return <RadioChoices id={id} choices={choicesOf(field)} value={value} row={field.inline} disabled={disabled} onChange={set} />;
    case 'rating':
      return (
        <Stars
          id={id}
          max={field.max ?? FORM_LIMITS.ratingMax}
          value={value}
          size={field.size ?? 'large'}
          disabled={disabled}
          onChange={set}
        />
      );
    case 'dateTime':
      return (
        <DateField
          id={id}
          label={label}
          withTime={field.withTime}
          format={field.format}
          value={value}
          onChange={set}
          disabled={disabled}
          error={error}
        />
      );
    case 'randomid':
      return <input className="dfs-input" id={id} value={(value ?? '') as string} readOnly aria-labelledby={`${id}-label`} />;
    case 'daterange':
      return <DateRangeField id={id} label={label} value={value} onChange={set} disabled={disabled} error={error} />;
    case 'filerenderer':
      return <FileField id={id} label={label} value={value} onChange={set} disabled={disabled} files={config.files} />;
    case 'time':
      return <TimeField id={id} label={label} value={value} onChange={set} disabled={disabled} error={error} />;
    case 'multiLevelSelect':
      return (
        <Levels
          id={id}
          label={label}
          options={(field.options ?? []) as MultiLevelOption[]}
          value={value}
          onChange={set}
          disabled={disabled}
          error={error}
        />
      );
    case 'labelrenderer':
      return <Typography variant="body2">{field.description}</Typography>;
  }
}

/**
 * One field of a form. Memoised on its own props, which do not change while the form is filled in: the field's value
 * and error come from the form state, so a key press re-renders only the field typed in.
 */
const FieldControlView = memo(function FieldControlView(props: ControlProps) {
  const schema = props.schema as unknown as FieldSchema;
  const key = props.path;
  const config = props.config as FormRenderConfig;
  const field = { ...schema, type: schema.fieldType } as FormField;
  const readOnly = config.readOnly.has(key);
  const id = `form-field-${key}`;
  const { value, error, set } = useField(props, key);
  if (field.type === 'labelrenderer')
    return (
      <Box sx={{ mb: 2 }} data-testid={`field-${id}`}>
        <Typography variant="subtitle2">{field.label}</Typography>
        {field.description ? (
          <Typography variant="body2" color="text.secondary">
            {field.description}
          </Typography>
        ) : null}
      </Box>
    );
  return (
    <Skin>
      <FieldShell
        id={id}
        label={field.label ?? key}
        required={props.required === true || field.required === true}
        additionalInfo={field.additionalInfo}
        description={field.description}
        error={error}
      >
        <Input field={field} id={id} value={value} set={set} disabled={!props.enabled || readOnly} error={Boolean(error)} config={config} />
      </FieldShell>
    </Skin>
  );
});

export const fieldControl = { tester: rankWith(10, fieldTester), renderer: withJsonFormsControlProps(FieldControlView) };
