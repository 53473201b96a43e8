import { type Kysely, sql } from 'kysely';

/** Self-registration requests: confirmed by e-mail, then approved (creating the user) or rejected by an admin. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table registration_requests (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      username text not null,
      email text not null,
      firstname text not null,
      lastname text not null,
      mobile text,
      password_hash text not null,
      status text not null default 'unconfirmed' check (status in ('unconfirmed', 'pending', 'approved', 'rejected')),
      confirm_token_hash text not null unique,
      confirm_expires_at timestamptz not null,
      confirmed_at timestamptz,
      decided_by int references users(id) on delete set null,
      decided_at timestamptz,
      reason text,
      user_id int references users(id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index registration_requests_tenant_idx on registration_requests (tenant_id, status, created_at desc);
    create unique index registration_requests_open_email_idx on registration_requests (tenant_id, lower(email))
      where status in ('unconfirmed', 'pending');
    create unique index registration_requests_open_username_idx on registration_requests (tenant_id, lower(username))
      where status in ('unconfirmed', 'pending');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table registration_requests`.execute(db);
}
