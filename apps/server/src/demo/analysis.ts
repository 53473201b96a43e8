import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ANALYSER_LABELS, type Analyser, FALSE_POSITIVE_REASONS } from '@sitewatch/contracts';
import { runFfmpeg } from '../platform/ffmpeg/index.ts';
import type { Seeder } from './seeder.ts';

/** What each kind of demo finding looks like: a picture made by ffmpeg, a score and the analyser's words. */
const KINDS: Record<Exclude<Analyser, 'videoLoss'>, { source: string; detail: string; score: [number, number] }> = {
  black: { source: 'color=c=0x050505:s=640x360', detail: 'Black picture for 12.0 s', score: [0.7, 1] },
  frozen: { source: 'testsrc=s=640x360:d=1', detail: 'Picture frozen for 18.0 s', score: [0.5, 0.95] },
  blur: { source: 'testsrc=s=640x360:d=1,boxblur=14:3', detail: 'Mean blur 38.4 over 9 keyframes (threshold 15)', score: [0.6, 1] },
  sceneChange: { source: 'smptebars=s=640x360:d=1', detail: 'Similarity to the reference frame 0.21 (below 0.5)', score: [0.55, 0.9] },
  regionMotion: {
    source: 'testsrc2=s=640x360:d=1,drawbox=x=380:y=170:w=120:h=120:color=red@0.8:t=4',
    detail: 'Motion in the region: 14% of it changed (threshold 2%)',
    score: [0.5, 0.9],
  },
};

/**
 * A week of camera health findings on the demo's recording cameras, with their frames, some verified (so that
 * /result-analysis has rates and a suggestion) and some waiting in /result-verification. The live analysis adds
 * to them as the cameras record.
 */
export const analysisSeeder: Seeder = {
  name: 'analysis-results',
  async run({ db, tenantId, random, log, dataDir }) {
    const cameras = await db
      .selectFrom('video_cameras')
      .select(['device_id', 'asset_id', 'label'])
      .where('tenant_id', '=', tenantId)
      .where('recording_enabled', '=', true)
      .orderBy('device_id')
      .execute();
    if (cameras.length === 0 || !dataDir) return;
    const dir = join(dataDir, 'analysis', String(tenantId));
    await mkdir(dir, { recursive: true });
    const pictures = new Map<string, string>();
    // one picture each, made side by side: most of each run is ffmpeg starting
    await Promise.all(
      Object.entries(KINDS).map(async ([kind, spec]) => {
        const name = `demo-${kind}.jpg`;
        try {
          await runFfmpeg(['-f', 'lavfi', '-i', spec.source, '-frames:v', '1', '-q:v', '5', '-y', join(dir, name)]);
          pictures.set(kind, name);
        } catch (error) {
          log.warn(`demo analysis frame "${kind}" could not be made: ${(error as Error).message}`);
        }
      }),
    );
    const kinds = Object.keys(KINDS) as Array<keyof typeof KINDS>;
    const now = Date.now();
    const rows = [];
    for (let i = 0; i < 24; i++) {
      // the first camera gets most scene changes (wind moves it): its false-positive rate earns a suggestion
      const camera = i % 3 === 0 ? (cameras[0] as (typeof cameras)[number]) : random.pick(cameras);
      const kind = camera === cameras[0] && i % 3 === 0 ? 'sceneChange' : random.pick(kinds);
      const spec = KINDS[kind];
      const at = new Date(now - random.int(10, 7 * 24 * 60) * 60_000);
      const verified = i < 18;
      const falsePositive = verified && (kind === 'sceneChange' ? i % 9 !== 3 : random.chance(0.3));
      rows.push({
        tenant_id: tenantId,
        device_id: camera.device_id,
        asset_id: camera.asset_id,
        analyser: kind,
        at,
        end_at: new Date(at.getTime() + 12_000),
        score: Number((spec.score[0] + random.next() * (spec.score[1] - spec.score[0])).toFixed(2)),
        detail: spec.detail,
        frame_file: pictures.get(kind) ?? null,
        verdict: verified ? (falsePositive ? 'FALSE_POSITIVE' : 'TRUE_POSITIVE') : null,
        reason: falsePositive ? random.pick(FALSE_POSITIVE_REASONS) : null,
        verified_at: verified ? new Date(at.getTime() + random.int(5, 240) * 60_000) : null,
      });
    }
    rows.push({
      tenant_id: tenantId,
      device_id: (cameras.at(-1) as (typeof cameras)[number]).device_id,
      asset_id: (cameras.at(-1) as (typeof cameras)[number]).asset_id,
      analyser: 'videoLoss' as const,
      at: new Date(now - 3 * 3600_000),
      end_at: null,
      score: 1,
      detail: `${ANALYSER_LABELS.videoLoss}: no video recorded for 420 s`,
      frame_file: null,
      verdict: null,
      reason: null,
      verified_at: null,
    });
    await db.insertInto('analysis_results').values(rows).execute();
    log.info(`${rows.length} camera health findings added`);
  },
};
