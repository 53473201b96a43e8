import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FIELD_KEY, type FormField, type MultiLevelOption, type ValidationRule } from '@sitewatch/contracts/forms';
import { COMMON_MESSAGES } from '@sitewatch/contracts/messages';
import { useState } from 'react';
import { FIELD_LABELS, type Item } from './model.ts';

const text = (label: string, value: string | undefined, set: (v: string | undefined) => void, extra: Record<string, unknown> = {}) => (
  <TextField
    label={label}
    size="small"
    fullWidth
    value={value ?? ''}
    onChange={(e) => set(e.target.value === '' ? undefined : e.target.value)}
    sx={{ mb: 1.5 }}
    {...extra}
  />
);
const flag = (label: string, value: boolean | undefined, set: (v: boolean | undefined) => void) => (
  <FormControlLabel
    control={<Switch checked={Boolean(value)} onChange={(e) => set(e.target.checked || undefined)} />}
    label={label}
    sx={{ display: 'flex', mb: 0.5 }}
  />
);

function OptionsJson({ value, onChange }: { value: MultiLevelOption[]; onChange(v: MultiLevelOption[]): void }) {
  const [raw, setRaw] = useState(JSON.stringify(value, null, 2));
  const [error, setError] = useState<string | null>(null);
  return (
    <TextField
      label="Options (label and children)"
      multiline
      minRows={4}
      fullWidth
      size="small"
      value={raw}
      error={Boolean(error)}
      helperText={error ?? 'A list of { "label": ..., "children": [...] }'}
      onChange={(e) => {
        setRaw(e.target.value);
        try {
          const parsed = JSON.parse(e.target.value);
          if (!Array.isArray(parsed)) throw new Error();
          setError(null);
          onChange(parsed);
        } catch {
          setError(COMMON_MESSAGES.invalidJson);
        }
      }}
      sx={{ mb: 1.5 }}
    />
  );
}

function RuleEditor({ rule, onChange }: { rule: ValidationRule | undefined; onChange(r: ValidationRule | undefined): void }) {
  const num = (v: string) => (v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v));
  return (
    <Box sx={{ mb: 1.5 }}>
      <TextField
        select
        label="Validation rule"
        size="small"
        fullWidth
        value={rule?.kind ?? ''}
        onChange={(e) => onChange(e.target.value ? ({ kind: e.target.value } as ValidationRule) : undefined)}
        sx={{ mb: 1 }}
      >
        <MenuItem value="">None</MenuItem>
        <MenuItem value="required">Required</MenuItem>
        <MenuItem value="date">Date</MenuItem>
        <MenuItem value="dateTime">Date and time</MenuItem>
        <MenuItem value="number">Number</MenuItem>
      </TextField>
      {rule?.kind === 'date' || rule?.kind === 'dateTime'
        ? text('Format', rule.format, (format) => onChange({ ...rule, format }), {
            placeholder: rule.kind === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DDTHH:mm:ss',
          })
        : null}
      {rule?.kind === 'number' ? (
        <Box sx={{ display: 'flex', gap: 1 }}>
          <TextField
            label="Minimum"
            type="number"
            size="small"
            value={rule.min ?? ''}
            onChange={(e) => onChange({ ...rule, min: num(e.target.value) })}
          />
          <TextField
            label="Maximum"
            type="number"
            size="small"
            value={rule.max ?? ''}
            onChange={(e) => onChange({ ...rule, max: num(e.target.value) })}
          />
        </Box>
      ) : null}
    </Box>
  );
}

/** Every SPEC 3 property that applies to the selected field's type. */
export function FieldProperties(props: {
  fieldKey: string;
  field: FormField;
  taken: string[];
  onChange(f: FormField): void;
  onRename(key: string): void;
}) {
  const { field } = props;
  const set =
    <K extends keyof FormField>(k: K) =>
    (v: FormField[K]) =>
      props.onChange({ ...field, [k]: v });
  const [key, setKey] = useState(props.fieldKey);
  const keyError = !FIELD_KEY.test(key)
    ? 'Letters, digits and underscores, starting with a letter'
    : key !== props.fieldKey && props.taken.includes(key)
      ? 'Another field has this key'
      : null;
  const t = field.type;
  const choices = t === 'radio' || t === 'button';
  return (
    <Box data-testid="field-properties">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {FIELD_LABELS[t]} field
      </Typography>
      <TextField
        label="Key"
        size="small"
        fullWidth
        value={key}
        error={Boolean(keyError)}
        helperText={keyError ?? 'The name of the answer in responses'}
        onChange={(e) => setKey(e.target.value)}
        onBlur={() => !keyError && key !== props.fieldKey && props.onRename(key)}
        sx={{ mb: 1.5 }}
      />
      {text('Label', field.label, set('label'))}
      {text('Description', field.description, set('description'), { multiline: true })}
      {t !== 'labelrenderer' ? (
        <>
          {text('Additional info (tooltip)', field.additionalInfo, set('additionalInfo'))}
          {flag('Required', field.required, set('required'))}
          {t === 'string' || choices || t === 'time' || t === 'duration'
            ? text(
                'Default value (shown read-only)',
                typeof field.defaultValue === 'string' ? field.defaultValue : undefined,
                set('defaultValue'),
              )
            : null}
        </>
      ) : null}
      {choices
        ? text(
            'Options (one per line)',
            (field.enum ?? []).join('\n'),
            (v) =>
              set('enum')(
                (v ?? '')
                  .split('\n')
                  .map((s) => s.trim())
                  .filter(Boolean),
              ),
            { multiline: true, minRows: 3 },
          )
        : null}
      {t === 'multiLevelSelect' ? <OptionsJson value={(field.options ?? []) as MultiLevelOption[]} onChange={set('options')} /> : null}
      {t === 'assetApiSelect' || t === 'deviceApiSelect' || t === 'button' ? flag('Multiple', field.multiple, set('multiple')) : null}
      {t === 'radio' ? flag('Inline', field.inline, set('inline')) : null}
      {t === 'string' ? (
        <TextField
          select
          label="Input type"
          size="small"
          fullWidth
          value={field.inputType ?? 'text'}
          onChange={(e) => set('inputType')(e.target.value as FormField['inputType'])}
          sx={{ mb: 1.5 }}
        >
          {['text', 'number', 'email', 'textarea', 'password', 'tel'].map((v) => (
            <MenuItem key={v} value={v}>
              {v}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      {t === 'rating' ? (
        <>
          <TextField
            label="Maximum stars"
            type="number"
            size="small"
            fullWidth
            value={field.max ?? 5}
            onChange={(e) => set('max')(Math.max(1, Math.min(10, Number(e.target.value) || 5)))}
            sx={{ mb: 1.5 }}
          />
          {text('Labels (comma separated)', field.labels?.join(', '), (v) =>
            set('labels')(
              v
                ? v
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean)
                : undefined,
            ),
          )}
        </>
      ) : null}
      {t === 'dateTime' ? (
        <>
          {flag('With time', field.withTime, set('withTime'))}
          {text('Format', field.format, set('format'), { placeholder: field.withTime ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD' })}
        </>
      ) : null}
      {text('Icon', field.icon, set('icon'))}
      <TextField
        select
        label="Size"
        size="small"
        fullWidth
        value={field.size ?? ''}
        onChange={(e) => set('size')((e.target.value || undefined) as FormField['size'])}
        sx={{ mb: 1.5 }}
      >
        <MenuItem value="">Default</MenuItem>
        <MenuItem value="small">Small</MenuItem>
        <MenuItem value="medium">Medium</MenuItem>
        <MenuItem value="large">Large</MenuItem>
      </TextField>
      {t === 'string' || t === 'dateTime' ? <RuleEditor rule={field.validation} onChange={set('validation')} /> : null}
    </Box>
  );
}

export function GroupProperties({
  group,
  onChange,
}: {
  group: Extract<Item, { kind: 'group' }>;
  onChange(g: Extract<Item, { kind: 'group' }>): void;
}) {
  return (
    <Box data-testid="group-properties">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Group
      </Typography>
      {text('Label', group.label, (label) => onChange({ ...group, label: label ?? '' }))}
      {text('Description', group.description, (description) => onChange({ ...group, description: description ?? '' }))}
      {text('Placeholder message', group.placeholder, (placeholder) => onChange({ ...group, placeholder: placeholder ?? '' }))}
    </Box>
  );
}
