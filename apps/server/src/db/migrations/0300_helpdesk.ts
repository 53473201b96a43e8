import { type Kysely, sql } from 'kysely';

/**
 * Helpdesk: tickets with their history, comments, attachments and attendance; issue types, escalation policies,
 * tenant configuration, per-user list preferences and CSV imports. Sites and devices are referenced by id without
 * a foreign key: they belong to another domain and a ticket outlives the device it was raised for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Time spent per status: closes the interval of the status left and opens one for the status entered.
    create function helpdesk_ageing(ageing jsonb, old_status text, new_status text, at timestamptz) returns jsonb
    language sql stable as $fn$
      select case when old_status is not distinct from new_status then ageing else
        coalesce(ageing, '{}'::jsonb)
        || case when old_status is null then '{}'::jsonb else jsonb_build_object(old_status,
             coalesce(ageing -> old_status, jsonb_build_object('count', 1))
             || jsonb_build_object(
               'duration', coalesce((ageing -> old_status ->> 'duration')::float8, 0)
                 + greatest(0, extract(epoch from at - coalesce((ageing -> old_status ->> 'enteredAt')::timestamptz, at))),
               'enteredAt', coalesce(ageing -> old_status -> 'enteredAt', to_jsonb(at)),
               'exitedAt', to_jsonb(at))) end
        || jsonb_build_object(new_status, jsonb_build_object(
             'duration', coalesce((ageing -> new_status ->> 'duration')::float8, 0),
             'enteredAt', to_jsonb(at),
             'exitedAt', null,
             'count', coalesce((ageing -> new_status ->> 'count')::int, 0) + 1))
      end
    $fn$;

    create table issue_types (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      sub_types text[] not null default '{}',
      ticket_types text[] not null default '{}',
      default_priority text,
      sla_hours int,
      description text not null default '',
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index issue_types_name_idx on issue_types (tenant_id, lower(name));

    create table escalation_policies (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      description text not null default '',
      ticket_types text[] not null default '{}',
      priorities text[] not null default '{}',
      events text[] not null default '{}',
      stop_at text not null default 'RESOLVED' check (stop_at in ('INPROGRESS', 'RESOLVED')),
      levels jsonb not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index escalation_policies_name_idx on escalation_policies (tenant_id, lower(name));

    create table ticket_counters (
      tenant_id int primary key references tenants(id) on delete cascade,
      value bigint not null default 0
    );

    create table tickets (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      ticket_no text not null,
      type text not null check (type in ('TICKET', 'WORKORDERTICKET', 'AIAlarmTicket', 'AlarmTicket')),
      status text not null check (status in ('OPEN', 'INPROGRESS', 'RESOLVED', 'CLOSED', 'ESCALATE', 'RE-OPENED', 'OVERDUE', 'INREVIEW', 'FLAGGED')),
      priority text not null,
      event text not null,
      sub_event text,
      title text not null,
      description text not null default '',
      assigned_to int references users(id) on delete set null,
      created_by int references users(id) on delete set null,
      created_by_email text,
      location_id int,
      entity_id int,
      entity_profile_type text,
      on_hold boolean not null default false,
      acknowledged boolean not null default false,
      event_date timestamptz not null default now(),
      due_date timestamptz,
      resolved_date timestamptz,
      assigned_date timestamptz,
      city text,
      asset_type text,
      device_name text,
      metadata jsonb not null default '{}',
      additional_information jsonb not null default '{}',
      status_ageing jsonb not null default '{}',
      watchers int[] not null default '{}',
      checklist jsonb not null default '[]',
      cost_incurred jsonb,
      rating smallint check (rating between 1 and 10),
      rating_comment text,
      rated_by int references users(id) on delete set null,
      rated_at timestamptz,
      rating_ticket_id bigint,
      parent_id bigint references tickets(id) on delete set null,
      sla_breached boolean not null default false,
      escalation_policy_id int references escalation_policies(id) on delete set null,
      escalation_level int not null default 0,
      escalation_cycle int not null default 0,
      escalation_due_at timestamptz,
      attachment_count int not null default 0,
      thumbnail_id bigint,
      version int not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      search tsvector generated always as (
        to_tsvector('simple'::regconfig, ticket_no || ' ' || title || ' ' || event || ' ' || coalesce(sub_event, '') || ' ' || left(description, 2000))
      ) stored,
      unique (tenant_id, ticket_no)
    );
    create index tickets_created_idx on tickets (tenant_id, created_at desc, id desc);
    create index tickets_status_created_idx on tickets (tenant_id, status, created_at desc, id desc);
    create index tickets_type_created_idx on tickets (tenant_id, type, created_at desc, id desc);
    create index tickets_type_status_created_idx on tickets (tenant_id, type, status, created_at desc, id desc);
    create index tickets_updated_idx on tickets (tenant_id, updated_at desc, id desc);
    create index tickets_assigned_idx on tickets (tenant_id, assigned_to, created_at desc) where assigned_to is not null;
    create index tickets_creator_idx on tickets (tenant_id, created_by, created_at desc) where created_by is not null;
    create index tickets_location_idx on tickets (tenant_id, location_id, created_at desc) where location_id is not null;
    create index tickets_entity_idx on tickets (tenant_id, entity_id, created_at desc) where entity_id is not null;
    create index tickets_watchers_idx on tickets using gin (watchers);
    create index tickets_search_idx on tickets using gin (search);
    create index tickets_parent_idx on tickets (parent_id) where parent_id is not null;
    create index tickets_escalation_due_idx on tickets (escalation_due_at) where escalation_due_at is not null;
    create index tickets_sla_due_idx on tickets (due_date) where not sla_breached and status not in ('RESOLVED', 'CLOSED') and due_date is not null;

    create table ticket_history (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      ticket_id bigint not null references tickets(id) on delete cascade,
      actor_id int references users(id) on delete set null,
      action text not null,
      changes jsonb not null default '[]',
      note text,
      created_at timestamptz not null default now()
    );
    create index ticket_history_ticket_idx on ticket_history (ticket_id, created_at desc, id desc);

    create table ticket_comments (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      ticket_id bigint not null references tickets(id) on delete cascade,
      author_id int references users(id) on delete set null,
      text text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ticket_comments_ticket_idx on ticket_comments (ticket_id, updated_at desc, id desc);

    create table ticket_attachments (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      ticket_id bigint not null references tickets(id) on delete cascade,
      name text not null,
      blob_key text not null,
      size int not null,
      content_type text not null,
      uploaded_by int references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ticket_attachments_ticket_idx on ticket_attachments (ticket_id, id);

    create table ticket_attendance (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      ticket_id bigint not null references tickets(id) on delete cascade,
      user_id int references users(id) on delete set null,
      note text not null default '',
      latitude double precision,
      longitude double precision,
      created_at timestamptz not null default now()
    );
    create index ticket_attendance_ticket_idx on ticket_attendance (ticket_id, created_at desc);

    create table helpdesk_config (
      tenant_id int primary key references tenants(id) on delete cascade,
      config jsonb not null default '{}',
      updated_at timestamptz not null default now()
    );

    create table ticket_user_prefs (
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      key text not null,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (user_id, key)
    );

    create table ticket_imports (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int references users(id) on delete set null,
      file_name text not null,
      blob_key text not null,
      status text not null default 'queued' check (status in ('queued', 'running', 'completed', 'failed')),
      total_rows int not null default 0,
      processed_rows int not null default 0,
      created_count int not null default 0,
      error_count int not null default 0,
      errors jsonb not null default '[]',
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index ticket_imports_tenant_idx on ticket_imports (tenant_id, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function helpdesk_ageing; drop table ticket_imports, ticket_user_prefs, helpdesk_config, ticket_attendance, ticket_attachments, ticket_comments, ticket_history, tickets, ticket_counters, escalation_policies, issue_types`.execute(
    db,
  );
}
