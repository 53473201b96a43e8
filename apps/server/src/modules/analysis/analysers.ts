import { readFile, rm } from 'node:fs/promises';
import type { Analyser } from '@sitewatch/contracts';
import { PROTOCOLS, runFfmpeg } from '../../platform/ffmpeg/index.ts';

/** A stretch of footage one analyser flagged, in seconds from the start of the analysed window. */
export interface Finding {
  analyser: Exclude<Analyser, 'videoLoss' | 'sceneChange'>;
  offset: number;
  duration: number;
  score: number;
  detail: string;
}

/** Mean blurdetect value above which a keyframe is blurred (sharp scenes measure about 3 to 8). */
export const BLUR_THRESHOLD = 15;
/** Shortest stretches reported, in seconds. */
const BLACK_MIN = 1;
const FREEZE_MIN = 4;
const BLUR_MIN_FRAMES = 2;
/** SSIM against the reference below which the scene has changed (moved or covered camera). */
export const SCENE_SIMILARITY_MIN = 0.5;

/**
 * Keyframes only (`-skip_frame nokey`, so a minute of 25 fps video decodes ~60 frames, not 1,500), scaled down once,
 * through ffmpeg's own detectors; every frame's metadata is printed to stdout for `parseFindings`.
 */
const SCALE = 'scale=320:-2:flags=fast_bilinear';
const DETECTORS = [
  `blackdetect=d=${BLACK_MIN}:pix_th=0.10`,
  `freezedetect=n=-50dB:d=${FREEZE_MIN}`,
  'blurdetect=block_width=32:block_height=32',
  'metadata=mode=print:file=-',
].join(',');

const round = (n: number) => Math.round(n * 10) / 10;

/** Reads the metadata ffmpeg printed for each frame into findings; stretches still open at the end close there. */
export function parseFindings(output: string, windowSeconds: number): Finding[] {
  const findings: Finding[] = [];
  let time = 0;
  let blackStart: number | null = null;
  let freezeStart: number | null = null;
  let blurRun: { start: number; last: number; values: number[] } | null = null;
  const endBlur = () => {
    if (blurRun && blurRun.values.length >= BLUR_MIN_FRAMES) {
      const mean = blurRun.values.reduce((a, b) => a + b, 0) / blurRun.values.length;
      findings.push({
        analyser: 'blur',
        offset: blurRun.start,
        duration: round(Math.max(blurRun.last - blurRun.start, 1)),
        score: Math.min(1, mean / (2 * BLUR_THRESHOLD)),
        detail: `Mean blur ${mean.toFixed(1)} over ${blurRun.values.length} keyframes (threshold ${BLUR_THRESHOLD})`,
      });
    }
    blurRun = null;
  };
  for (const line of output.split('\n')) {
    const frame = /pts_time:(-?[\d.]+)/.exec(line);
    if (frame) {
      time = Number(frame[1]);
      continue;
    }
    const [key, value] = line.trim().split('=') as [string, string | undefined];
    if (value === undefined) continue;
    const n = Number(value);
    switch (key) {
      case 'lavfi.black_start':
        blackStart = n;
        break;
      case 'lavfi.black_end':
        if (blackStart !== null) findings.push(black(blackStart, n));
        blackStart = null;
        break;
      case 'lavfi.freezedetect.freeze_start':
        freezeStart = n;
        break;
      case 'lavfi.freezedetect.freeze_end':
        if (freezeStart !== null) findings.push(frozen(freezeStart, n));
        freezeStart = null;
        break;
      case 'lavfi.blur':
        if (Number.isFinite(n) && n >= BLUR_THRESHOLD) {
          if (blurRun) {
            blurRun.values.push(n);
            blurRun.last = time;
          } else blurRun = { start: time, last: time, values: [n] };
        } else endBlur();
        break;
    }
  }
  endBlur();
  if (blackStart !== null && windowSeconds - blackStart >= BLACK_MIN) findings.push(black(blackStart, windowSeconds));
  if (freezeStart !== null && windowSeconds - freezeStart >= FREEZE_MIN) findings.push(frozen(freezeStart, windowSeconds));
  // A black picture is also a still one: the freeze inside a black stretch is the same fault, told once.
  const blacks = findings.filter((f) => f.analyser === 'black');
  return findings
    .filter(
      (f) =>
        f.analyser !== 'frozen' || !blacks.some((b) => f.offset >= b.offset - 0.5 && f.offset + f.duration <= b.offset + b.duration + 0.5),
    )
    .sort((a, b) => a.offset - b.offset);
}

function black(start: number, end: number): Finding {
  const duration = round(end - start);
  return { analyser: 'black', offset: start, duration, score: Math.min(1, duration / 10), detail: `Black picture for ${duration} s` };
}

function frozen(start: number, end: number): Finding {
  const duration = round(end - start);
  return { analyser: 'frozen', offset: start, duration, score: Math.min(1, duration / 20), detail: `Picture frozen for ${duration} s` };
}

/** Motion in a region asked of the same pass: the region, its threshold and a file for scdet's values. */
export interface MotionPass {
  region: Region;
  thresholdPercent: number;
  /** Where the region's per-keyframe values are written (read and removed after the run). */
  file: string;
}

/** The scene check asked of the same pass: a keyframe of the footage against the camera's reference frame. */
export interface ScenePass {
  /** The camera's reference frame (a JPEG file). */
  reference: string;
  /** Seconds into the footage: the last keyframe up to half a second after it is compared (with a keyframe a second, the nearest). */
  offset: number;
  /** Where the comparison is written (read and removed after the run). */
  file: string;
}

/** The scene check's probe: the middle of the footage, at most 5 s in (the sweep and the benchmark both use it). */
export const sceneOffset = (windowSeconds: number) => Math.min(windowSeconds / 2, 5);

/** The structural similarity (0 to 1) of the probe keyframe to the reference, and where the probe was taken. */
export interface SceneProbe {
  offset: number;
  similarity: number;
}

const regionChain = (region: Region) =>
  `crop=trunc(iw*${fraction(region.w)}/2)*2:trunc(ih*${fraction(region.h)}/2)*2:trunc(iw*${fraction(region.x)}):trunc(ih*${fraction(region.y)}),scale=160:-2:flags=fast_bilinear,format=gray,scdet=threshold=100`;

/** Keyframes only, deblocking skipped, the decoder's fast paths: a keyframe's picture is judged, not admired. */
const DECODE = [
  '-threads',
  '1',
  '-protocol_whitelist',
  PROTOCOLS.concat,
  '-skip_frame',
  'nokey',
  '-skip_loop_filter',
  'all',
  '-flags2',
  '+fast',
];

/** A path as a filter option value inside a filter graph. */
const filterPath = (path: string) => path.replace(/[\\:',;[\]]/g, '\\$&');

/** Pictures compared small and in grey: both sides of the scene check go through the same scale. */
const COMPARE = 'scale=160:120,format=gray';

/**
 * The filter graph of one pass. The detectors always; with `motion`, the decoded keyframes are split to the region's
 * crop and `scdet` too; with `scene`, the keyframes the detectors see are split once more, those up to the probe
 * offset compared with `ssim` against the reference frame (input 1). Outputs are `[o1]`, then `[m]` and `[s]`.
 */
export function passGraph(opts: { motion?: MotionPass; scene?: ScenePass }): string {
  const { motion, scene } = opts;
  const chains = [`[0:v]${motion ? 'split=2[v][r];[v]' : ''}${SCALE},${scene ? 'split=2[d][p];[d]' : ''}${DETECTORS}[o1]`];
  if (motion) chains.push(`[r]${regionChain(motion.region)},metadata=mode=print:key=lavfi.scd.mafd:file=${filterPath(motion.file)}[m]`);
  if (scene) {
    const until = (Math.max(0, scene.offset) + 0.5).toFixed(2);
    chains.push(
      `[p]select=lte(t\\,${until}),${COMPARE}[probe]`,
      `[1:v]${COMPARE}[reference]`,
      `[probe][reference]ssim,metadata=mode=print:key=lavfi.ssim.All:file=${filterPath(scene.file)}[s]`,
    );
  }
  return chains.join(';');
}

/**
 * One camera's analysis in one ffmpeg process and one decode of its keyframes (a `concat:` of a recording run's init
 * and segments): the detectors, with `motion` the region's motion, with `scene` the probe keyframe's similarity to
 * the reference frame. Nothing is re-encoded; side results go through small files, read and removed here.
 */
export async function analyseFootage(
  input: string,
  windowSeconds: number,
  opts: { signal?: AbortSignal; motion?: MotionPass; scene?: ScenePass } = {},
): Promise<{ findings: Finding[]; motion: MotionFinding[]; scene: SceneProbe | null }> {
  const { motion, scene } = opts;
  const t = ['-t', String(windowSeconds)];
  const reference = scene ? ['-threads', '1', '-protocol_whitelist', PROTOCOLS.file, '-i', scene.reference] : [];
  const outputs = ['[o1]', ...(motion ? ['[m]'] : []), ...(scene ? ['[s]'] : [])].flatMap((o) => ['-map', o, ...t, '-f', 'null', '-']);
  // one thread in the filters as in the decoders: the sweep's CPU budget counts one ffmpeg at a time on one core
  const graph = ['-filter_complex_threads', '1', '-filter_complex', passGraph(opts)];
  try {
    const { stdout } = await runFfmpeg([...DECODE, '-i', input, ...reference, ...graph, ...outputs], { signal: opts.signal });
    return {
      findings: parseFindings(stdout, windowSeconds),
      motion: motion ? parseMotion(await readFile(motion.file, 'utf8'), motion.thresholdPercent) : [],
      scene: scene ? parseScene(await readFile(scene.file, 'utf8')) : null,
    };
  } finally {
    await Promise.all([motion && rm(motion.file, { force: true }), scene && rm(scene.file, { force: true })]);
  }
}

/** Reads the similarity printed for each compared keyframe: the last one (the nearest the probe offset) counts. */
export function parseScene(output: string): SceneProbe | null {
  let time: number | null = null;
  let probe: SceneProbe | null = null;
  for (const line of output.split('\n')) {
    const frame = /pts_time:(-?[\d.]+)/.exec(line);
    if (frame) {
      time = Number(frame[1]);
      continue;
    }
    const m = /^lavfi\.ssim\.All=([\d.]+)/.exec(line.trim());
    if (m && time !== null && Number.isFinite(Number(m[1]))) probe = { offset: time, similarity: Number(m[1]) };
  }
  return probe;
}

/** Writes the picture at `offset` seconds of the input as a JPEG (the frame a finding or a reference shows). */
export async function extractFrame(input: string, offset: number, out: string): Promise<void> {
  await runFfmpeg([
    '-threads',
    '1',
    '-protocol_whitelist',
    PROTOCOLS.concat,
    '-ss',
    Math.max(0, offset).toFixed(2),
    '-i',
    input,
    '-frames:v',
    '1',
    '-vf',
    'scale=640:-2',
    '-q:v',
    '5',
    '-y',
    out,
  ]);
}

/** A stretch of motion inside a camera's region, in seconds from the start of the analysed window. */
export interface MotionFinding {
  offset: number;
  duration: number;
  /** The largest change between two keyframes inside the region, in percent of full scale. */
  peak: number;
  score: number;
}

/** A region as fractions of the picture (from the top left corner). */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

const fraction = (n: number) => Math.max(0, Math.min(1, n)).toFixed(4);

/**
 * Motion in a region: keyframes only (as the other detectors), cropped to the region, grey and small, through
 * ffmpeg's `scdet`, whose `lavfi.scd.mafd` is the mean absolute difference from the previous keyframe in percent.
 * Keyframes at or above `thresholdPercent` make a stretch of motion; nothing is re-encoded.
 */
export async function analyseRegionMotion(
  input: string,
  windowSeconds: number,
  region: Region,
  thresholdPercent: number,
  signal?: AbortSignal,
): Promise<MotionFinding[]> {
  const { stdout } = await runFfmpeg(
    [
      ...DECODE,
      '-i',
      input,
      '-an',
      '-t',
      String(windowSeconds),
      '-vf',
      `${regionChain(region)},metadata=mode=print:key=lavfi.scd.mafd:file=-`,
      '-f',
      'null',
      '-',
    ],
    { signal },
  );
  return parseMotion(stdout, thresholdPercent);
}

/** Reads scdet's per-keyframe difference into stretches of motion (the first keyframe has nothing to differ from). */
export function parseMotion(output: string, thresholdPercent: number): MotionFinding[] {
  const findings: MotionFinding[] = [];
  let time = 0;
  let frames = 0;
  let run: { start: number; last: number; peak: number } | null = null;
  const close = () => {
    if (run)
      findings.push({
        offset: run.start,
        duration: round(Math.max(run.last - run.start, 1)),
        peak: round(run.peak),
        score: Math.min(1, run.peak / (5 * thresholdPercent)),
      });
    run = null;
  };
  for (const line of output.split('\n')) {
    const frame = /pts_time:(-?[\d.]+)/.exec(line);
    if (frame) {
      time = Number(frame[1]);
      frames++;
      continue;
    }
    const m = /^lavfi\.scd\.mafd=([\d.]+)/.exec(line.trim());
    if (!m || frames <= 1) continue;
    const value = Number(m[1]);
    if (value >= thresholdPercent) {
      if (run) {
        run.last = time;
        run.peak = Math.max(run.peak, value);
      } else run = { start: time, last: time, peak: value };
    } else close();
  }
  close();
  return findings;
}
