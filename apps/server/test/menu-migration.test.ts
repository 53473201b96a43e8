import type { MenuItem } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMenuEntries } from '../src/db/menu.ts';
import { grantPermissions } from '../src/db/permissions.ts';
import { createTestApp, type TestApp } from './support/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const menuOf = async (tenantId: number) =>
  (await sql<{ menu: MenuItem[] }>`select settings -> 'menu' as menu from tenants where id = ${tenantId}`.execute(t.db)).rows[0]?.menu ??
  [];

describe('addMenuEntries (for migrations)', () => {
  it("adds a new domain's entries to every existing tenant's menu once, keeping the other settings", async () => {
    const before = await menuOf(t.tenantA);
    const helpline = (await t.db.selectFrom('tenants').select('settings').where('id', '=', t.tenantA).executeTakeFirstOrThrow()).settings;
    const additions = [{ group: 'Helpdesk', item: { label: 'Forms', value: '/forms-test' } }];
    expect(await addMenuEntries(t.db, additions)).toBeGreaterThanOrEqual(2);
    for (const tenantId of [t.tenantA, t.tenantB]) {
      const helpdesk = (await menuOf(tenantId)).find((i) => i.label === 'Helpdesk');
      expect(helpdesk?.children?.at(-1)).toEqual({ label: 'Forms', value: '/forms-test' });
    }
    expect((await menuOf(t.tenantA)).length).toBe(before.length);
    expect(await addMenuEntries(t.db, additions)).toBe(0);
    const after = (await t.db.selectFrom('tenants').select('settings').where('id', '=', t.tenantA).executeTakeFirstOrThrow()).settings;
    expect((after as { helpline?: unknown }).helpline).toEqual((helpline as { helpline?: unknown }).helpline);
  });
});

describe('grantPermissions (for migrations)', () => {
  const codenamesOf = async (groupId: number) =>
    (
      (await t.db.selectFrom('groups').select('permissions').where('id', '=', groupId).executeTakeFirstOrThrow()).permissions as Array<{
        codename: string;
      }>
    ).map((p) => p.codename);

  it('gives the new permissions once to the groups holding one of the named codenames, and to no other group', async () => {
    const groups = await t.db.selectFrom('groups').select(['id', 'permissions']).execute();
    const holds = (g: (typeof groups)[number], codename: string) =>
      (g.permissions as Array<{ codename: string }>).some((p) => p.codename === codename);
    const holders = groups.filter((g) => holds(g, 'change_user'));
    const others = groups.filter((g) => !holds(g, 'change_user'));
    expect(holders.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);

    const grant = [{ codename: 'view_grant_test', name: 'Can view grant test' }];
    await grantPermissions(t.db, grant, ['change_user']);
    await grantPermissions(t.db, grant, ['change_user']);
    for (const g of holders) expect((await codenamesOf(g.id)).filter((c) => c === 'view_grant_test')).toHaveLength(1);
    for (const g of others) expect(await codenamesOf(g.id)).not.toContain('view_grant_test');
  });
});
