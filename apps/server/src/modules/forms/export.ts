import type { FormField, FormMetadata, UiElement } from '@sitewatch/contracts';
import { z } from 'zod';
import type { Db } from '../../platform/db.ts';
import type { ExportColumn, ExportSource } from '../downloads/index.ts';
import type { UserDirectory } from '../users/directory.ts';
import { withSubmitters } from './people.ts';
import * as repo from './repository.ts';
import { canReadAll } from './response-service.ts';

const params = z.strictObject({
  formTemplate: z.number().int().positive(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
type Params = z.infer<typeof params>;

const FIXED_COLUMNS: readonly ExportColumn[] = [
  { key: 'id', header: 'Response ID', type: 'integer' },
  { key: 'form', header: 'Form', type: 'text' },
  { key: 'version', header: 'Version', type: 'integer' },
  { key: 'submittedBy', header: 'Submitted By', type: 'text' },
  { key: 'createdAt', header: 'Submitted At', type: 'datetime' },
];
/** The row key of a field's column: a field key has no colon, so a field named "version" is no fixed column. */
const fieldColumn = (key: string) => `field:${key}`;

/** An answer as one CSV cell: selects by label, lists joined, files by count. */
function cell(field: FormField | undefined, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field?.type === 'filerenderer' && Array.isArray(value)) return `${value.length} file(s)`;
  const one = (v: unknown) => (typeof v === 'object' && v !== null && 'label' in v ? String((v as { label: unknown }).label) : String(v));
  if (field?.type === 'multiLevelSelect' && Array.isArray(value)) return value.join(' > ');
  return Array.isArray(value) ? value.map(one).join('; ') : one(value);
}

/** The value fields of a template in its order: the layout's, Groups flattened at any depth, then fields the layout leaves out. */
export function fieldsInOrder(metadata: FormMetadata): Array<[string, FormField]> {
  const { properties } = metadata.schema;
  const keys = new Set<string>();
  const walk = (element: UiElement) => {
    if (element.type === 'Control') keys.add(element.scope.slice('#/properties/'.length));
    else for (const child of element.elements) walk(child);
  };
  if (metadata.uiSchema) walk(metadata.uiSchema);
  for (const key of Object.keys(properties)) keys.add(key);
  const fields: Array<[string, FormField]> = [];
  for (const key of keys) {
    const field = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (field && field.type !== 'labelrenderer') fields.push([key, field]);
  }
  return fields;
}

/**
 * The responses of one form as CSV through the downloads job centre: the fixed columns, then one column per field
 * (headed by its label, else its key). The fields are the current template's, then those only older versions had
 * (newest version first), so responses filled against an older version keep their answers; the header does not
 * depend on the date filters.
 */
export function formResponsesSource(db: Db, users: Pick<UserDirectory, 'byIds'>): ExportSource<Params> {
  return {
    kind: 'form-responses',
    label: 'Form Responses',
    params,
    columns: FIXED_COLUMNS,
    async columnsFor(scope, p) {
      const template = await repo.templateById(db, scope.tenantId, p.formTemplate);
      if (!template) return FIXED_COLUMNS;
      const columns = [...FIXED_COLUMNS];
      const seen = new Set<string>();
      const add = ([key, field]: [string, FormField]) => {
        if (seen.has(key)) return;
        seen.add(key);
        columns.push({ key: fieldColumn(key), header: field.label || key, type: 'text' });
      };
      const current = fieldsInOrder(template.metadata);
      current.forEach(add);
      const older = await repo.versionsWithOtherFields(db, scope.tenantId, template.id, template.version, [...seen]);
      for (const v of older) fieldsInOrder(v.metadata).forEach(add);
      return columns;
    },
    allowed: (scope) => canReadAll({ permissions: new Set(scope.permissions) }),
    count: (scope, p) => repo.countResponses(db, scope.tenantId, p.formTemplate, { from: p.from, to: p.to }),
    async fetchPage(scope, p, cursor, limit) {
      const template = await repo.templateById(db, scope.tenantId, p.formTemplate);
      if (!template) return { rows: [], nextCursor: null };
      const after = cursor ? (JSON.parse(cursor) as { createdAt: string; id: number }) : null;
      const rows = await withSubmitters(
        users,
        scope.tenantId,
        await repo.listResponses(db, scope.tenantId, p.formTemplate, { from: p.from, to: p.to }, after, limit),
      );
      // Each answer is read with the field as it was in the version the response was filled against.
      const fieldsOf = new Map<number, FormMetadata['schema']['properties']>([[template.version, template.metadata.schema.properties]]);
      const older = [...new Set(rows.map((r) => r.version))].filter((v) => !fieldsOf.has(v));
      for (const v of await repo.versionsMetadata(db, scope.tenantId, template.id, older))
        fieldsOf.set(v.version, v.metadata.schema.properties);
      const current = template.metadata.schema.properties;
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => {
          const fields = fieldsOf.get(r.version) ?? current;
          const row: Record<string, unknown> = {
            id: Number(r.id),
            form: template.label,
            version: r.version,
            submittedBy: r.submitter_name ?? r.username ?? '',
            createdAt: new Date(r.created_at).toISOString(),
          };
          for (const [key, value] of Object.entries(r.data)) {
            const field =
              (Object.hasOwn(fields, key) ? fields[key] : undefined) ?? (Object.hasOwn(current, key) ? current[key] : undefined);
            if (field?.type !== 'labelrenderer') row[fieldColumn(key)] = cell(field, value);
          }
          return row;
        }),
        nextCursor:
          rows.length === limit && last
            ? JSON.stringify({ createdAt: new Date(last.created_at).toISOString(), id: Number(last.id) })
            : null,
      };
    },
  };
}
