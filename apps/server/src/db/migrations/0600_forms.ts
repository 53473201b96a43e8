import { type Kysely, sql } from 'kysely';

/** Dynamic forms (SPEC 3): templates with their versions, responses, drafts and attachments. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table form_templates (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      label text not null,
      description text not null default '',
      icon text not null default '',
      views text[] not null default '{}',
      metadata jsonb not null,
      actions jsonb not null default '{}',
      hide_cancel boolean not null default false,
      version int not null default 1,
      response_count int not null default 0,
      created_by int references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index form_templates_name_idx on form_templates (tenant_id, lower(name));
    create index form_templates_views_idx on form_templates using gin (views);
    create table form_template_versions (
      tenant_id int not null references tenants(id) on delete cascade,
      template_id int not null references form_templates(id) on delete cascade,
      version int not null,
      label text not null,
      description text not null default '',
      icon text not null default '',
      views text[] not null default '{}',
      metadata jsonb not null,
      actions jsonb not null default '{}',
      hide_cancel boolean not null default false,
      created_by int references users(id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (template_id, version)
    );
    create table form_responses (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      template_id int not null references form_templates(id) on delete cascade,
      version int not null,
      data jsonb not null,
      submitted_by int references users(id) on delete set null,
      ticket_ids int[] not null default '{}',
      created_at timestamptz not null default now()
    );
    create index form_responses_list_idx on form_responses (tenant_id, template_id, created_at desc, id desc);
    create table form_attachments (
      uid uuid primary key default gen_random_uuid(),
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int references users(id) on delete set null,
      response_id bigint references form_responses(id) on delete cascade,
      name text not null,
      size int not null,
      type text not null,
      blob_key text not null,
      created_at timestamptz not null default now()
    );
    create index form_attachments_response_idx on form_attachments (tenant_id, response_id);
    create table form_drafts (
      tenant_id int not null references tenants(id) on delete cascade,
      template_id int not null references form_templates(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      data jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, template_id, user_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table form_drafts, form_attachments, form_responses, form_template_versions, form_templates`.execute(db);
}
