import { z } from 'zod';
import { INT4_MAX, idCoerced, idSchema } from '../common.ts';
import type { PermissionCodename } from '../permissions.ts';
import { formTemplateSchema } from './template.ts';

export const FORM_PERMISSIONS = {
  /** Create, change and restore templates in the builder. */
  build: 'change_form_template',
  /** Read other people's responses, list them per form and export them. */
  readResponses: 'view_form_response',
} as const satisfies Record<string, PermissionCodename>;

export const formTemplateQuerySchema = z.strictObject({
  name: z.string().max(120).optional(),
  /** Templates bound to this route (the floating Forms button). */
  view: z.string().max(200).optional(),
  search: z.string().max(120).optional(),
});
export const formTemplateListSchema = z.object({ contents: z.array(formTemplateSchema), totalCount: z.number().int() });

export const formVersionSchema = z.object({
  version: z.number().int(),
  label: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  fieldCount: z.number().int(),
});
export const formVersionListSchema = z.object({ contents: z.array(formVersionSchema) });
export const formVersionParamSchema = z.object({ id: idCoerced, version: idCoerced });

export const formAttachmentSchema = z.object({ uid: z.uuid(), name: z.string(), size: z.number().int(), type: z.string() });
export type FormAttachment = z.infer<typeof formAttachmentSchema>;
export const formAttachmentListSchema = z.object({ contents: z.array(formAttachmentSchema) });
export const attachmentUidParamSchema = z.object({ uid: z.uuid() });

/** Where the form was opened from: pre-fills the asset and device selects (beyond SPEC). */
export const formContextSchema = z.strictObject({
  assetId: idSchema.optional(),
  deviceId: idSchema.optional(),
  ticketId: idSchema.optional(),
});

export const formResponseCreateSchema = z.strictObject({
  formTemplate: idSchema,
  data: z.record(z.string(), z.unknown()),
  attachments: z
    .array(z.strictObject({ uid: z.uuid() }))
    .max(50)
    .default([]),
  context: formContextSchema.optional(),
  /** The version of the form the answers were filled against: a response to an older one is refused (409). */
  version: z.number().int().min(1).max(INT4_MAX).optional(),
});
export type FormResponseCreate = z.input<typeof formResponseCreateSchema>;

export const formResponseSchema = z.object({
  id: z.number().int(),
  formTemplate: z.number().int(),
  version: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  attachments: z.array(formAttachmentSchema),
  submittedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  ticketIds: z.array(z.number().int()),
  createdAt: z.string(),
  /** When it was submitted at the site, when that was before it reached the server (sent from the phone's outbox). */
  performedAt: z.string().nullable(),
});
export type FormResponse = z.infer<typeof formResponseSchema>;

export const formResponseListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  /** Keyset cursor from the previous page. */
  cursor: z.string().max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  submittedBy: idCoerced.optional(),
  version: idCoerced.optional(),
  search: z.string().max(120).optional(),
});
export type FormResponseListQuery = z.infer<typeof formResponseListQuerySchema>;
export const formResponseListSchema = z.object({
  contents: z.array(formResponseSchema),
  nextCursor: z.string().nullable(),
  totalCount: z.number().int(),
});
export const formResponseParamSchema = z.object({ id: idCoerced, responseId: idCoerced });
/** A response with the template version it was filled against (always shown with that version). */
export const formResponseViewSchema = z.object({ response: formResponseSchema, template: formTemplateSchema });

/** A user's draft of a form; data and updatedAt are null when there is none. */
export const formDraftSchema = z.object({
  formTemplate: z.number().int(),
  data: z.record(z.string(), z.unknown()).nullable(),
  updatedAt: z.string().nullable(),
});
export const formDraftSaveSchema = z.strictObject({ data: z.record(z.string(), z.unknown()) });
