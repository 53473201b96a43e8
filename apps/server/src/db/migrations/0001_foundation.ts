import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table app_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );
    create table tenants (
      id serial primary key,
      slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
      name text not null,
      domains text[] not null default '{}',
      logo text,
      settings jsonb not null default '{}',
      version_info jsonb not null default '{}',
      created_at timestamptz not null default now()
    );
    create index tenants_domains_idx on tenants using gin (domains);
    create table groups (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      permissions jsonb not null default '[]',
      unique (tenant_id, name)
    );
    create table users (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      username text not null,
      email text not null,
      firstname text not null default '',
      lastname text not null default '',
      mobile text,
      password_hash text not null,
      roles text[] not null default '{}',
      group_ids int[] not null default '{}',
      profile jsonb not null default '{}',
      notification_config jsonb not null default '{"popup": true}',
      failed_logins int not null default 0,
      locked_until timestamptz,
      totp_secret text,
      totp_enabled boolean not null default false,
      is_active boolean not null default true,
      password_changed_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_tenant_username_idx on users (tenant_id, lower(username));
    create unique index users_tenant_mobile_idx on users (tenant_id, mobile) where mobile is not null;
    create index users_tenant_email_idx on users (tenant_id, lower(email));
    create table sessions (
      id uuid primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      cookie_hash text not null unique,
      login_role text not null,
      login_method text not null,
      user_agent text,
      ip text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      refresh_gen int not null default 0
    );
    create index sessions_user_idx on sessions (tenant_id, user_id);
    create table captchas (
      id uuid primary key,
      tenant_id int not null,
      answer_hash text not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index captchas_expires_idx on captchas (expires_at);
    create table otp_codes (
      id bigserial primary key,
      tenant_id int not null,
      user_id int not null references users(id) on delete cascade,
      code_hash text not null,
      attempts int not null default 0,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index otp_codes_user_idx on otp_codes (tenant_id, user_id, created_at desc);
    create table audit_log (
      id bigserial primary key,
      tenant_id int not null,
      user_id int,
      username text,
      action text not null,
      outcome text not null check (outcome in ('success', 'failure', 'denied')),
      ip text,
      user_agent text,
      detail jsonb not null default '{}',
      created_at timestamptz not null default now()
    );
    create index audit_log_tenant_idx on audit_log (tenant_id, created_at desc);
    create table sms_outbox (
      id bigserial primary key,
      tenant_id int not null,
      "to" text not null,
      body text not null,
      created_at timestamptz not null default now()
    );
    create index sms_outbox_tenant_idx on sms_outbox (tenant_id, id desc);
    create table system_alerts (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      message text not null,
      created_by int,
      active boolean not null default true,
      created_at timestamptz not null default now()
    );
    create index system_alerts_tenant_idx on system_alerts (tenant_id, active);
    create table demo_seeders (
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      applied_at timestamptz not null default now(),
      primary key (tenant_id, name)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table demo_seeders, system_alerts, sms_outbox, audit_log, otp_codes, captchas, sessions, users, groups, tenants, app_secrets`.execute(
    db,
  );
}
