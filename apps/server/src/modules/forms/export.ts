import type { FormField } from '@sitewatch/contracts';
import { z } from 'zod';
import type { Db } from '../../platform/db.ts';
import type { ExportSource } from '../downloads/index.ts';
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

/** An answer as one CSV cell: selects by label, lists joined, files by count. */
function cell(field: FormField | undefined, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field?.type === 'filerenderer' && Array.isArray(value)) return `${value.length} file(s)`;
  const one = (v: unknown) => (typeof v === 'object' && v !== null && 'label' in v ? String((v as { label: unknown }).label) : String(v));
  if (field?.type === 'multiLevelSelect' && Array.isArray(value)) return value.join(' > ');
  return Array.isArray(value) ? value.map(one).join('; ') : one(value);
}

/**
 * The responses of one form as CSV through the downloads job centre. Columns are fixed (the registry's shape),
 * so the answers go into one cell as "Label: value" pairs in the order of the template.
 */
export function formResponsesSource(db: Db, users: Pick<UserDirectory, 'byIds'>): ExportSource<Params> {
  return {
    kind: 'form-responses',
    label: 'Form Responses',
    params,
    columns: [
      { key: 'id', header: 'Response ID' },
      { key: 'form', header: 'Form' },
      { key: 'version', header: 'Version' },
      { key: 'submittedBy', header: 'Submitted By' },
      { key: 'createdAt', header: 'Submitted At' },
      { key: 'answers', header: 'Answers' },
    ],
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
      const fields = Object.entries(template.metadata.schema.properties).filter(([, f]) => f.type !== 'labelrenderer');
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => ({
          id: Number(r.id),
          form: template.label,
          version: r.version,
          submittedBy: r.submitter_name ?? r.username ?? '',
          createdAt: new Date(r.created_at).toISOString(),
          answers: fields.map(([k, f]) => `${f.label || k}: ${cell(f, r.data[k])}`).join(' | '),
        })),
        nextCursor:
          rows.length === limit && last
            ? JSON.stringify({ createdAt: new Date(last.created_at).toISOString(), id: Number(last.id) })
            : null,
      };
    },
  };
}
