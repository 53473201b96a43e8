import type { NotificationMetadata } from '@sitewatch/contracts';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** One thing that happened, told to one or more users. */
export interface NotificationsTable {
  id: Generated<number>;
  tenant_id: number;
  verb: string;
  message: string;
  actor_id: number | null;
  metadata: JSONColumnType<NotificationMetadata>;
  /** The same event handled twice yields one notification. */
  dedupe_key: string | null;
  created_at: Generated<Date>;
}

/** A notification in one user's inbox, read or not. */
export interface NotificationInboxTable {
  id: Generated<number>;
  uuid: Generated<string>;
  tenant_id: number;
  user_id: number;
  notification_id: number;
  is_read: Generated<boolean>;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Generated<Date>;
}

export interface NotificationTables {
  notifications: NotificationsTable;
  notification_inbox: NotificationInboxTable;
}
