import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A one-time link to set a password, sent by e-mail; only its hash is kept. */
export interface PasswordTokensTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  token_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: Stamp;
  created_at: Generated<Date>;
}

export interface MailOutboxTable {
  id: Generated<number>;
  tenant_id: number;
  to: string;
  subject: string;
  body: string;
  created_at: Generated<Date>;
}

export interface UserAdminTables {
  password_tokens: PasswordTokensTable;
  mail_outbox: MailOutboxTable;
}
