import { randomUUID } from 'node:crypto';
import {
  COMMON_MESSAGES,
  FORM_LIMITS,
  FORM_MESSAGES,
  FORM_PERMISSIONS,
  FORMAT_MESSAGES,
  type FormAttachment,
  type FormMetadata,
  type FormResponse,
  type FormResponseListQuery,
  type FormTemplate,
  type formResponseCreateSchema,
  VALIDATION_MESSAGES,
  validateResponse,
} from '@sitewatch/contracts';
import type { z } from 'zod';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { type BlobStore, blobKey } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, HttpError, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import { sniffContentType } from '../../platform/sniff.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import type { SubmissionActions } from './actions.ts';
import { withSubmitters } from './people.ts';
import * as repo from './repository.ts';
import type { TemplateService } from './template-service.ts';

export const FORM_SUBMITTED_EVENT = 'form.submitted' as const;

type ResponseCreate = z.output<typeof formResponseCreateSchema>;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
export const canReadAll = (auth: Pick<AuthContext, 'permissions'>) => auth.permissions.has(FORM_PERMISSIONS.readResponses);

export function toResponse(
  row: repo.ResponseRow & { submitter_name: string | null; username: string | null },
  attachments: FormAttachment[],
): FormResponse {
  return {
    id: Number(row.id),
    formTemplate: row.template_id,
    version: row.version,
    data: row.data,
    attachments,
    submittedBy: row.submitted_by === null ? null : { id: row.submitted_by, name: row.submitter_name ?? row.username ?? '' },
    ticketIds: row.ticket_ids,
    createdAt: iso(row.created_at),
    performedAt: row.performed_at ? iso(row.performed_at) : null,
  };
}

const encodeCursor = (createdAt: Date | string, id: number) => Buffer.from(`${iso(createdAt)}|${id}`).toString('base64url');
function decodeCursor(cursor: string) {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)) || !/^\d+$/.test(id)) throw badRequest('Invalid cursor');
  return { createdAt, id: Number(id) };
}

export interface ResponseDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  blobs: BlobStore;
  directory: SiteDirectory;
  /** Submitters' names (the users module's directory). */
  users: Pick<UserDirectory, 'byIds'>;
  templates: TemplateService;
  actions: SubmissionActions;
  log: { error(obj: unknown, msg: string): void };
}

/** Responses, their attachments and drafts. Everyone fills forms; reading others' answers needs a permission. */
export function createResponseService(deps: ResponseDeps) {
  const { db, directory } = deps;

  /** Asset and device answers must be sites and devices the caller may see (never naming the others). */
  async function checkSelections(auth: AuthContext, metadata: FormMetadata, data: Record<string, unknown>) {
    const errors: Array<{ path: string; message: string }> = [];
    let visible: number[] | 'all' | undefined;
    for (const [key, field] of Object.entries(metadata.schema.properties)) {
      if (field.type !== 'assetApiSelect' && field.type !== 'deviceApiSelect') continue;
      const value = data[key];
      if (value === undefined || value === null) continue;
      visible ??= await directory.visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
      for (const item of (Array.isArray(value) ? value : [value]) as Array<{ id: number }>) {
        let assetId: number | null = null;
        let exists = false;
        if (field.type === 'assetApiSelect') {
          const asset = await directory.asset(auth.tenantId, item.id);
          exists = asset !== null;
          assetId = asset?.id ?? null;
        } else {
          const device = await directory.device(auth.tenantId, item.id);
          exists = device !== null;
          assetId = device?.assetId ?? null;
        }
        const sees = visible === 'all' || (assetId !== null && visible.includes(assetId));
        if (!exists || !sees) errors.push({ path: key, message: FORMAT_MESSAGES.select });
      }
    }
    return errors;
  }

  /**
   * Answers filled against an older version of the form (kept on a phone while the form was published again) are
   * refused, naming the change: they may miss a field now required, or answer one no longer asked.
   */
  async function refuseChangedForm(auth: AuthContext, template: FormTemplate, filled: number): Promise<never> {
    const old = await deps.templates.atVersion(auth, template.id, filled).catch(() => null);
    const fieldsOf = (t: Pick<FormTemplate, 'metadata'>) => t.metadata.schema.properties;
    const now = fieldsOf(template);
    const before = old ? fieldsOf(old) : {};
    const label = (fields: typeof now, key: string) => fields[key]?.label || key;
    const added = Object.keys(now).filter((k) => !(k in before));
    const removed = Object.keys(before).filter((k) => !(k in now));
    const changes = old
      ? [
          added.length ? `added ${added.map((k) => label(now, k)).join(', ')}` : '',
          removed.length ? `removed ${removed.map((k) => label(before, k)).join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ')
      : '';
    throw conflict(FORM_MESSAGES.versionChanged(template.label, filled, template.version, changes), 'form_changed');
  }

  async function attachmentsByResponse(tenantId: number, ids: number[]) {
    const rows = await repo.attachmentsOf(db, tenantId, ids);
    const by = new Map<number, FormAttachment[]>();
    for (const r of rows) {
      const list = by.get(Number(r.response_id)) ?? [];
      list.push({ uid: r.uid, name: r.name, size: r.size, type: r.type });
      by.set(Number(r.response_id), list);
    }
    return by;
  }

  return {
    /** Stored by content: the first bytes decide the type, the name is kept only for display. */
    async upload(auth: AuthContext, files: Array<{ name: string; data: Buffer }>) {
      const contents: FormAttachment[] = [];
      for (const file of files) {
        if (file.data.length > FORM_LIMITS.attachmentBytes) throw new HttpError(413, COMMON_MESSAGES.attachmentTooLarge, 'file_too_large');
        if (file.data.length === 0) throw badRequest('The file is empty');
        const type = sniffContentType(file.data);
        if (!type) throw new HttpError(415, 'Only images, PDF, MP4 and plain text files can be attached', 'unsupported_type');
        const uid = randomUUID();
        const key = blobKey('forms', auth.tenantId, uid);
        await deps.blobs.put(key, file.data);
        const name = file.name.replace(/[\\/\0]/g, '_').slice(0, 200) || 'attachment';
        contents.push(
          await repo.insertAttachment(db, auth.tenantId, { uid, userId: auth.userId, name, size: file.data.length, type, blobKey: key }),
        );
      }
      return { contents };
    },

    /** An attachment may be read by its uploader, and by those who may read the response it belongs to. */
    async attachmentFile(auth: AuthContext, uid: string) {
      const row = await repo.attachmentByUid(db, auth.tenantId, uid);
      const mine = row && (row.user_id === auth.userId || row.submitted_by === auth.userId);
      if (!row || !(mine || (row.response_id !== null && canReadAll(auth)))) throw notFound();
      const file = await deps.blobs.open(row.blob_key);
      if (!file) throw notFound();
      return { ...file, name: row.name, type: row.type };
    },

    /** `origin`: who submits it, for the activity log (null: not recorded); the entry names the form, not the answers. */
    async submit(auth: AuthContext, body: ResponseCreate, origin: AuditOrigin | null) {
      const template = await deps.templates.get(auth, body.formTemplate);
      if (body.version !== undefined && body.version !== template.version) await refuseChangedForm(auth, template, body.version);
      const errors = Object.entries(validateResponse(template.metadata, body.data)).map(([path, message]) => ({ path, message }));
      errors.push(...(await checkSelections(auth, template.metadata, body.data)));
      if (errors.length) throw new HttpError(400, VALIDATION_MESSAGES.fillRequired, 'invalid_response', errors);
      const fileUids = Object.entries(template.metadata.schema.properties)
        .filter(([, f]) => f.type === 'filerenderer')
        .flatMap(([k]) => (Array.isArray(body.data[k]) ? (body.data[k] as string[]) : []));
      const uids = [...new Set([...body.attachments.map((a) => a.uid), ...fileUids])];
      const owned = await repo.unclaimedAttachments(db, auth.tenantId, auth.userId, uids);
      if (owned.length !== uids.length) throw badRequest('An attachment is missing or already used; upload it again', 'invalid_attachment');
      const id = await db.transaction().execute(async (trx) => {
        const responseId = await repo.insertResponse(trx, auth.tenantId, {
          templateId: template.id,
          version: template.version,
          data: body.data,
          userId: auth.userId,
          createdAt: deps.clock.now(),
          performedAt: origin?.performedAt ?? null,
        });
        await repo.claimAttachments(trx, auth.tenantId, uids, responseId);
        await repo.deleteDraft(trx, auth.tenantId, template.id, auth.userId);
        if (origin)
          await writeActivity(trx, origin, {
            action: 'form-response.create',
            object: { type: 'form-response', id: responseId },
            after: { formTemplate: template.id, formName: template.name, version: template.version, attachments: uids.length },
          });
        return responseId;
      });
      const ticketIds = await deps.actions.run(auth, template, id, body.data, body.context);
      if (ticketIds.length) await repo.setResponseTickets(db, auth.tenantId, id, ticketIds);
      deps.events.emit({
        type: FORM_SUBMITTED_EVENT,
        tenantId: auth.tenantId,
        payload: { formTemplate: template.id, responseId: id, version: template.version, ticketIds },
      });
      return this.view(auth, template.id, id).then((v) => v.response);
    },

    async list(auth: AuthContext, templateId: number, query: FormResponseListQuery) {
      await deps.templates.get(auth, templateId);
      const filter: repo.ResponseFilter = {
        from: query.from,
        to: query.to,
        submittedBy: query.submittedBy,
        version: query.version,
        search: query.search,
        onlyUser: canReadAll(auth) ? undefined : auth.userId,
      };
      const after = query.cursor ? decodeCursor(query.cursor) : null;
      const [rows, totalCount] = await Promise.all([
        repo.listResponses(db, auth.tenantId, templateId, filter, after, query.limit + 1),
        repo.countResponses(db, auth.tenantId, templateId, filter),
      ]);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      const [files, named] = await Promise.all([
        attachmentsByResponse(
          auth.tenantId,
          page.map((r) => Number(r.id)),
        ),
        withSubmitters(deps.users, auth.tenantId, page),
      ]);
      return {
        contents: named.map((r) => toResponse(r, files.get(Number(r.id)) ?? [])),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last.created_at, Number(last.id)) : null,
        totalCount,
      };
    },

    /** A response with the template version it was filled against. */
    async view(auth: AuthContext, templateId: number, responseId: number) {
      await deps.templates.get(auth, templateId);
      const row = await repo.responseById(db, auth.tenantId, templateId, responseId);
      if (!row || !(canReadAll(auth) || row.submitted_by === auth.userId)) throw notFound();
      const [files, [named]] = await Promise.all([
        attachmentsByResponse(auth.tenantId, [Number(row.id)]),
        withSubmitters(deps.users, auth.tenantId, [row]),
      ]);
      return {
        response: toResponse(named ?? { ...row, submitter_name: null, username: null }, files.get(Number(row.id)) ?? []),
        template: await deps.templates.atVersion(auth, templateId, row.version),
      };
    },

    async draft(auth: AuthContext, templateId: number) {
      await deps.templates.get(auth, templateId);
      const row = await repo.draftOf(db, auth.tenantId, templateId, auth.userId);
      if (!row) return { formTemplate: templateId, data: null, updatedAt: null };
      return { formTemplate: templateId, data: row.data, updatedAt: iso(row.updated_at) };
    },

    async saveDraft(auth: AuthContext, templateId: number, data: Record<string, unknown>) {
      await deps.templates.get(auth, templateId);
      if (JSON.stringify(data).length > 256 * 1024) throw badRequest('The draft is too large');
      const row = await repo.saveDraft(db, auth.tenantId, templateId, auth.userId, data);
      return { formTemplate: templateId, data: row.data, updatedAt: iso(row.updated_at) };
    },

    async deleteDraft(auth: AuthContext, templateId: number) {
      await deps.templates.get(auth, templateId);
      await repo.deleteDraft(db, auth.tenantId, templateId, auth.userId);
    },
  };
}
export type ResponseService = ReturnType<typeof createResponseService>;
