import {
  checkTemplate,
  FORM_MESSAGES,
  FORM_PERMISSIONS,
  type FormMetadata,
  type FormTemplate,
  formTemplateInputSchema,
  type formTemplateQuerySchema,
} from '@sitewatch/contracts';
import type { z } from 'zod';
import { type AuditOrigin, changedFields, masked, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { UserDirectory } from '../users/directory.ts';
import { withCreators } from './people.ts';
import * as repo from './repository.ts';

type TemplateInput = z.output<typeof formTemplateInputSchema>;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

const contentOf = (row: repo.TemplateRow): repo.TemplateContent => ({
  name: row.name,
  label: row.label,
  description: row.description,
  icon: row.icon,
  views: row.views,
  metadata: row.metadata,
  actions: row.actions,
  hideCancel: row.hide_cancel,
});

export function toTemplate(row: repo.TemplateRow): FormTemplate {
  return {
    id: row.id,
    ...contentOf(row),
    version: row.version,
    responseCount: row.response_count,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export const canBuild = (auth: AuthContext) => auth.permissions.has(FORM_PERMISSIONS.build);
export const formNotFound = () => notFound(FORM_MESSAGES.notFound);

/** A template that breaks its rules is a 400 naming the first field at fault, with the full list. */
function checked(input: TemplateInput): repo.TemplateContent {
  const problems = checkTemplate(input.metadata);
  if (problems.length) throw new HttpError(400, (problems[0] as { message: string }).message, 'invalid_template', problems);
  const metadata = { ...input.metadata, schema: { ...input.metadata.schema, type: 'object' as const } } as FormMetadata;
  return {
    name: input.name,
    label: input.label,
    description: input.description,
    icon: input.icon,
    views: [...new Set(input.views.map((v) => (v.startsWith('/') ? v : `/${v}`)))],
    metadata,
    actions: input.actions,
    hideCancel: input.hideCancel,
  };
}

/**
 * A template's fields as its activity log entries show them. The form's fields are named by the version that holds
 * them (the version history keeps every version's whole content) and counted, not copied.
 */
const templateRecord = (c: repo.TemplateContent, version: number) =>
  masked({
    name: c.name,
    label: c.label,
    description: c.description,
    icon: c.icon,
    views: c.views,
    actions: c.actions,
    hideCancel: c.hideCancel,
    fieldCount: Object.keys(c.metadata.schema?.properties ?? {}).length,
    version,
  } as Record<string, unknown>);

/** Templates: anyone signed in reads and fills them; building needs the build permission. */
export function createTemplateService(deps: { db: Db; users: Pick<UserDirectory, 'byIds'> }) {
  const { db } = deps;

  async function get(auth: AuthContext, id: number) {
    const row = await repo.templateById(db, auth.tenantId, id);
    if (!row) throw formNotFound();
    return row;
  }

  const isNameTaken = (error: unknown) => (error as { code?: string }).code === '23505';

  /** A save's entry: the changed fields, and always the version before and after (where the fields' changes are). */
  const recordUpdate = (
    trx: Db,
    origin: AuditOrigin,
    current: repo.TemplateRow,
    content: repo.TemplateContent,
    version: number,
    detail?: Record<string, unknown>,
  ) =>
    writeActivity(trx, origin, {
      action: 'form-template.update',
      object: { type: 'form-template', id: current.id },
      ...changedFields(templateRecord(contentOf(current), current.version), templateRecord(content, version)),
      ...(detail ? { detail } : {}),
    });

  return {
    get: async (auth: AuthContext, id: number) => toTemplate(await get(auth, id)),

    async byName(auth: AuthContext, name: string) {
      const row = await repo.templateByName(db, auth.tenantId, name);
      if (!row) throw formNotFound();
      return toTemplate(row);
    },

    async list(auth: AuthContext, query: z.infer<typeof formTemplateQuerySchema>) {
      const rows = await repo.listTemplates(db, auth.tenantId, { view: query.view, search: query.search });
      return { contents: rows.map(toTemplate), totalCount: rows.length };
    },

    /** `origin`: who builds it, for the activity log (null: not recorded). */
    async create(auth: AuthContext, input: TemplateInput, origin: AuditOrigin | null) {
      if (!canBuild(auth)) throw forbidden();
      const content = checked(input);
      try {
        const id = await db.transaction().execute(async (trx) => {
          const id = await repo.insertTemplate(trx, auth.tenantId, content, auth.userId);
          if (origin)
            await writeActivity(trx, origin, {
              action: 'form-template.create',
              object: { type: 'form-template', id },
              after: templateRecord(content, 1),
            });
          return id;
        });
        return toTemplate(await get(auth, id));
      } catch (error) {
        if (isNameTaken(error)) throw conflict(`A form named "${content.name}" already exists`, 'name_taken');
        throw error;
      }
    },

    /** Saves the whole template as its next version; with `version`, refuses when someone saved in between. */
    async update(auth: AuthContext, id: number, input: TemplateInput, origin: AuditOrigin | null, expectedVersion?: number) {
      if (!canBuild(auth)) throw forbidden();
      const current = await get(auth, id);
      const content = checked(input);
      try {
        const version = await db.transaction().execute(async (trx) => {
          const version = await repo.updateTemplate(trx, auth.tenantId, id, content, auth.userId, expectedVersion);
          if (version !== null && origin) await recordUpdate(trx, origin, current, content, version);
          return version;
        });
        if (version === null) throw conflict('This form was changed by someone else; reload it to see their changes', 'stale_version');
      } catch (error) {
        if (isNameTaken(error)) throw conflict(`A form named "${content.name}" already exists`, 'name_taken');
        throw error;
      }
      return toTemplate(await get(auth, id));
    },

    async remove(auth: AuthContext, id: number, origin: AuditOrigin | null) {
      if (!canBuild(auth)) throw forbidden();
      const current = await get(auth, id);
      await db.transaction().execute(async (trx) => {
        await repo.deleteTemplate(trx, auth.tenantId, id);
        if (origin)
          await writeActivity(trx, origin, {
            action: 'form-template.delete',
            object: { type: 'form-template', id },
            before: templateRecord(contentOf(current), current.version),
          });
      });
    },

    async versions(auth: AuthContext, id: number) {
      if (!canBuild(auth)) throw forbidden();
      await get(auth, id);
      const rows = await withCreators(deps.users, auth.tenantId, await repo.listVersions(db, auth.tenantId, id));
      return {
        contents: rows.map((r) => ({
          version: r.version,
          label: r.label,
          createdAt: iso(r.created_at),
          createdBy: r.created_by_name,
          fieldCount: r.field_count,
        })),
      };
    },

    /** The template as it was at a version (a response is always shown with the version it was filled against). */
    async atVersion(auth: AuthContext, id: number, version: number): Promise<FormTemplate> {
      const current = await get(auth, id);
      if (version === current.version) return toTemplate(current);
      const old = await repo.versionOf(db, auth.tenantId, id, version);
      if (!old) throw notFound('No such version of this form');
      return {
        ...toTemplate(current),
        label: old.label,
        description: old.description,
        icon: old.icon,
        views: old.views,
        metadata: old.metadata,
        actions: old.actions,
        hideCancel: old.hide_cancel,
        version: old.version,
        updatedAt: iso(old.created_at),
      };
    },

    /** Restoring saves the old content as a new version, so that nothing is lost. */
    async restore(auth: AuthContext, id: number, version: number, origin: AuditOrigin | null) {
      if (!canBuild(auth)) throw forbidden();
      const current = await get(auth, id);
      const old = await repo.versionOf(db, auth.tenantId, id, version);
      if (!old) throw notFound('No such version of this form');
      const input = formTemplateInputSchema.safeParse({
        name: current.name,
        label: old.label,
        description: old.description,
        icon: old.icon,
        views: old.views,
        metadata: old.metadata,
        actions: old.actions,
        hideCancel: old.hide_cancel,
      });
      if (!input.success) throw badRequest('This version can no longer be restored');
      const content = checked(input.data);
      await db.transaction().execute(async (trx) => {
        const saved = await repo.updateTemplate(trx, auth.tenantId, id, content, auth.userId);
        if (saved !== null && origin) await recordUpdate(trx, origin, current, content, saved, { restoredVersion: version });
      });
      return toTemplate(await get(auth, id));
    },
  };
}
export type TemplateService = ReturnType<typeof createTemplateService>;
