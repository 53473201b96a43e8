import type { FormField, FormMetadata, UiElement } from '@sitewatch/contracts/forms';

/** JSON type of each field type, so that JSON Forms resolves paths and defaults like any JSON Schema. */
const JSON_TYPE: Record<FormField['type'], string> = {
  string: 'string',
  assetApiSelect: 'object',
  deviceApiSelect: 'object',
  button: 'string',
  toggle: 'boolean',
  duration: 'string',
  radio: 'string',
  rating: 'integer',
  dateTime: 'string',
  randomid: 'string',
  daterange: 'string',
  filerenderer: 'array',
  time: 'string',
  multiLevelSelect: 'array',
  labelrenderer: 'null',
};

export interface FieldSchema extends Omit<FormField, 'type'> {
  type: string;
  /** Our field type; the renderer set picks the control by it. */
  fieldType: FormField['type'];
  title?: string;
}

/** The template as JSON Forms takes it: a JSON Schema with our field type beside the JSON type, and a layout. */
export function toJsonForms(metadata: FormMetadata) {
  const properties: Record<string, FieldSchema> = {};
  for (const [key, field] of Object.entries(metadata.schema.properties)) {
    const multiple = field.multiple && ['assetApiSelect', 'deviceApiSelect', 'button'].includes(field.type);
    properties[key] = { ...field, type: multiple ? 'array' : JSON_TYPE[field.type], fieldType: field.type, title: field.label ?? key };
  }
  const uischema: UiElement = metadata.uiSchema ?? {
    type: 'VerticalLayout',
    elements: Object.keys(metadata.schema.properties).map((key) => ({ type: 'Control', scope: `#/properties/${key}` })),
  };
  return { schema: { type: 'object', properties, required: metadata.schema.required }, uischema };
}

/** Keys of the fields in layout order (for focusing the first error). */
export function fieldKeysInOrder(element: UiElement): string[] {
  if (element.type === 'Control') return [element.scope.replace('#/properties/', '')];
  return element.elements.flatMap(fieldKeysInOrder);
}
