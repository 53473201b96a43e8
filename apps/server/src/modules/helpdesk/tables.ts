import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T extends object | null> = JSONColumnType<T, string | undefined, string>;

export interface AgeingEntry {
  duration: number;
  enteredAt: string;
  exitedAt: string | null;
  count: number;
}

export interface StoredChecklistItem {
  id: string;
  text: string;
  done: boolean;
  doneBy: number | null;
  doneAt: string | null;
}

export interface StoredCost {
  amount: number;
  currency: string;
  note: string;
}

export interface StoredLevel {
  waitMinutes: number;
  assigneeId: number | null;
  role: string | null;
  notify: { assignee: boolean; owner: boolean; watchers: boolean; userIds: number[] };
  message: string;
}

export interface StoredChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface TicketsTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_no: string;
  type: string;
  status: string;
  priority: string;
  event: string;
  sub_event: string | null;
  title: string;
  description: Generated<string>;
  assigned_to: number | null;
  vendor_id: number | null;
  created_by: number | null;
  created_by_email: string | null;
  location_id: number | null;
  entity_id: number | null;
  entity_profile_type: string | null;
  on_hold: Generated<boolean>;
  acknowledged: Generated<boolean>;
  event_date: Timestamp;
  due_date: NullableTimestamp;
  resolved_date: NullableTimestamp;
  assigned_date: NullableTimestamp;
  city: string | null;
  asset_type: string | null;
  device_name: string | null;
  metadata: Json<Record<string, unknown>>;
  additional_information: Json<Record<string, unknown>>;
  status_ageing: Json<Record<string, AgeingEntry>>;
  watchers: ColumnType<number[], number[] | undefined, number[]>;
  checklist: Json<StoredChecklistItem[]>;
  cost_incurred: JSONColumnType<StoredCost | null, string | null | undefined, string | null>;
  rating: number | null;
  rating_comment: string | null;
  rated_by: number | null;
  rated_at: NullableTimestamp;
  rating_ticket_id: number | null;
  parent_id: number | null;
  sla_breached: Generated<boolean>;
  escalation_policy_id: number | null;
  escalation_level: Generated<number>;
  escalation_cycle: Generated<number>;
  escalation_due_at: NullableTimestamp;
  /** Set while a maintenance window pauses the SLA of the ticket's site; due times move on by the pause at resume. */
  sla_paused_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  attachment_count: Generated<number>;
  thumbnail_id: number | null;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  search: ColumnType<string, never, never>;
}

export interface TicketHistoryTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_id: number;
  actor_id: number | null;
  action: string;
  changes: Json<StoredChange[]>;
  note: string | null;
  created_at: Timestamp;
  /** When it was done at the site, if it was sent later (X-Action-Time). */
  performed_at: ColumnType<Date | null, Date | null | undefined, never>;
}

export interface TicketCommentsTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_id: number;
  author_id: number | null;
  text: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  performed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface TicketAttachmentsTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_id: number;
  name: string;
  blob_key: string;
  size: number;
  content_type: string;
  uploaded_by: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TicketAttendanceTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_id: number;
  user_id: number | null;
  note: string;
  latitude: number | null;
  longitude: number | null;
  created_at: Generated<Date>;
}

export interface TicketCountersTable {
  tenant_id: number;
  value: number;
}

export interface IssueTypesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  sub_types: ColumnType<string[], string[] | undefined, string[]>;
  ticket_types: ColumnType<string[], string[] | undefined, string[]>;
  default_priority: string | null;
  sla_hours: number | null;
  description: string;
  active: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface EscalationPoliciesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  description: string;
  ticket_types: ColumnType<string[], string[] | undefined, string[]>;
  priorities: ColumnType<string[], string[] | undefined, string[]>;
  events: ColumnType<string[], string[] | undefined, string[]>;
  stop_at: string;
  levels: Json<StoredLevel[]>;
  active: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface HelpdeskConfigTable {
  tenant_id: number;
  config: Json<Record<string, unknown>>;
  updated_at: Timestamp;
}

export interface TicketUserPrefsTable {
  tenant_id: number;
  user_id: number;
  key: string;
  value: Json<Record<string, unknown>>;
  updated_at: Timestamp;
}

export interface TicketImportsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number | null;
  file_name: string;
  blob_key: string;
  status: Generated<string>;
  total_rows: Generated<number>;
  processed_rows: Generated<number>;
  created_count: Generated<number>;
  error_count: Generated<number>;
  errors: Json<{ row: number; field: string | null; message: string }[]>;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

export interface HelpdeskTables {
  tickets: TicketsTable;
  ticket_history: TicketHistoryTable;
  ticket_comments: TicketCommentsTable;
  ticket_attachments: TicketAttachmentsTable;
  ticket_attendance: TicketAttendanceTable;
  ticket_counters: TicketCountersTable;
  issue_types: IssueTypesTable;
  escalation_policies: EscalationPoliciesTable;
  helpdesk_config: HelpdeskConfigTable;
  ticket_user_prefs: TicketUserPrefsTable;
  ticket_imports: TicketImportsTable;
}
