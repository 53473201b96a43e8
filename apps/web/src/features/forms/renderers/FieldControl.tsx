import { type ControlProps, rankWith, type Tester } from '@jsonforms/core';
import { withJsonFormsControlProps } from '@jsonforms/react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Rating from '@mui/material/Rating';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { choicesOf, FORM_LIMITS, type FormField, generateRandomId, type MultiLevelOption } from '@sitewatch/contracts/forms';
import { memo, useEffect } from 'react';
import type { FieldSchema } from '../schema.ts';
import { EntitySelect } from './EntitySelect.tsx';
import { FieldShell } from './FieldShell.tsx';
import { FileField, type PendingFiles } from './FileField.tsx';
import { DateField, DateRangeField, DurationField, TimeField } from './pickers.tsx';

export interface FormRenderConfig {
  files: PendingFiles;
  /** Keys whose default value is shown read-only (SPEC 2.9). */
  readOnly: Set<string>;
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
    case 'string':
      return (
        <TextField
          id={id}
          fullWidth
          size="small"
          value={value ?? ''}
          disabled={disabled}
          error={error}
          type={
            field.inputType === 'number'
              ? 'number'
              : field.inputType === 'email'
                ? 'email'
                : field.inputType === 'password'
                  ? 'password'
                  : 'text'
          }
          multiline={field.inputType === 'textarea'}
          minRows={field.inputType === 'textarea' ? 3 : undefined}
          onChange={(e) => {
            const raw = e.target.value;
            set(raw === '' ? undefined : field.inputType === 'number' && Number.isFinite(Number(raw)) ? Number(raw) : raw);
          }}
          slotProps={{ htmlInput: { 'aria-labelledby': `${id}-label`, 'aria-invalid': error } }}
        />
      );
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
    case 'button': {
      const choices = choicesOf(field);
      return (
        <ToggleButtonGroup
          id={id}
          size={field.size ?? 'small'}
          exclusive={!field.multiple}
          value={value ?? (field.multiple ? [] : null)}
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          onChange={(_e, v) => set(v === null || (Array.isArray(v) && v.length === 0) ? undefined : v)}
          sx={{ flexWrap: 'wrap' }}
        >
          {choices.map((c) => (
            <ToggleButton key={c} value={c}>
              {c}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      );
    }
    case 'toggle':
      return (
        <Switch
          id={id}
          checked={value === true}
          disabled={disabled}
          onChange={(e) => set(e.target.checked)}
          slotProps={{ input: { 'aria-labelledby': `${id}-label` } }}
        />
      );
    case 'duration':
      return <DurationField id={id} label={label} value={value} onChange={set} disabled={disabled} error={error} />;
    case 'radio':
      return (
        <RadioGroup id={id} row={field.inline} value={value ?? ''} aria-labelledby={`${id}-label`} onChange={(e) => set(e.target.value)}>
          {choicesOf(field).map((c) => (
            <FormControlLabel key={c} value={c} control={<Radio size="small" />} label={c} disabled={disabled} />
          ))}
        </RadioGroup>
      );
    case 'rating':
      return (
        <Rating
          name={id}
          max={field.max ?? FORM_LIMITS.ratingMax}
          value={typeof value === 'number' ? value : null}
          disabled={disabled}
          size={field.size ?? 'large'}
          onChange={(_e, v) => set(v ?? undefined)}
          aria-labelledby={`${id}-label`}
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
      return (
        <TextField
          id={id}
          size="small"
          value={value ?? ''}
          slotProps={{ htmlInput: { readOnly: true, 'aria-labelledby': `${id}-label` } }}
        />
      );
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

/** One field of a form. Memoised on its own props, so a key press re-renders only the field typed in. */
const FieldControlView = memo(function FieldControlView(props: ControlProps) {
  const schema = props.schema as unknown as FieldSchema;
  const key = props.path;
  const config = props.config as FormRenderConfig;
  const field = { ...schema, type: schema.fieldType } as FormField;
  const readOnly = config.readOnly.has(key);
  const id = `form-field-${key}`;
  const set = props.handleChange.bind(null, key) as (v: unknown) => void;
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
    <FieldShell
      id={id}
      label={field.label ?? key}
      required={props.required === true || field.required === true}
      additionalInfo={field.additionalInfo}
      description={field.description}
      error={props.errors || undefined}
    >
      <Input
        field={field}
        id={id}
        value={props.data}
        set={set}
        disabled={!props.enabled || readOnly}
        error={Boolean(props.errors)}
        config={config}
      />
    </FieldShell>
  );
});

export const fieldControl = { tester: rankWith(10, fieldTester), renderer: withJsonFormsControlProps(FieldControlView) };
