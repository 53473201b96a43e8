/**
 * Time to export 10 minutes of one camera to MP4 (remux, no re-encoding). The 10 minutes of 720p footage are
 * made quickly (ffmpeg without -re over the looped clip, -c copy into 2 s segments) and indexed as if recorded
 * over the last 10 minutes; then the clip export the batch download job runs is timed.
 *   node --import tsx bench/video/export.ts
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { exportClip } from '../../apps/server/src/modules/video/media.ts';
import { createVideoPaths, DEFAULT_STORAGE_PATH } from '../../apps/server/src/modules/video/paths.ts';
import { parseLivePlaylist } from '../../apps/server/src/modules/video/recorder.ts';
import { insertSegments } from '../../apps/server/src/modules/video/repository.ts';
import { ensureTestClip, probe, runFfmpeg } from '../../apps/server/src/platform/ffmpeg/index.ts';
import { benchDatabase, seedCameras } from './setup.ts';

const MINUTES = Number(process.env.MINUTES ?? 10);
const handle = await benchDatabase();
const dataDir = await mkdtemp(join(tmpdir(), 'video-export-'));
const paths = createVideoPaths(dataDir);
try {
  const { tenantId, cameraIds } = await seedCameras(handle, 1);
  const cam = cameraIds[0] as number;
  await handle.db.updateTable('video_cameras').set({ recording_enabled: false }).execute();
  const clip = await ensureTestClip(join(dataDir, 'clip.mp4'));
  const run = 'bench000001';
  const runDir = paths.runDir(DEFAULT_STORAGE_PATH, tenantId, cam, run);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(runDir, { recursive: true });
  await runFfmpeg([
    '-stream_loop',
    '-1',
    '-protocol_whitelist',
    'file',
    '-i',
    clip,
    '-t',
    String(MINUTES * 60),
    '-c',
    'copy',
    '-an',
    '-f',
    'hls',
    '-hls_time',
    '2',
    '-hls_list_size',
    '0',
    '-hls_segment_type',
    'fmp4',
    '-hls_fmp4_init_filename',
    'init.mp4',
    '-hls_segment_filename',
    join(runDir, 'seg-%d.m4s'),
    '-hls_flags',
    'independent_segments',
    join(runDir, 'live.m3u8'),
  ]);
  const entries = parseLivePlaylist(
    (await readFile(join(runDir, 'live.m3u8'), 'utf8'))
      .replace(/#EXTINF/g, '#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:00.000+0000\n#EXTINF')
      .replace(/#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:00.000\+0000\n/, ''),
  );
  const base = Date.now() - MINUTES * 60_000 - 5000;
  let t = base;
  const rows = [];
  for (const e of entries) {
    rows.push({
      tenant_id: tenantId,
      device_id: cam,
      storage_path: DEFAULT_STORAGE_PATH,
      run,
      file: e.file,
      start_at: new Date(t),
      end_at: new Date(t + Math.round(e.durationSec * 1000)),
      bytes: (await stat(join(runDir, e.file))).size,
    });
    t += Math.round(e.durationSec * 1000);
  }
  await insertSegments(handle.db, rows);
  const from = new Date(base);
  const to = new Date(base + MINUTES * 60_000);
  const out = join(dataDir, 'export.mp4');
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const result = await exportClip(handle.db, paths, { tenantId, camId: cam, from, to, out });
    times.push(performance.now() - started);
    if (i === 0) {
      const probed = await probe(out);
      console.log(`segments:           ${result.segments} (${rows.length} indexed)`);
      console.log(
        `output:             ${(result.bytes / 1e6).toFixed(1)} MB, ${probed.durationSec.toFixed(1)} s, ${probed.streams[0]?.codecName} ${probed.streams[0]?.width}x${probed.streams[0]?.height}`,
      );
    }
  }
  times.sort((a, b) => a - b);
  console.log(
    `export ${MINUTES} min to MP4: median ${(times[1] as number).toFixed(0)} ms (runs: ${times.map((x) => x.toFixed(0)).join(', ')} ms)`,
  );
} finally {
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
}
