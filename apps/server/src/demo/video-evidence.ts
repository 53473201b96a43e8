import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EVIDENCE_CONSTANTS } from '@sitewatch/contracts';
import { runFfmpeg } from '../platform/ffmpeg/index.ts';
import type { Seeder } from './seeder.ts';

/**
 * Video evidence on the demo's tickets: the open alarm tickets whose device (or site) has a mapped camera get that
 * camera's clip over the window around the alarm, and a few AI audit tickets a short clip around their finding.
 * The clips are pictures made by ffmpeg (the demo's cameras have recorded nothing of the past), one per length and
 * copied for each ticket: rendering each one took most of the demo's seeding time. The live alarms add real ones as
 * the cameras record.
 */
export const videoEvidenceSeeder: Seeder = {
  name: 'video-evidence',
  async run({ db, tenantId, log, dataDir }) {
    if (!dataDir) return;
    const alarmTickets = await db
      .selectFrom('tickets as t')
      .innerJoin('devices as d', (j) => j.onRef('d.id', '=', 't.entity_id').onRef('d.tenant_id', '=', 't.tenant_id'))
      .select(['t.id', 't.ticket_no', 't.event_date', 't.status', 't.entity_id', 'd.asset_id'])
      .where('t.tenant_id', '=', tenantId)
      .where('t.type', '=', 'AlarmTicket')
      .orderBy('t.id', 'desc')
      .limit(40)
      .execute();
    const planned: Array<{ ticketId: number; ticketNo: string; cameraId: number; at: Date; open: boolean; source: 'alarm' | 'analysis' }> =
      [];
    for (const ticket of alarmTickets) {
      if (planned.length >= 6) break;
      const camera = await db
        .selectFrom('entity_mappings')
        .select('to_id')
        .where('tenant_id', '=', tenantId)
        .where('relation_type', '=', 'CAMERA MAPPING')
        .where((eb) =>
          eb.or([
            eb.and([eb('from_type', '=', 'DEVICE'), eb('from_id', '=', ticket.entity_id as number)]),
            eb.and([eb('from_type', '=', 'ASSET'), eb('from_id', '=', ticket.asset_id ?? -1)]),
          ]),
        )
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!camera) continue;
      planned.push({
        ticketId: ticket.id,
        ticketNo: ticket.ticket_no,
        cameraId: camera.to_id,
        at: new Date(ticket.event_date),
        open: ticket.status !== 'RESOLVED' && ticket.status !== 'CLOSED',
        source: 'alarm',
      });
    }
    const aiTickets = await db
      .selectFrom('tickets as t')
      .innerJoin('devices as d', (j) => j.onRef('d.id', '=', 't.entity_id').onRef('d.tenant_id', '=', 't.tenant_id'))
      .select(['t.id', 't.ticket_no', 't.event_date', 't.status', 't.entity_id'])
      .where('t.tenant_id', '=', tenantId)
      .where('t.type', '=', 'AIAlarmTicket')
      .where('d.type', '=', 'CAMERA')
      .orderBy('t.id', 'desc')
      .limit(3)
      .execute();
    for (const ticket of aiTickets)
      planned.push({
        ticketId: ticket.id,
        ticketNo: ticket.ticket_no,
        cameraId: ticket.entity_id as number,
        at: new Date(ticket.event_date),
        open: ticket.status !== 'RESOLVED' && ticket.status !== 'CLOSED',
        source: 'analysis',
      });
    if (planned.length === 0) return;

    const dir = join(dataDir, 'video-exports', String(tenantId), 'evidence');
    await mkdir(dir, { recursive: true });
    let made = 0;
    /** The first clip of each length, by its length in seconds. */
    const rendered = new Map<number, string>();
    for (const [i, p] of planned.entries()) {
      const window = p.source === 'alarm' ? EVIDENCE_CONSTANTS.alarmWindowSeconds : EVIDENCE_CONSTANTS.analysisWindowSeconds;
      const row = await db
        .insertInto('video_evidence')
        .values({
          tenant_id: tenantId,
          ticket_id: p.ticketId,
          ticket_no: p.ticketNo,
          device_id: p.cameraId,
          source: p.source,
          source_id: -(i + 1),
          event_at: p.at,
          from_at: new Date(p.at.getTime() - window * 1000),
          to_at: new Date(p.at.getTime() + window * 1000),
          status: 'ready',
          pinned: p.open,
        })
        .onConflict((oc) => oc.columns(['tenant_id', 'ticket_id', 'device_id', 'source', 'source_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) continue;
      const file = join(dir, `${Number(row.id)}.mp4`);
      try {
        const seconds = p.source === 'alarm' ? 40 : 20;
        const first = rendered.get(seconds);
        if (first) await copyFile(first, file);
        else {
          await runFfmpeg([
            ...['-f', 'lavfi', '-i', `testsrc2=s=480x270:r=10:d=${seconds}`],
            ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', file],
          ]);
          rendered.set(seconds, file);
        }
        const { size } = await stat(file);
        await db.updateTable('video_evidence').set({ bytes: size }).where('id', '=', row.id).execute();
        made++;
      } catch (error) {
        await db.updateTable('video_evidence').set({ status: 'failed' }).where('id', '=', row.id).execute();
        log.warn(`demo evidence clip could not be made: ${(error as Error).message}`);
      }
    }
    log.info(`${made} demo evidence clips on tickets`);
  },
};
