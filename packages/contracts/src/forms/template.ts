import { z } from 'zod';
import { isUsableDateFormat } from './formats.ts';

/** The field types of SPEC 3. Group is a layout element of the uiSchema; the others are schema properties. */
export const FORM_FIELD_TYPES = [
  'string',
  'assetApiSelect',
  'deviceApiSelect',
  'button',
  'toggle',
  'duration',
  'radio',
  'rating',
  'dateTime',
  'randomid',
  'daterange',
  'filerenderer',
  'time',
  'multiLevelSelect',
  'labelrenderer',
  'Group',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];
export const VALUE_FIELD_TYPES = FORM_FIELD_TYPES.filter((t) => t !== 'Group');

export const FORM_LIMITS = {
  /** SPEC 9: attachment limit 1 MB. */
  attachmentBytes: 1024 * 1024,
  ratingMax: 5,
  ratingThreshold: 3,
  selectDebounceMs: 500,
  selectPageSize: 15,
  maxFields: 500,
  /** Groups nest in Groups this many levels deep at most (a Group at the top of the form is level 1). */
  groupDepth: 5,
  /** How often the form screen saves a draft. */
  draftSaveMs: 5000,
} as const;

export const FORM_MESSAGES = {
  notFound: 'Form Not found',
  submitted: 'Response submitted successfully!',
  submitFailed: 'Failed to submit response, Please try again later',
  noOptions: 'No Options Available!',
  checkingAttachments: 'Checking for attachments',
  uploadingAttachments: (percent: number) => `Uploading attachments... (${percent}%)`,
  uploadingResponse: 'Uploading Response...',
  attachmentTooLarge: 'Attachments file size too large - Failed to upload',
  uploadFailed: 'Upload attachments - Fail',
  groupTooDeep: `Groups can be nested at most ${FORM_LIMITS.groupDepth} levels deep`,
  versionChanged: (form: string, filled: number, current: number, changes: string) =>
    `The form “${form}” was changed after you filled it (version ${filled}, now version ${current}${changes ? `: ${changes}` : ''}). Open it again and fill it in.`,
} as const;

export const validationRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('required') }),
  z.strictObject({ kind: z.literal('date'), format: z.string().min(1).max(40).optional() }),
  z.strictObject({ kind: z.literal('dateTime'), format: z.string().min(1).max(40).optional() }),
  z.strictObject({ kind: z.literal('number'), min: z.number().finite().optional(), max: z.number().finite().optional() }),
]);
export type ValidationRule = z.infer<typeof validationRuleSchema>;

export interface MultiLevelOption {
  label: string;
  children?: MultiLevelOption[];
}
export const multiLevelOptionSchema: z.ZodType<MultiLevelOption> = z.lazy(() =>
  z.strictObject({ label: z.string().min(1).max(200), children: z.array(multiLevelOptionSchema).max(200).optional() }),
);
// A recursive schema needs a name for the OpenAPI document to refer to it.
multiLevelOptionSchema.register(z.globalRegistry, { id: 'FormMultiLevelOption' });

const choiceSchema = z.union([z.string().max(200), z.strictObject({ label: z.string().max(200), value: z.string().max(200) })]);

/** One field of a template (an entry of metadata.schema.properties), with every property SPEC 3 names. */
export const formFieldSchema = z.strictObject({
  type: z.string().min(1).max(40),
  label: z.string().max(250).optional(),
  description: z.string().max(2000).optional(),
  additionalInfo: z.string().max(2000).optional(),
  required: z.boolean().optional(),
  defaultValue: z.unknown().optional(),
  enum: z.array(z.string().max(200)).max(200).optional(),
  multiple: z.boolean().optional(),
  options: z
    .array(z.union([choiceSchema, multiLevelOptionSchema]))
    .max(200)
    .optional(),
  inputType: z.enum(['text', 'number', 'email', 'textarea', 'password', 'tel']).optional(),
  max: z.number().int().min(1).max(10).optional(),
  icon: z.string().max(60).optional(),
  size: z.enum(['small', 'medium', 'large']).optional(),
  withTime: z.boolean().optional(),
  format: z.string().max(40).optional(),
  inline: z.boolean().optional(),
  labels: z.array(z.string().max(100)).max(10).optional(),
  validation: z.unknown().optional(),
});
export type FormField = Omit<z.infer<typeof formFieldSchema>, 'type' | 'validation'> & {
  type: Exclude<FormFieldType, 'Group'>;
  validation?: ValidationRule;
};

export type UiElement =
  | { type: 'Control'; scope: string }
  | { type: 'Group'; label?: string; description?: string; placeholder?: string; elements: UiElement[] }
  | { type: 'VerticalLayout'; elements: UiElement[] };
export const uiElementSchema: z.ZodType<UiElement> = z.lazy(() =>
  z.union([
    z.strictObject({ type: z.literal('Control'), scope: z.string().regex(/^#\/properties\/[A-Za-z0-9_]+$/) }),
    z.strictObject({
      type: z.literal('Group'),
      label: z.string().max(250).optional(),
      description: z.string().max(2000).optional(),
      placeholder: z.string().max(250).optional(),
      elements: z.array(uiElementSchema).max(500),
    }),
    z.strictObject({ type: z.literal('VerticalLayout'), elements: z.array(uiElementSchema).max(500) }),
  ]),
);
uiElementSchema.register(z.globalRegistry, { id: 'FormUiElement' });

export const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export const formMetadataSchema = z.strictObject({
  schema: z.strictObject({
    type: z.literal('object').default('object'),
    properties: z.record(z.string(), formFieldSchema),
    required: z.array(z.string()).default([]),
  }),
  uiSchema: uiElementSchema.optional(),
});
export type FormMetadata = {
  schema: { type: 'object'; properties: Record<string, FormField>; required: string[] };
  uiSchema?: UiElement;
};

/** What a submission does besides being stored (beyond SPEC: tickets raised by submissions). */
export const formActionsSchema = z.strictObject({
  /** A rating field below the threshold raises a ticket. */
  lowRating: z
    .strictObject({ enabled: z.boolean(), field: z.string().max(64).optional(), threshold: z.number().int().min(1).max(10).optional() })
    .optional(),
  /** Every submission opens a ticket or work order with fields mapped from the answers. */
  openTicket: z
    .strictObject({
      enabled: z.boolean(),
      type: z.enum(['TICKET', 'WORKORDERTICKET']).default('TICKET'),
      titleField: z.string().max(64).optional(),
      descriptionField: z.string().max(64).optional(),
      assetField: z.string().max(64).optional(),
      deviceField: z.string().max(64).optional(),
    })
    .optional(),
});
export type FormActions = z.infer<typeof formActionsSchema>;

const viewName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^\/?[A-Za-z0-9/_{}:.-]*$/, 'A view is a route path such as /tickets');

export const formTemplateInputSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, 'Use letters, digits, spaces, dot, dash and underscore'),
  label: z.string().trim().min(1).max(250),
  description: z.string().max(2000).default(''),
  icon: z.string().max(60).default(''),
  views: z.array(viewName).max(50).default([]),
  metadata: formMetadataSchema,
  actions: formActionsSchema.default({}),
  /** The Cancel button can be hidden (SPEC 2.9). */
  hideCancel: z.boolean().default(false),
});
export type FormTemplateInput = z.input<typeof formTemplateInputSchema>;

export const formTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  description: z.string(),
  icon: z.string(),
  views: z.array(z.string()),
  metadata: z.custom<FormMetadata>(),
  actions: formActionsSchema,
  hideCancel: z.boolean(),
  version: z.number().int(),
  responseCount: z.number().int(),
  updatedAt: z.string(),
  createdAt: z.string(),
});
export type FormTemplate = z.infer<typeof formTemplateSchema>;

/** One problem of a template, naming the field it is about. */
export interface TemplateProblem {
  path: string;
  message: string;
}

function checkRule(key: string, field: FormField, rule: unknown, problems: TemplateProblem[]) {
  const parsed = validationRuleSchema.safeParse(rule);
  const path = `metadata.schema.properties.${key}.validation`;
  if (!parsed.success) {
    problems.push({ path, message: `Field "${key}" has a broken validation rule` });
    return;
  }
  const r = parsed.data;
  if ((r.kind === 'date' || r.kind === 'dateTime') && r.format && !isUsableDateFormat(r.format))
    problems.push({ path, message: `Field "${key}" has a date format without exactly one YYYY, MM and DD` });
  if (r.kind === 'number' && r.min !== undefined && r.max !== undefined && r.min > r.max)
    problems.push({ path, message: `Field "${key}" has a minimum greater than its maximum` });
  if (r.kind === 'number' && field.type !== 'string')
    problems.push({ path, message: `Field "${key}" is not a text field and cannot take a number rule` });
  if ((r.kind === 'date' || r.kind === 'dateTime') && !['string', 'dateTime'].includes(field.type))
    problems.push({ path, message: `Field "${key}" cannot take a ${r.kind} rule` });
}

function walkUi(element: UiElement, keys: Set<string>, seen: Set<string>, problems: TemplateProblem[], depth = 0) {
  if (element.type === 'Control') {
    const key = element.scope.slice('#/properties/'.length);
    if (!keys.has(key)) problems.push({ path: 'metadata.uiSchema', message: `The layout names an unknown field "${key}"` });
    else if (seen.has(key)) problems.push({ path: 'metadata.uiSchema', message: `Field "${key}" appears twice in the layout` });
    seen.add(key);
    return;
  }
  const level = element.type === 'Group' ? depth + 1 : depth;
  if (level > FORM_LIMITS.groupDepth) {
    problems.push({ path: 'metadata.uiSchema', message: FORM_MESSAGES.groupTooDeep });
    return;
  }
  for (const child of element.elements) walkUi(child, keys, seen, problems, level);
}

/**
 * Checks what the schema alone cannot: known field types, usable rules, options where a type needs them, a
 * required list and a layout that name existing fields. Empty when the template is sound.
 */
export function checkTemplate(metadata: z.infer<typeof formMetadataSchema>): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const keys = new Set(Object.keys(metadata.schema.properties));
  if (keys.size > FORM_LIMITS.maxFields)
    problems.push({ path: 'metadata.schema.properties', message: `A form has at most ${FORM_LIMITS.maxFields} fields` });
  for (const [key, raw] of Object.entries(metadata.schema.properties)) {
    const path = `metadata.schema.properties.${key}`;
    if (!FIELD_KEY.test(key)) problems.push({ path, message: `Field "${key}" needs a key of letters, digits and underscores` });
    if (!(VALUE_FIELD_TYPES as readonly string[]).includes(raw.type)) {
      problems.push({ path: `${path}.type`, message: `Field "${key}" has an unknown type "${raw.type}"` });
      continue;
    }
    const field = raw as FormField;
    if (raw.validation !== undefined) checkRule(key, field, raw.validation, problems);
    if ((field.type === 'radio' || field.type === 'button') && !(field.enum?.length || field.options?.length))
      problems.push({ path: `${path}.options`, message: `Field "${key}" needs at least one option` });
    if (field.type === 'multiLevelSelect') {
      const ok = field.options?.length && field.options.every((o) => multiLevelOptionSchema.safeParse(o).success);
      if (!ok) problems.push({ path: `${path}.options`, message: `Field "${key}" needs options with a label and children` });
    }
    if (field.max !== undefined && field.type !== 'rating')
      problems.push({ path: `${path}.max`, message: `Field "${key}" is not a rating and cannot take max` });
  }
  for (const key of metadata.schema.required)
    if (!keys.has(key)) problems.push({ path: 'metadata.schema.required', message: `The required list names an unknown field "${key}"` });
  if (metadata.uiSchema) walkUi(metadata.uiSchema, keys, new Set(), problems);
  return problems;
}
