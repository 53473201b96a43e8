import { type Kysely, sql } from 'kysely';

/** The changes a user sent with an `Idempotency-Key` (the phone's outbox), kept two days to answer repeats. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      tenant_id integer not null references tenants(id) on delete cascade,
      user_id integer not null,
      key varchar(255) not null,
      request_hash char(64) not null,
      status smallint,
      body jsonb,
      created_at timestamptz not null default now(),
      primary key (tenant_id, user_id, key)
    )`.execute(db);
  await sql`create index idempotency_keys_created_idx on idempotency_keys (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table idempotency_keys`.execute(db);
}
