import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * Reports (issue 18): purchase requests for spare parts with their lines, the generic report schedules, the unit
 * cost of inventory items (the last purchase price, which values the stock), and the file format of a download
 * job plus whether its completion goes to the inbox. Purchase request permissions go to the groups that view the
 * inventory (approval to the groups that change users), and /inventory-report and /pr-report join the Inventory
 * menu of existing tenants.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table purchase_requests (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      title varchar(200) not null,
      state varchar(12) not null default 'DRAFT'
        check (state in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'ORDERED', 'RECEIVED', 'CANCELLED')),
      source varchar(12) not null default 'MANUAL' check (source in ('MANUAL', 'TICKET', 'LOW_STOCK')),
      store_id int not null,
      asset_id int,
      ticket_id int,
      ticket_ref varchar(40),
      requester_id int,
      decided_by int,
      note varchar(500) not null default '',
      reason varchar(500) not null default '',
      total numeric(16, 2) not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      submitted_at timestamptz,
      decided_at timestamptz,
      received_at timestamptz
    );
    create index purchase_requests_list_idx on purchase_requests (tenant_id, created_at desc, id desc);
    create index purchase_requests_state_idx on purchase_requests (tenant_id, state);
    create index purchase_requests_ticket_idx on purchase_requests (tenant_id, ticket_id) where ticket_id is not null;

    create table purchase_request_lines (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      request_id int not null references purchase_requests(id) on delete cascade,
      item_id int not null,
      quantity int not null check (quantity > 0),
      unit_cost numeric(14, 2) not null default 0 check (unit_cost >= 0)
    );
    create index purchase_request_lines_request_idx on purchase_request_lines (tenant_id, request_id);
    create unique index purchase_request_lines_item_idx on purchase_request_lines (request_id, item_id);

    create table report_schedules (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null,
      kind varchar(40) not null,
      name varchar(120) not null,
      frequency varchar(8) not null check (frequency in ('DAILY', 'WEEKLY', 'MONTHLY')),
      time_of_day varchar(5) not null,
      day_of_week int check (day_of_week between 0 and 6),
      day_of_month int check (day_of_month between 1 and 28),
      format varchar(4) not null check (format in ('csv', 'xlsx', 'pdf')),
      params jsonb not null default '{}',
      next_run_at timestamptz not null,
      last_run_at timestamptz,
      last_job_id int,
      created_at timestamptz not null default now()
    );
    create index report_schedules_user_idx on report_schedules (tenant_id, user_id, id);
    create index report_schedules_due_idx on report_schedules (next_run_at);

    alter table inventory_items add column unit_cost numeric(14, 2) not null default 0 check (unit_cost >= 0);

    alter table download_jobs add column format varchar(4) not null default 'csv';
    alter table download_jobs add column notify boolean not null default false;
  `.execute(db);
  await grantPermissions(
    db,
    [
      { codename: 'view_purchaserequest', name: 'Can view purchase request' },
      { codename: 'add_purchaserequest', name: 'Can add purchase request' },
      { codename: 'change_purchaserequest', name: 'Can change purchase request' },
    ],
    ['view_inventory'],
  );
  await grantPermissions(db, [{ codename: 'approve_purchaserequest', name: 'Can approve purchase request' }], ['change_user']);
  await addMenuEntries(db, [
    {
      group: 'Inventory',
      item: { label: 'Inventory Report', value: '/inventory-report', icon: 'inventory', permission: 'view_inventory' },
    },
    {
      group: 'Inventory',
      item: { label: 'Purchase Requests', value: '/pr-report', icon: 'inventory', permission: 'view_purchaserequest' },
    },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table download_jobs drop column if exists notify;
    alter table download_jobs drop column if exists format;
    alter table inventory_items drop column if exists unit_cost;
    drop table if exists report_schedules;
    drop table if exists purchase_request_lines;
    drop table if exists purchase_requests;
  `.execute(db);
}
