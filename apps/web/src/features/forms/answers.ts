import type { FormField } from '@sitewatch/contracts/forms';

/** An answer as text for the response list and view. */
export function answerText(field: FormField | undefined, value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (field?.type === 'toggle') return value ? 'Yes' : 'No';
  if (field?.type === 'rating') return `${value} / ${field.max ?? 5}`;
  if (field?.type === 'multiLevelSelect' && Array.isArray(value)) return value.join(' › ');
  if (field?.type === 'filerenderer' && Array.isArray(value)) return `${value.length} file${value.length === 1 ? '' : 's'}`;
  const one = (v: unknown) => (typeof v === 'object' && v !== null && 'label' in v ? String((v as { label: unknown }).label) : String(v));
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
}
