/**
 * Camera health analysis cost: one pass over 50 cameras, each with a minute of 720p 25 fps footage (a keyframe a
 * second, as the recorder writes it), through `analyseFootage`, the one ffmpeg process a camera the sweep runs
 * (detectors and the scene check against the camera's reference frame in one decode), with the same options.
 * Prints the CPU time of the pass (ffmpeg children and this process) as a share of one core over the minute it
 * covers. Goal: analysis of 50 cameras every minute ≤ 25 % of one core. Then the same pass with "motion in a region"
 * set on every camera (the same decode split to the region's crop and scdet). Frames of findings are not counted:
 * they are taken only when there is a finding.
 * Run: node --import tsx bench/analysis/run.ts   (CAMERAS=50)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseFootage, extractFrame, sceneOffset } from '../../apps/server/src/modules/analysis/analysers.ts';
import { runFfmpeg } from '../../apps/server/src/platform/ffmpeg/index.ts';

const CAMERAS = Number(process.env.CAMERAS ?? 50);
const TICKS = 100; // Linux USER_HZ

/** CPU of this process and of its finished children, in ms (from /proc: children count once reaped). */
function cpuMs() {
  const f = (readFileSync('/proc/self/stat', 'utf8').split(') ')[1] as string).split(' ');
  return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / TICKS;
}

const dir = mkdtempSync(join(tmpdir(), 'sw-bench-analysis-'));
const clip = join(dir, 'minute.mp4');
console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await runFfmpeg([
  ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25:duration=60'],
  ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-keyint_min', '25', '-sc_threshold', '0', '-y', clip],
]);
// the camera's reference frame, taken as the sweep takes it (its first pass)
const reference = join(dir, 'reference.jpg');
await extractFrame(clip, sceneOffset(60), reference);
const scene = { reference, offset: sceneOffset(60), file: join(dir, 'scene.txt') };

const started = performance.now();
const before = cpuMs();
let findings = 0;
for (let i = 0; i < CAMERAS; i++) {
  const pass = await analyseFootage(clip, 60, { scene });
  if (!pass.scene) throw new Error('the pass made no scene comparison');
  findings += pass.findings.length;
}
const cpu = cpuMs() - before;
const wall = performance.now() - started;
const share = (cpu / 60_000) * 100;
console.log(`\nCamera health analysis, ${CAMERAS} cameras × 60 s of 1280x720 25 fps footage:`);
console.log(`  CPU ${Math.round(cpu)} ms (${Math.round(cpu / CAMERAS)} ms a camera), wall ${Math.round(wall)} ms, ${findings} findings`);
console.log(`  = ${share.toFixed(1)} % of one core for a pass every minute (goal ≤ 25 %)`);
const regionBefore = cpuMs();
const regionStarted = performance.now();
let motions = 0;
const region = { x: 0.5, y: 0.5, w: 0.5, h: 0.5 };
for (let i = 0; i < CAMERAS; i++) {
  const pass = await analyseFootage(clip, 60, { scene, motion: { region, thresholdPercent: 1, file: join(dir, 'motion.txt') } });
  if (!pass.scene) throw new Error('the pass made no scene comparison');
  motions += pass.motion.length;
}
const regionCpu = cpuMs() - regionBefore;
const regionShare = (regionCpu / 60_000) * 100;
console.log(`\nThe same pass with motion in a region set on all ${CAMERAS} cameras (one decode, split to the region):`);
console.log(
  `  CPU ${Math.round(regionCpu)} ms (${Math.round(regionCpu / CAMERAS)} ms a camera), wall ${Math.round(performance.now() - regionStarted)} ms, ${motions} stretches of motion`,
);
console.log(`  = ${regionShare.toFixed(1)} % of one core (${(regionShare - share).toFixed(1)} % more than without a region)`);
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
rmSync(dir, { recursive: true, force: true });
