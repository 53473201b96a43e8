import { VALIDATION_MESSAGES } from '../messages.ts';
import {
  DEFAULT_DATE_FORMAT,
  DEFAULT_DATE_TIME_FORMAT,
  PICKER_DATE_FORMAT,
  PICKER_DATE_TIME_FORMAT,
  parseDateRange,
  parseDuration,
  parseStrict,
  RANDOM_ID_PATTERN,
  TIME_FORMAT,
} from './formats.ts';
import { FORM_LIMITS, type FormField, type FormMetadata, type MultiLevelOption, type ValidationRule } from './template.ts';

/** Texts for value formats the specification leaves open. */
export const FORMAT_MESSAGES = {
  text: 'Enter text',
  choice: 'Choose one of the options',
  toggle: 'Choose on or off',
  duration: 'Enter a duration as {h}hr {m}min {s}sec',
  rating: (max: number) => `Choose a rating from 1 to ${max}`,
  randomId: 'The generated id is not valid',
  dateRange: 'Choose a start and end date (YYYY/MM/DD - YYYY/MM/DD)',
  time: 'Enter a time as HH:mm',
  select: 'Choose from the list',
  files: 'Attach files through the upload button',
  levels: 'Choose a value from the list',
  noValue: 'This field takes no value',
} as const;

/** Empty as SPEC 5 means it: missing, null, blank text or an empty list. */
export const isEmptyValue = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

const labelOf = (key: string, field: FormField) => field.label?.trim() || key;

/** SPEC 5 rules: required, date, dateTime, number. Returns the message, or null when the value passes. */
export function applyRule(rule: ValidationRule, value: unknown, label: string): string | null {
  if (rule.kind === 'required') return isEmptyValue(value) ? VALIDATION_MESSAGES.required(label) : null;
  if (isEmptyValue(value)) return null;
  if (rule.kind === 'date')
    return typeof value === 'string' && parseStrict(value, rule.format ?? DEFAULT_DATE_FORMAT) ? null : VALIDATION_MESSAGES.dateFailed;
  if (rule.kind === 'dateTime')
    return typeof value === 'string' && parseStrict(value, rule.format ?? DEFAULT_DATE_TIME_FORMAT)
      ? null
      : VALIDATION_MESSAGES.dateTimeFailed;
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (typeof value === 'boolean' || !Number.isFinite(n)) return VALIDATION_MESSAGES.notANumber;
  if (rule.min !== undefined && n < rule.min) return VALIDATION_MESSAGES.lessThan(rule.min);
  if (rule.max !== undefined && n > rule.max) return VALIDATION_MESSAGES.greaterThan(rule.max);
  return null;
}

export const choicesOf = (field: FormField): string[] =>
  field.enum?.length
    ? field.enum
    : (field.options ?? []).flatMap((o) =>
        typeof o === 'string' ? [o] : 'value' in o ? [String(o.value)] : 'label' in o ? [o.label] : [],
      );

const isEntity = (v: unknown) =>
  typeof v === 'object' &&
  v !== null &&
  Number.isInteger((v as { id?: unknown }).id) &&
  typeof (v as { label?: unknown }).label === 'string';

function levelPathExists(options: MultiLevelOption[], path: unknown[]): boolean {
  let level: MultiLevelOption[] | undefined = options;
  for (const step of path) {
    const found: MultiLevelOption | undefined = level?.find((o) => o.label === step);
    if (!found) return false;
    level = found.children;
  }
  return true;
}

const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The value format of each field type (only for a value that is present). */
export function checkFormat(field: FormField, value: unknown): string | null {
  const many = (check: (v: unknown) => boolean) => (field.multiple ? Array.isArray(value) && value.every(check) : check(value));
  switch (field.type) {
    case 'string':
      return typeof value === 'string' || (typeof value === 'number' && field.inputType === 'number') ? null : FORMAT_MESSAGES.text;
    case 'assetApiSelect':
    case 'deviceApiSelect':
      return many(isEntity) ? null : FORMAT_MESSAGES.select;
    case 'button':
    case 'radio': {
      const choices = choicesOf(field);
      const ok =
        field.type === 'button'
          ? many((v) => typeof v === 'string' && choices.includes(v))
          : typeof value === 'string' && choices.includes(value);
      return ok ? null : FORMAT_MESSAGES.choice;
    }
    case 'toggle':
      return typeof value === 'boolean' ? null : FORMAT_MESSAGES.toggle;
    case 'duration':
      return typeof value === 'string' && parseDuration(value) ? null : FORMAT_MESSAGES.duration;
    case 'rating': {
      const max = field.max ?? FORM_LIMITS.ratingMax;
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max ? null : FORMAT_MESSAGES.rating(max);
    }
    case 'dateTime': {
      const format = field.format || (field.withTime ? PICKER_DATE_TIME_FORMAT : PICKER_DATE_FORMAT);
      if (typeof value === 'string' && parseStrict(value, format)) return null;
      return field.withTime ? VALIDATION_MESSAGES.dateTimeFailed : VALIDATION_MESSAGES.dateFailed;
    }
    case 'randomid':
      return typeof value === 'string' && RANDOM_ID_PATTERN.test(value) ? null : FORMAT_MESSAGES.randomId;
    case 'daterange':
      return typeof value === 'string' && parseDateRange(value) ? null : FORMAT_MESSAGES.dateRange;
    case 'filerenderer':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && UID.test(v)) ? null : FORMAT_MESSAGES.files;
    case 'time':
      return typeof value === 'string' && parseStrict(value, TIME_FORMAT) ? null : FORMAT_MESSAGES.time;
    case 'multiLevelSelect':
      return Array.isArray(value) && levelPathExists((field.options ?? []) as MultiLevelOption[], value) ? null : FORMAT_MESSAGES.levels;
    case 'labelrenderer':
      return FORMAT_MESSAGES.noValue;
  }
}

/**
 * One field, as the form screen checks it on change and the server on submit: the required check (schema list,
 * field flag or rule), then the value format, then the field's rule. Null when the value passes.
 */
export function validateField(key: string, field: FormField, value: unknown, requiredList: readonly string[]): string | null {
  const label = labelOf(key, field);
  const required = requiredList.includes(key) || field.required === true || field.validation?.kind === 'required';
  if (isEmptyValue(value)) return required && field.type !== 'labelrenderer' ? VALIDATION_MESSAGES.required(label) : null;
  const format = checkFormat(field, value);
  if (format) return format;
  return field.validation ? applyRule(field.validation, value, label) : null;
}

/** Every field of a response: a map from field key to message, empty when the response is valid. */
export function validateResponse(metadata: FormMetadata, data: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  const { properties, required } = metadata.schema;
  for (const [key, field] of Object.entries(properties)) {
    const message = validateField(key, field, data[key], required);
    if (message) errors[key] = message;
  }
  for (const key of Object.keys(data)) if (!(key in properties)) errors[key] = FORMAT_MESSAGES.noValue;
  return errors;
}

/** The default value of each field, which the form screen shows read-only. */
export const defaultValues = (metadata: FormMetadata): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(metadata.schema.properties)
      .filter(([, f]) => f.defaultValue !== undefined && f.defaultValue !== null && f.defaultValue !== '')
      .map(([k, f]) => [k, f.defaultValue]),
  );
