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
 * The filter chain: keyframes only (`-skip_frame nokey`, so a minute of 25 fps video decodes ~60 frames, not 1,500),
 * scaled down, through ffmpeg's own detectors; every frame's metadata is printed to stdout for `parseFindings`.
 */
const FILTERS = [
  'scale=320:-2:flags=fast_bilinear',
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

/**
 * Runs the detectors over an ffmpeg input (a `concat:` of a recording run's init and segments). With `motion`, the
 * same decoded keyframes are split to the region's crop and `scdet` too (one decode for both: the region costs
 * little more than the detectors alone).
 */
export async function analyseFootage(
  input: string,
  windowSeconds: number,
  signal?: AbortSignal,
  motion?: MotionPass,
): Promise<{ findings: Finding[]; motion: MotionFinding[] }> {
  const t = ['-t', String(windowSeconds)];
  const outputs = motion
    ? [
        '-filter_complex',
        `[0:v]split=2[d][r];[d]${FILTERS}[o1];[r]${regionChain(motion.region)},metadata=mode=print:key=lavfi.scd.mafd:file=${motion.file.replace(/[\\:',;[\]]/g, '\\$&')}[o2]`,
        ...['-map', '[o1]', ...t, '-f', 'null', '-'],
        ...['-map', '[o2]', ...t, '-f', 'null', '-'],
      ]
    : ['-an', ...t, '-vf', FILTERS, '-f', 'null', '-'];
  const { stdout } = await runFfmpeg([...DECODE, '-i', input, ...outputs], { signal });
  const findings = parseFindings(stdout, windowSeconds);
  if (!motion) return { findings, motion: [] };
  try {
    return { findings, motion: parseMotion(await readFile(motion.file, 'utf8'), motion.thresholdPercent) };
  } finally {
    await rm(motion.file, { force: true });
  }
}

/** Writes the picture at `offset` seconds of the input as a small JPEG (`size`: the comparison size for probes). */
export async function extractFrame(input: string, offset: number, out: string, size: 'frame' | 'probe' = 'frame'): Promise<void> {
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
    size === 'frame' ? 'scale=640:-2' : 'scale=160:120:flags=fast_bilinear',
    '-q:v',
    '5',
    '-y',
    out,
  ]);
}

/** Structural similarity (0 to 1) of two pictures, compared small and in grey. */
export async function similarity(reference: string, frame: string): Promise<number> {
  const { stderr } = await runFfmpeg(
    [
      '-loglevel',
      'info',
      '-protocol_whitelist',
      PROTOCOLS.file,
      '-i',
      reference,
      '-protocol_whitelist',
      PROTOCOLS.file,
      '-i',
      frame,
      '-lavfi',
      '[0:v]scale=160:120,format=gray[a];[1:v]scale=160:120,format=gray[b];[a][b]ssim',
      '-f',
      'null',
      '-',
    ],
    { stderrLimit: 20_000 },
  );
  const match = /All:([\d.]+)/.exec(stderr);
  if (!match) throw new Error('ffmpeg printed no similarity');
  return Number(match[1]);
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
