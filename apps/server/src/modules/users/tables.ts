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

export interface RegistrationRequestsTable {
  id: Generated<number>;
  tenant_id: number;
  username: string;
  email: string;
  firstname: string;
  lastname: string;
  mobile: string | null;
  password_hash: string;
  status: Generated<'unconfirmed' | 'pending' | 'approved' | 'rejected'>;
  confirm_token_hash: string;
  confirm_expires_at: ColumnType<Date, Date | string, Date | string>;
  confirmed_at: Stamp;
  decided_by: number | null;
  decided_at: Stamp;
  reason: string | null;
  user_id: number | null;
  created_at: Generated<Date>;
}

/** The field profile of a field executive, store manager or infra admin (one per user). */
export interface FieldProfilesTable {
  user_id: number;
  tenant_id: number;
  employee_code: string | null;
  designation: string | null;
  area: string | null;
  territory: string | null;
  joined_on: ColumnType<string | null, string | null | undefined, string | null>;
  notes: string | null;
  updated_at: Generated<Date>;
}

export interface UserAdminTables {
  registration_requests: RegistrationRequestsTable;
  password_tokens: PasswordTokensTable;
  field_profiles: FieldProfilesTable;
}
