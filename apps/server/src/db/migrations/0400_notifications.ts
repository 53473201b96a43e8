import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      verb text not null,
      message text not null,
      actor_id int references users(id) on delete set null,
      metadata jsonb not null,
      dedupe_key text,
      created_at timestamptz not null default now()
    );
    create unique index notifications_dedupe_idx on notifications (tenant_id, dedupe_key) where dedupe_key is not null;
    create index notifications_created_idx on notifications (created_at);
    create table notification_inbox (
      id bigserial primary key,
      uuid uuid not null unique default gen_random_uuid(),
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      notification_id bigint not null references notifications(id) on delete cascade,
      is_read boolean not null default false,
      read_at timestamptz,
      created_at timestamptz not null default now(),
      unique (notification_id, user_id)
    );
    create index notification_inbox_user_idx on notification_inbox (tenant_id, user_id, created_at desc, id desc);
    create index notification_inbox_unread_idx on notification_inbox (tenant_id, user_id) where not is_read;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table notification_inbox, notifications`.execute(db);
}
