import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { missingToolsMessage, resolveTool, rtspTimeoutArgs, type VideoTools } from './tools.ts';

export { describeTool, missingToolsMessage, type VideoTools } from './tools.ts';

/**
 * The ffmpeg port: every ffmpeg and ffprobe run goes through here, spawned with an argument array (never a
 * shell) and with an explicit protocol whitelist on each input, so a camera URL cannot make ffmpeg open
 * `file:`, `http:` or `concat:` sources it was not meant to.
 */

export const PROTOCOLS = {
  file: 'file',
  rtsp: 'file,rtsp,rtp,udp,tcp,tls,crypto',
  concat: 'file,concat',
} as const;

let tools: VideoTools | null = null;
let lookedAt = 0;

/**
 * The ffmpeg and ffprobe this process runs, found once. A missing tool is looked for again on the next call (at most
 * once a minute), so that installing ffmpeg brings the cameras back without a restart.
 */
export function videoTools(): VideoTools {
  if (!tools || ((!tools.ffmpeg || !tools.ffprobe) && Date.now() - lookedAt > 60_000)) {
    lookedAt = Date.now();
    tools = { ffmpeg: resolveTool('ffmpeg'), ffprobe: resolveTool('ffprobe') };
  }
  return tools;
}

/** The binary to spawn; a missing one fails at once with what to install, never a spawn of whatever PATH holds. */
function toolPath(name: 'ffmpeg' | 'ffprobe'): string {
  const tool = videoTools()[name];
  if (!tool) throw new Error(missingToolsMessage(videoTools()) ?? `${name} not found`);
  return tool.path;
}
/** Looks for the tools again on the next call (after `FFMPEG_PATH` or `FFMPEG_SYSTEM` changed). */
export function forgetVideoTools() {
  tools = null;
}

const ffmpegPath = () => toolPath('ffmpeg');
const ffprobePath = () => toolPath('ffprobe');

/** The RTSP socket timeout option for ffmpeg or ffprobe, in microseconds. */
export const rtspTimeout = (name: 'ffmpeg' | 'ffprobe', microseconds: number) => rtspTimeoutArgs(videoTools()[name], microseconds);

/** ffmpeg's input of a checked camera stream: RTSP over TCP, a 10 s socket timeout, only the protocols RTSP needs. */
export const rtspInput = (pinnedUrl: string) => [
  '-rtsp_transport',
  'tcp',
  ...rtspTimeout('ffmpeg', 10_000_000),
  '-protocol_whitelist',
  PROTOCOLS.rtsp,
  '-i',
  pinnedUrl,
];

export interface SpawnOptions {
  signal?: AbortSignal;
  /** Keep the last bytes of stderr for the error message. */
  stderrLimit?: number;
}

export interface RunResult {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Starts ffmpeg with quiet logging. The caller owns the process. */
export function spawnFfmpeg(args: string[]): ChildProcess {
  return spawn(ffmpegPath(), ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function collect(child: ChildProcess, options: SpawnOptions): Promise<RunResult> {
  const limit = options.stderrLimit ?? 4000;
  let stderr = '';
  const out: Buffer[] = [];
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-limit);
  });
  child.stdout?.on('data', (d: Buffer) => out.push(d));
  const onAbort = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ code, stderr: stderr.trim(), stdout: Buffer.concat(out).toString() });
    });
  });
}

/** Runs ffmpeg to completion; rejects with its stderr when it fails. */
export async function runFfmpeg(args: string[], options: SpawnOptions = {}): Promise<RunResult> {
  if (options.signal?.aborted) throw new Error('aborted');
  const result = await collect(spawnFfmpeg(args), options);
  if (options.signal?.aborted) throw new Error('aborted');
  if (result.code !== 0) throw new Error(`ffmpeg failed (${result.code}): ${result.stderr.split('\n').slice(-3).join(' ')}`);
  return result;
}

export interface ProbeResult {
  durationSec: number;
  formatName: string;
  streams: { codecType: string; codecName: string; width?: number; height?: number }[];
}

/** Reads a local media file's container and streams. */
export async function probe(path: string, options: SpawnOptions = {}): Promise<ProbeResult> {
  const child = spawn(
    ffprobePath(),
    ['-v', 'error', '-protocol_whitelist', PROTOCOLS.file, '-print_format', 'json', '-show_format', '-show_streams', path],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const result = await collect(child, options);
  if (result.code !== 0) throw new Error(`ffprobe failed: ${result.stderr}`);
  const json = JSON.parse(result.stdout) as {
    format: { duration?: string; format_name: string };
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  };
  return {
    durationSec: Number(json.format.duration ?? 0),
    formatName: json.format.format_name,
    streams: json.streams.map((s) => ({ codecType: s.codec_type, codecName: s.codec_name, width: s.width, height: s.height })),
  };
}

export interface StreamProbe {
  /** ffprobe's exit code, and the end of its stderr (it names the URL: classify it, never show it). */
  code: number | null;
  stderr: string;
  /** Killed for taking longer than its time limit. */
  timedOut: boolean;
  /** Milliseconds from the start to the first decoded video frame; null when none came. */
  firstFrameMs: number | null;
  frames: number;
  video: { codecName: string; profile: string | null; width: number | null; height: number | null; frameRate: number | null } | null;
}

const rate = (text: string | undefined): number | null => {
  const [n, d] = (text ?? '').split('/').map(Number);
  return n && d ? Math.round((n / d) * 100) / 100 : null;
};

/**
 * Opens a network stream (RTSP over TCP) with ffprobe and reads `seconds` of it: the video stream's codec, size and
 * frame rate, and when its first frame arrived. `timeoutMs` bounds socket I/O and the whole run.
 */
export async function probeStream(url: string, options: SpawnOptions & { timeoutMs: number; seconds: number }): Promise<StreamProbe> {
  const started = performance.now();
  const child = spawn(
    ffprobePath(),
    [
      '-v',
      'error',
      '-rtsp_transport',
      'tcp',
      ...rtspTimeout('ffprobe', options.timeoutMs * 1000),
      '-protocol_whitelist',
      PROTOCOLS.rtsp,
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,profile,width,height,avg_frame_rate,r_frame_rate',
      '-show_frames',
      '-read_intervals',
      `%+${options.seconds}`,
      '-of',
      'compact',
      url,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const result: StreamProbe = { code: null, stderr: '', timedOut: false, firstFrameMs: null, frames: 0, video: null };
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('frame|')) {
        result.frames++;
        result.firstFrameMs ??= Math.round(performance.now() - started);
      } else if (line.startsWith('stream|')) {
        const f = Object.fromEntries(
          line
            .split('|')
            .slice(1)
            .map((kv) => kv.split('=') as [string, string]),
        );
        const size = (v: string | undefined) => (v && Number(v) > 0 ? Number(v) : null);
        result.video = {
          codecName: f.codec_name ?? 'unknown',
          profile: f.profile && f.profile !== 'unknown' ? f.profile : null,
          width: size(f.width),
          height: size(f.height),
          frameRate: rate(f.avg_frame_rate) ?? rate(f.r_frame_rate),
        };
      }
    }
  });
  const timer = setTimeout(
    () => {
      result.timedOut = true;
      child.kill('SIGKILL');
    },
    options.timeoutMs + options.seconds * 1000 + 2000,
  );
  return collect(child, { ...options, stderrLimit: options.stderrLimit ?? 2000 })
    .then((r) => ({ ...result, code: r.code, stderr: r.stderr }))
    .finally(() => clearTimeout(timer));
}

/**
 * Generates the looping clip of the simulated cameras once: a test pattern with a running clock, H.264 with a
 * keyframe every second so that 1–2 s segments cut cleanly. Reused when it already exists.
 */
export async function ensureTestClip(
  path: string,
  options: { width?: number; height?: number; seconds?: number; fps?: number } = {},
): Promise<string> {
  try {
    if ((await stat(path)).size > 0) return path;
  } catch {
    // not made yet
  }
  const { width = 1280, height = 720, seconds = 10, fps = 25 } = options;
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.part.mp4`;
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(fps),
    '-keyint_min',
    String(fps),
    '-sc_threshold',
    '0',
    '-b:v',
    '1500k',
    '-an',
    '-movflags',
    '+faststart',
    '-y',
    temp,
  ]);
  await rename(temp, path);
  return path;
}
