import type { Recurrence } from '@sitewatch/contracts';
import { bounds, utcToLocal } from '../modules/calendar/recurrence.ts';
import type { Seeder } from './seeder.ts';

/**
 * Calendar demo data: weekly shifts for the field executives, site visits over the next two weeks, monthly
 * preventive maintenance, and one upcoming maintenance window on a device of a demo site (its timers are set by the
 * calendar's periodic sweep).
 */

const DAY = 86_400_000;

export const calendarSeeder: Seeder = {
  name: 'calendar',
  async run({ db, tenantId, slug, random }) {
    const zone = slug === 'acme' ? 'America/Chicago' : 'Asia/Kolkata';
    const sites = await db.selectFrom('assets').select(['id', 'name']).where('tenant_id', '=', tenantId).orderBy('id').limit(12).execute();
    const field = await db
      .selectFrom('users')
      .select(['id'])
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb('roles', '@>', eb.val(['fieldexecutive'])))
      .orderBy('id')
      .limit(8)
      .execute();
    const admin = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('username', '=', 'customeradmin')
      .executeTakeFirst();
    const today = utcToLocal(new Date(), zone).slice(0, 10);
    const dayOf = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10);
    // The Monday of this week, so the weekly shifts show from today on.
    const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
    const monday = dayOf(-((weekday + 6) % 7));
    const rows: Record<string, unknown>[] = [];
    const add = (e: {
      title: string;
      kind: string;
      start: string;
      end: string;
      recurrence?: Recurrence | null;
      siteId?: number | null;
      deviceId?: number | null;
      assignees?: number[];
      notes?: string;
      color?: string | null;
    }) => {
      const recurrence = e.recurrence ?? null;
      const b = bounds({ startLocal: e.start, endLocal: e.end, timeZone: zone, allDay: false, recurrence, exceptions: [] });
      rows.push({
        tenant_id: tenantId,
        title: e.title,
        kind: e.kind,
        all_day: false,
        start_local: e.start,
        end_local: e.end,
        time_zone: zone,
        recurrence: recurrence ? JSON.stringify(recurrence) : null,
        exceptions: [],
        site_id: e.siteId ?? null,
        device_id: e.deviceId ?? null,
        notes: e.notes ?? '',
        color: e.color ?? null,
        assignee_ids: e.assignees ?? [],
        starts_at: b.startsAt,
        ends_at: b.endsAt,
        created_by: admin?.id ?? null,
      });
    };
    for (const [i, user] of field.entries()) {
      const early = i % 2 === 0;
      add({
        title: early ? 'Day shift' : 'Late shift',
        kind: 'shift',
        start: `${monday}T${early ? '08:00' : '14:00'}`,
        end: `${monday}T${early ? '16:00' : '22:00'}`,
        recurrence: { freq: 'WEEKLY', interval: 1, byWeekday: ['MO', 'TU', 'WE', 'TH', 'FR'], until: null, count: null },
        assignees: [user.id],
        siteId: sites[i % Math.max(1, sites.length)]?.id ?? null,
      });
    }
    for (let i = 0; i < Math.min(6, sites.length); i++) {
      const site = sites[i];
      if (!site) continue;
      const day = dayOf(1 + random.int(0, 12));
      const hour = String(9 + random.int(0, 6)).padStart(2, '0');
      add({
        title: `Site visit: ${site.name}`.slice(0, 200),
        kind: 'site_visit',
        start: `${day}T${hour}:00`,
        end: `${day}T${hour}:45`,
        siteId: site.id,
        assignees: field.length ? [field[i % field.length]?.id as number] : [],
        notes: 'Check the panel, the cameras and the generator log.',
      });
    }
    for (let i = 0; i < Math.min(3, sites.length); i++) {
      const site = sites[i];
      if (!site) continue;
      add({
        title: `Preventive maintenance: ${site.name}`.slice(0, 200),
        kind: 'preventive_maintenance',
        start: `${dayOf(3 + i * 5)}T10:00`,
        end: `${dayOf(3 + i * 5)}T13:00`,
        recurrence: { freq: 'MONTHLY', interval: 1, byWeekday: [], until: null, count: 12 },
        siteId: site.id,
      });
    }
    const windowSite = sites[0];
    if (windowSite) {
      const device = await db
        .selectFrom('devices')
        .select(['id', 'label'])
        .where('tenant_id', '=', tenantId)
        .where('asset_id', '=', windowSite.id)
        .where('type', 'in', ['GENERATOR', 'UPS', 'RECTIFIER', 'ROUTER'])
        .orderBy('id')
        .executeTakeFirst();
      add({
        title: device ? `Maintenance window: ${device.label}` : `Maintenance window: ${windowSite.name}`,
        kind: 'maintenance_window',
        start: `${dayOf(2)}T22:00`,
        end: `${dayOf(3)}T02:00`,
        siteId: windowSite.id,
        deviceId: device?.id ?? null,
        notes: 'Planned works: alarms from the device open no ticket while the window runs.',
      });
    }
    if (rows.length)
      await db
        .insertInto('calendar_events')
        .values(rows as never)
        .execute();
  },
};
