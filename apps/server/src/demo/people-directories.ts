import type { Seeder } from './seeder.ts';

const AREAS = ['North', 'Central', 'South'];
const EXTRA_EXECUTIVES = [
  { username: 'fieldexec2', firstname: 'Lena', lastname: 'Park', code: 'FE-102', area: 'Central' },
  { username: 'fieldexec3', firstname: 'Omar', lastname: 'Aziz', code: 'FE-103', area: 'South' },
];

/**
 * Field profiles for the demo field executive, store manager and infra admin, two more field executives (without a
 * password: they sign in after an administrator sets one), and clusters led by the demo city lead, area head and
 * regional head, each over a share of the tenant's sites.
 */
export const peopleDirectoriesSeeder: Seeder = {
  name: 'people-directories',
  async run({ db, tenantId, slug }) {
    const users = await db.selectFrom('users').select(['id', 'username', 'group_ids']).where('tenant_id', '=', tenantId).execute();
    const byName = new Map(users.map((u) => [u.username, u]));
    const fieldExec = byName.get('fieldexecutive');
    for (const extra of EXTRA_EXECUTIVES) {
      if (byName.has(extra.username)) continue;
      const row = await db
        .insertInto('users')
        .values({
          tenant_id: tenantId,
          username: extra.username,
          email: `${extra.username}@${slug}.example.com`,
          firstname: extra.firstname,
          lastname: extra.lastname,
          mobile: null,
          password_hash: '!unset:demo',
          roles: ['fieldexecutive'],
          group_ids: fieldExec?.group_ids ?? [],
          profile: JSON.stringify({}),
          notification_config: JSON.stringify({ popup: true }),
        })
        .onConflict((oc) => oc.doNothing())
        .returning(['id', 'username'])
        .executeTakeFirst();
      if (row) byName.set(row.username, { ...row, group_ids: [] });
    }
    const sites = await db.selectFrom('assets').select('id').where('tenant_id', '=', tenantId).orderBy('id').execute();
    const profiles = [
      { username: 'fieldexecutive', code: 'FE-101', designation: 'Field Executive', area: 'North' },
      { username: 'storemanager', code: 'SM-201', designation: 'Store Manager', area: 'Central' },
      { username: 'infraadmin', code: 'IA-301', designation: 'Infrastructure Administrator', area: 'North' },
      ...EXTRA_EXECUTIVES.map((e) => ({ username: e.username, code: e.code, designation: 'Field Executive', area: e.area })),
    ];
    for (const [i, p] of profiles.entries()) {
      const user = byName.get(p.username);
      if (!user) continue;
      await db
        .insertInto('field_profiles')
        .values({
          user_id: user.id,
          tenant_id: tenantId,
          employee_code: p.code,
          designation: p.designation,
          area: p.area,
          territory: `${p.area} territory`,
          joined_on: `202${i % 5}-0${(i % 9) + 1}-15`,
          notes: null,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      if (EXTRA_EXECUTIVES.some((e) => e.username === p.username) && sites.length > 0) {
        const mine = sites.filter((_, k) => k % 3 === i % 3).slice(0, 5);
        if (mine.length)
          await db
            .insertInto('user_assets')
            .values(mine.map((s) => ({ tenant_id: tenantId, user_id: user.id, asset_id: s.id })))
            .onConflict((oc) => oc.doNothing())
            .execute();
      }
    }
    const lead = (name: string) => byName.get(name)?.id ?? null;
    const existing = await db.selectFrom('clusters').select('name').where('tenant_id', '=', tenantId).execute();
    for (const [i, area] of AREAS.entries()) {
      if (existing.some((c) => c.name.toLowerCase() === `${area} cluster`.toLowerCase())) continue;
      const cluster = await db
        .insertInto('clusters')
        .values({
          tenant_id: tenantId,
          name: `${area} cluster`,
          description: `Sites of the ${area.toLowerCase()} area`,
          city_lead_id: lead('citylead'),
          area_head_id: lead('areahead'),
          regional_head_id: lead('regionalhead'),
        })
        .returning('id')
        .executeTakeFirst();
      if (!cluster) continue;
      const mine = sites.filter((_, k) => k % AREAS.length === i);
      if (mine.length)
        await db
          .insertInto('cluster_sites')
          .values(mine.map((s) => ({ tenant_id: tenantId, cluster_id: cluster.id, asset_id: s.id })))
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
  },
};
