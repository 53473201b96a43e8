import { type Kysely, sql } from 'kysely';

/**
 * User administration: the mail outbox, one-time set-password tokens, and the user permissions that guard the
 * screens. Groups that could already add or change users also get to view and delete them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_outbox (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      "to" text not null,
      subject text not null,
      body text not null,
      created_at timestamptz not null default now()
    );
    create index mail_outbox_tenant_idx on mail_outbox (tenant_id, created_at desc);
    create table password_tokens (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index password_tokens_user_idx on password_tokens (tenant_id, user_id);
    update groups g set permissions = g.permissions || coalesce((
      select jsonb_agg(p) from jsonb_array_elements('[
        {"codename": "view_user", "name": "Can view user"},
        {"codename": "delete_user", "name": "Can delete user"}
      ]'::jsonb) p
      where not exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = p->>'codename')
    ), '[]'::jsonb)
    where exists (
      select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' in ('add_user', 'change_user')
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table password_tokens, mail_outbox`.execute(db);
}
