import { MANAGE_ALARM_RULES } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../src/db/migrations/0203_alarm_rule_permission.ts';
import { createTestApp, type TestApp } from './support/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const rule = (name: string) => ({ name, kind: 'inactivity', deviceType: 'UPS', durationSeconds: 600, severity: 'MAJOR', enabled: false });

const groupOf = async (username: string) =>
  (
    await t.db
      .selectFrom('users')
      .select(sql<number>`group_ids[1]`.as('gid'))
      .where('tenant_id', '=', t.tenantA)
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).gid;

describe('alarm rule permission', () => {
  it('refuses tenant-wide rule changes to field roles holding only edit_alarm_config', async () => {
    const admin = await t.login('customeradmin');
    const created = await admin.post('/api/alarms/rules/', rule('UPS silent'));
    expect(created.statusCode).toBe(201);
    const fe = await t.login('fieldexecutive');
    expect(fe.user).toBeTruthy();
    expect((await fe.post('/api/alarms/rules/', rule('mine'))).statusCode).toBe(403);
    expect((await fe.put(`/api/alarms/rules/${created.json().id}/`, rule('changed'))).statusCode).toBe(403);
    expect((await fe.delete(`/api/alarms/rules/${created.json().id}/`)).statusCode).toBe(403);
  });

  it('lets a group granted manage_alarm_rules change rules', async () => {
    const gid = await groupOf('fieldexecutive');
    await t.db
      .updateTable('groups')
      .set({ permissions: sql`permissions || ${JSON.stringify([MANAGE_ALARM_RULES])}::jsonb` })
      .where('id', '=', gid)
      .execute();
    const fe = await t.login('fieldexecutive');
    expect((await fe.post('/api/alarms/rules/', rule('granted'))).statusCode).toBe(201);
  });

  it('gives the permission to existing administrators’ groups on upgrade, once', async () => {
    const gid = await groupOf('customeradmin');
    const strip = sql<string>`coalesce((select jsonb_agg(p) from jsonb_array_elements(permissions) p where p->>'codename' <> 'manage_alarm_rules'), '[]'::jsonb)`;
    await t.db.updateTable('groups').set({ permissions: strip }).where('id', '=', gid).execute();
    await up(t.db as never);
    await up(t.db as never);
    const row = await t.db.selectFrom('groups').select('permissions').where('id', '=', gid).executeTakeFirstOrThrow();
    const codes = (row.permissions as unknown as { codename: string }[]).map((p) => p.codename);
    expect(codes.filter((c) => c === 'manage_alarm_rules')).toHaveLength(1);
    const viewers = await groupOf('customer');
    const viewerRow = await t.db.selectFrom('groups').select('permissions').where('id', '=', viewers).executeTakeFirstOrThrow();
    expect(JSON.stringify(viewerRow.permissions)).not.toContain('manage_alarm_rules');
  });
});
