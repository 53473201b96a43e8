import type { FormActions, FormMetadata } from '@sitewatch/contracts';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Json<T extends object> = JSONColumnType<T, string, string>;

/** A form template at its current version (SPEC 3). */
export interface FormTemplatesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  label: string;
  description: string;
  icon: string;
  views: string[];
  metadata: Json<FormMetadata>;
  actions: Json<FormActions>;
  hide_cancel: boolean;
  version: Generated<number>;
  response_count: Generated<number>;
  created_by: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Every saved version of a template; a response names the version it was filled against. */
export interface FormTemplateVersionsTable {
  tenant_id: number;
  template_id: number;
  version: number;
  label: string;
  description: string;
  icon: string;
  views: string[];
  metadata: Json<FormMetadata>;
  actions: Json<FormActions>;
  hide_cancel: boolean;
  created_by: number | null;
  created_at: Generated<Date>;
}

export interface FormResponsesTable {
  id: Generated<number>;
  tenant_id: number;
  template_id: number;
  version: number;
  data: Json<Record<string, unknown>>;
  submitted_by: number | null;
  ticket_ids: Generated<number[]>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  performed_at: ColumnType<Date | null, Date | null | undefined, never>;
}

export interface FormAttachmentsTable {
  uid: Generated<string>;
  tenant_id: number;
  user_id: number | null;
  response_id: number | null;
  name: string;
  size: number;
  type: string;
  blob_key: string;
  created_at: Generated<Date>;
}

export interface FormDraftsTable {
  tenant_id: number;
  template_id: number;
  user_id: number;
  data: Json<Record<string, unknown>>;
  updated_at: Generated<Date>;
}

export interface FormTables {
  form_templates: FormTemplatesTable;
  form_template_versions: FormTemplateVersionsTable;
  form_responses: FormResponsesTable;
  form_attachments: FormAttachmentsTable;
  form_drafts: FormDraftsTable;
}
