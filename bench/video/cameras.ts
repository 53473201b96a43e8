/**
 * How many simulated 720p cameras the recorder keeps at once, and at what CPU: N cameras (default 50, CAMERAS=n)
 * each an `ffmpeg -re -stream_loop -1 -c copy` into 2 s fMP4 segments indexed in PostgreSQL. Prints the CPU of all
 * ffmpeg processes plus this process (indexing) over a measuring window, as % of one core, and checks that every
 * camera's segments were indexed.
 *   node --import tsx bench/video/cameras.ts
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVideoPaths } from '../../apps/server/src/modules/video/paths.ts';
import { createRecorder } from '../../apps/server/src/modules/video/recorder.ts';
import { loadVideoSettings } from '../../apps/server/src/modules/video/settings.ts';
import { createOutboundNetworks } from '../../apps/server/src/platform/outbound-networks.ts';
import { benchDatabase, seedCameras } from './setup.ts';

const N = Number(process.env.CAMERAS ?? 50);
const WARMUP_S = Number(process.env.WARMUP_S ?? 15);
const MEASURE_S = Number(process.env.MEASURE_S ?? 30);
const TICK = 100; // clock ticks per second on Linux

const cpuTicks = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
};

const handle = await benchDatabase();
const dataDir = await mkdtemp(join(tmpdir(), 'video-bench-'));
const log = {
  info() {},
  warn(o: unknown, m?: string) {
    if (process.env.VERBOSE) console.warn(m, o);
  },
  error: console.error,
};
const recorder = createRecorder({
  db: handle.db,
  paths: createVideoPaths(dataDir),
  settings: loadVideoSettings({ VIDEO_SIM_SIZE: '1280x720' }),
  log,
  // simulated cameras only: nothing is dialled
  outbound: createOutboundNetworks(handle.db, []),
});
try {
  const { cameraIds } = await seedCameras(handle, N);
  await recorder.ensureClip();
  await recorder.start();
  await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
  const pids = recorder.pids();
  const before = new Map(pids.map((p) => [p, cpuTicks(p)]));
  const selfBefore = process.cpuUsage();
  const countBefore = Number(
    (
      await handle.db
        .selectFrom('video_segments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const started = Date.now();
  await new Promise((r) => setTimeout(r, MEASURE_S * 1000));
  const seconds = (Date.now() - started) / 1000;
  const ffmpegSec = pids.reduce((sum, p) => sum + (cpuTicks(p) - (before.get(p) ?? 0)), 0) / TICK;
  const self = process.cpuUsage(selfBefore);
  const selfSec = (self.user + self.system) / 1e6;
  const countAfter = Number(
    (
      await handle.db
        .selectFrom('video_segments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const perCamera = await handle.db
    .selectFrom('video_segments')
    .select(['device_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('device_id')
    .execute();
  const recordingCams = perCamera.filter((r) => Number(r.n) > 0).length;
  console.log(`cameras configured:           ${N} simulated 1280x720 H.264 (-c copy, 2 s fMP4 segments)`);
  console.log(`ffmpeg processes running:     ${pids.length}`);
  console.log(`cameras with indexed footage: ${recordingCams}/${cameraIds.length}`);
  console.log(`segments indexed in ${seconds.toFixed(0)} s:      ${countAfter - countBefore} (expected ~${Math.round((N * seconds) / 2)})`);
  console.log(`CPU, all ffmpeg:              ${((ffmpegSec / seconds) * 100).toFixed(1)} % of one core`);
  console.log(`CPU, recorder/indexer (node): ${((selfSec / seconds) * 100).toFixed(1)} % of one core`);
  console.log(
    `CPU, total:                   ${(((ffmpegSec + selfSec) / seconds) * 100).toFixed(1)} % of one core (${(((ffmpegSec + selfSec) / seconds / N) * 100).toFixed(2)} % per camera)`,
  );
} finally {
  await recorder.stop();
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
}
