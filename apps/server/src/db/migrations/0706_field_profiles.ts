import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';

/**
 * Field staff profiles (field executives, store managers, infra admins): one row per user of those roles, owned by
 * the users module; the employee code is unique per tenant. Their directories join the Administration menu.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table field_profiles (
      user_id int primary key references users(id) on delete cascade,
      tenant_id int not null references tenants(id) on delete cascade,
      employee_code text,
      designation text,
      area text,
      territory text,
      joined_on date,
      notes text,
      updated_at timestamptz not null default now()
    );
    create unique index field_profiles_code_idx on field_profiles (tenant_id, lower(employee_code)) where employee_code is not null;
    create index field_profiles_area_idx on field_profiles (tenant_id, lower(area));
  `.execute(db);
  await addMenuEntries(db, [
    { group: 'Administration', item: { label: 'Field Executives', value: '/field-executives', icon: 'users', permission: 'view_user' } },
    { group: 'Administration', item: { label: 'Store Managers', value: '/store-manager', icon: 'users', permission: 'view_user' } },
    { group: 'Administration', item: { label: 'Infra Admins', value: '/infra-admin', icon: 'users', permission: 'view_user' } },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists field_profiles`.execute(db);
}
