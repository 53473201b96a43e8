import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import {
  describeTool,
  ensureTestClip,
  missingToolsMessage,
  PROTOCOLS,
  rtspInput,
  spawnFfmpeg,
  videoTools,
} from '../../platform/ffmpeg/index.ts';
import type { OutboundNetworks } from '../../platform/outbound-networks.ts';
import { checkStreamUrl } from './network.ts';
import type { VideoPaths } from './paths.ts';
import { DEFAULT_STORAGE_PATH } from './paths.ts';
import * as repo from './repository.ts';
import type { VideoSettings } from './settings.ts';
import { classifyStreamFailure, scrubCredentials } from './stream-failure.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

interface Worker {
  key: string;
  tenantId: number;
  deviceId: number;
  hash: string;
  storagePath: string;
  simulated: boolean;
  streamUrl: string | null;
  segmentSec: number;
  child: ChildProcess | null;
  run: string | null;
  runDir: string | null;
  /** Highest segment number of the current run already indexed. */
  indexed: number;
  /** End time (ms) of the newest indexed segment: how far the index lags behind live (metrics). */
  lastSegmentEnd: number | null;
  startedAt: number;
  failures: number;
  retry: NodeJS.Timeout | null;
  stopped: boolean;
  exited: Promise<void> | null;
}

export interface PlaylistEntry {
  seq: number;
  file: string;
  start: Date;
  durationSec: number;
}

/** Parses the live playlist the HLS muxer keeps: each entry's file, its programme date-time and duration. */
export function parseLivePlaylist(text: string): PlaylistEntry[] {
  const entries: PlaylistEntry[] = [];
  let duration: number | null = null;
  let start: Date | null = null;
  let lastEnd: Date | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice(8));
    else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) {
      // ffmpeg writes +0000; make it ISO 8601 with a colon
      const value = line.slice(25).replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
      const parsed = new Date(value);
      start = Number.isNaN(parsed.getTime()) ? null : parsed;
    } else if (line && !line.startsWith('#')) {
      const match = /^seg-(\d+)\.m4s$/.exec(line);
      const begin: Date | null = start ?? lastEnd;
      if (match && duration !== null && begin) {
        entries.push({ seq: Number(match[1]), file: line, start: begin, durationSec: duration });
        lastEnd = new Date(begin.getTime() + duration * 1000);
      }
      duration = null;
      start = null;
    }
  }
  return entries;
}

const newRun = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000, 60_000];

/**
 * The recorder supervisor: one ffmpeg per camera that should run (recording on, or watched live), each with
 * `-c copy` into 2 s fMP4 HLS segments in a fresh "run" folder; the live playlists are read every second and
 * their new segments indexed in the database. A camera whose ffmpeg exits is restarted with backoff; the time
 * it was down shows as a gap on the timeline because no segment covers it.
 */
export function createRecorder(deps: {
  db: Db;
  paths: VideoPaths;
  settings: VideoSettings;
  log: Log;
  /** The networks each tenant's cameras may be dialled in. */
  outbound: Pick<OutboundNetworks, 'of'>;
  scanMs?: number;
  reconcileMs?: number;
}) {
  const { db, paths, settings, log, outbound } = deps;
  const workers = new Map<string, Worker>();
  let clip: Promise<string> | null = null;
  let scanTimer: NodeJS.Timeout | null = null;
  let reconcileTimer: NodeJS.Timeout | null = null;
  let running = false;
  let reconciling: Promise<void> | null = null;
  let scanning: Promise<void> | null = null;

  const simulatedClip = () => {
    if (!clip) {
      const [width, height] = settings.VIDEO_SIM_SIZE.split('x').map(Number) as [number, number];
      clip = ensureTestClip(paths.clipSource.replace('720p', `${width}x${height}`), { width, height }).catch((error) => {
        clip = null;
        throw error;
      });
    }
    return clip;
  };

  let toldMissingTools = false;

  /** Without ffmpeg a camera waits, told once in the log and on the camera, instead of failing every few seconds. */
  async function waitForTools(worker: Worker): Promise<boolean> {
    const tools = videoTools();
    if (tools.ffmpeg) return true;
    const message = missingToolsMessage(tools) ?? 'ffmpeg not found';
    if (!toldMissingTools) log.error(message);
    toldMissingTools = true;
    await repo
      .setCameraState(db, worker.tenantId, worker.deviceId, 'retrying', 'ffmpeg is not installed on the server')
      .catch(() => undefined);
    worker.retry = setTimeout(() => void launch(worker), 60_000);
    worker.retry.unref();
    return false;
  }

  async function launch(worker: Worker) {
    worker.retry = null;
    if (worker.stopped) return;
    if (!(await waitForTools(worker))) return;
    let input: string[];
    try {
      if (worker.simulated) {
        input = ['-re', '-stream_loop', '-1', '-protocol_whitelist', PROTOCOLS.file, '-i', await simulatedClip()];
      } else {
        const checked = await checkStreamUrl(worker.streamUrl ?? '', settings.VIDEO_STREAM_NETWORKS, await outbound.of(worker.tenantId));
        if (!checked.ok) throw new Error(checked.reason);
        input = rtspInput(checked.pinned);
      }
    } catch (error) {
      await failed(worker, scrubCredentials((error as Error).message));
      return;
    }
    if (worker.stopped) return;
    const run = newRun();
    const runDir = paths.runDir(worker.storagePath, worker.tenantId, worker.deviceId, run);
    await mkdir(runDir, { recursive: true });
    const child = spawnFfmpeg([
      ...input,
      '-map',
      '0:v:0',
      '-c',
      'copy',
      '-an',
      '-f',
      'hls',
      '-hls_time',
      String(worker.segmentSec),
      '-hls_list_size',
      '6',
      '-hls_segment_type',
      'fmp4',
      '-hls_fmp4_init_filename',
      'init.mp4',
      '-hls_segment_filename',
      join(runDir, 'seg-%d.m4s'),
      '-hls_flags',
      'program_date_time+independent_segments+omit_endlist+temp_file',
      join(runDir, 'live.m3u8'),
    ]);
    worker.child = child;
    worker.run = run;
    worker.runDir = runDir;
    worker.indexed = -1;
    worker.startedAt = Date.now();
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    child.stdout?.resume();
    await repo.setCameraState(db, worker.tenantId, worker.deviceId, 'starting', null).catch(() => undefined);
    worker.exited = new Promise((resolve) => {
      const done = () => {
        if (worker.child === child) worker.child = null;
        void (async () => {
          await indexWorker(worker).catch(() => undefined);
          if (!worker.stopped) {
            await failed(worker, classifyStreamFailure(stderr), scrubCredentials(stderr.trim().split('\n').slice(-2).join(' ')));
          }
        })().finally(resolve);
      };
      child.once('close', done);
      child.once('error', (error) => {
        stderr += error.message;
      });
    });
  }

  /** `reason` is shown to users (a category or our own check's text); `detail`, scrubbed, only goes to the log. */
  async function failed(worker: Worker, reason: string, detail?: string) {
    if (worker.stopped) return;
    if (Date.now() - worker.startedAt > 60_000) worker.failures = 0;
    const delay = BACKOFF_MS[Math.min(worker.failures, BACKOFF_MS.length - 1)] as number;
    worker.failures++;
    log.warn({ camera: worker.deviceId, tenant: worker.tenantId, reason, detail, retryInMs: delay }, 'camera stream stopped; retrying');
    await repo.setCameraState(db, worker.tenantId, worker.deviceId, 'retrying', reason.slice(0, 500)).catch(() => undefined);
    worker.retry = setTimeout(() => void launch(worker), delay);
    worker.retry.unref();
  }

  async function readNew(worker: Worker): Promise<repo.NewSegment[]> {
    if (!worker.runDir || !worker.run) return [];
    let text: string;
    try {
      text = await readFile(join(worker.runDir, 'live.m3u8'), 'utf8');
    } catch {
      return [];
    }
    const fresh = parseLivePlaylist(text).filter((e) => e.seq > worker.indexed);
    const out: repo.NewSegment[] = [];
    for (const entry of fresh) {
      let bytes = 0;
      try {
        bytes = (await stat(join(worker.runDir, entry.file))).size;
      } catch {
        continue;
      }
      out.push({
        tenant_id: worker.tenantId,
        device_id: worker.deviceId,
        storage_path: worker.storagePath,
        run: worker.run,
        file: entry.file,
        start_at: entry.start,
        end_at: new Date(entry.start.getTime() + Math.round(entry.durationSec * 1000)),
        bytes,
      });
    }
    return out;
  }

  async function indexWorker(worker: Worker) {
    const fresh = await readNew(worker);
    if (fresh.length === 0) return;
    await repo.insertSegments(db, fresh);
    worker.indexed = Math.max(worker.indexed, ...fresh.map((s) => Number(/\d+/.exec(s.file)?.[0] ?? -1)));
    worker.lastSegmentEnd = Math.max(worker.lastSegmentEnd ?? 0, ...fresh.map((s) => s.end_at.getTime()));
  }

  /** One pass over every camera: new segments go to the database in one multi-row insert. */
  async function scan() {
    const batch: repo.NewSegment[] = [];
    const seen: Array<[Worker, number, number]> = [];
    for (const worker of workers.values()) {
      const fresh = await readNew(worker);
      if (fresh.length) {
        batch.push(...fresh);
        seen.push([
          worker,
          Math.max(...fresh.map((s) => Number(/\d+/.exec(s.file)?.[0] ?? -1))),
          Math.max(...fresh.map((s) => s.end_at.getTime())),
        ]);
      }
    }
    if (batch.length === 0) return;
    await repo.insertSegments(db, batch);
    for (const [worker, seq, end] of seen) {
      worker.indexed = Math.max(worker.indexed, seq);
      worker.lastSegmentEnd = Math.max(worker.lastSegmentEnd ?? 0, end);
    }
  }

  async function stopWorker(worker: Worker) {
    worker.stopped = true;
    if (worker.retry) clearTimeout(worker.retry);
    const child = worker.child;
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await worker.exited;
      clearTimeout(killer);
    } else await worker.exited;
    await indexWorker(worker).catch(() => undefined);
  }

  async function reconcile() {
    const rows = await repo.camerasToRun(db);
    const desired = new Map<string, repo.CameraRow>();
    for (const row of rows) desired.set(`${row.tenant_id}:${row.device_id}`, row);
    for (const [key, worker] of workers) {
      const row = desired.get(key);
      if (!row || hashOf(row) !== worker.hash) {
        workers.delete(key);
        await stopWorker(worker);
        if (!row) await repo.setCameraState(db, worker.tenantId, worker.deviceId, 'idle', null).catch(() => undefined);
      }
    }
    for (const [key, row] of desired) {
      if (workers.has(key)) continue;
      const worker: Worker = {
        key,
        tenantId: row.tenant_id,
        deviceId: row.device_id,
        hash: hashOf(row),
        storagePath: row.storage_path ?? DEFAULT_STORAGE_PATH,
        simulated: row.simulated,
        streamUrl: row.stream_url,
        segmentSec: row.segment_sec,
        child: null,
        run: null,
        runDir: null,
        indexed: -1,
        lastSegmentEnd: null,
        startedAt: Date.now(),
        failures: 0,
        retry: null,
        stopped: false,
        exited: null,
      };
      workers.set(key, worker);
      void launch(worker);
    }
  }

  const hashOf = (row: repo.CameraRow) => JSON.stringify([row.simulated, row.stream_url, row.segment_sec, row.storage_path]);

  const guarded = (fn: () => Promise<void>, what: string) => () => {
    fn().catch((error) => log.error({ err: error }, `recorder ${what} failed`));
  };

  return {
    /** Starts supervising; the simulated clip is generated once, before the first simulated camera starts. */
    async start() {
      if (running) return;
      running = true;
      const tools = videoTools();
      if (tools.ffmpeg)
        log.info(`video tools: ffmpeg ${describeTool(tools.ffmpeg)}, ffprobe ${describeTool(tools.ffprobe) ?? 'not found'}`);
      reconciling = reconcile();
      await reconciling;
      reconciling = null;
      scanTimer = setInterval(() => {
        if (scanning) return;
        scanning = scan()
          .catch((error) => log.error({ err: error }, 'segment indexing failed'))
          .finally(() => {
            scanning = null;
          });
      }, deps.scanMs ?? 1000);
      reconcileTimer = setInterval(
        guarded(() => this.poke(), 'reconcile'),
        deps.reconcileMs ?? 3000,
      );
    },
    /** Re-reads which cameras should run now (after a config change or a live-view request). */
    async poke() {
      if (!running) return;
      if (reconciling) return reconciling;
      reconciling = reconcile().finally(() => {
        reconciling = null;
      });
      return reconciling;
    },
    /** Indexes whatever the running cameras wrote since the last scan (tests call it instead of waiting). */
    async flush() {
      if (scanning) await scanning;
      await scan();
    },
    async stop() {
      if (!running) return;
      running = false;
      if (scanTimer) clearInterval(scanTimer);
      if (reconcileTimer) clearInterval(reconcileTimer);
      if (reconciling) await reconciling.catch(() => undefined);
      if (scanning) await scanning;
      const all = [...workers.values()];
      workers.clear();
      await Promise.all(all.map(stopWorker));
      await repo
        .markAllStopped(
          db,
          all.map((w) => ({ tenantId: w.tenantId, deviceId: w.deviceId })),
        )
        .catch(() => undefined);
    },
    /** Each supervised camera: whether its ffmpeg runs and the end time of its newest indexed segment (metrics). */
    cameras: () =>
      [...workers.values()].map((w) => ({
        tenantId: w.tenantId,
        deviceId: w.deviceId,
        running: w.child !== null && w.child.exitCode === null && w.child.signalCode === null,
        startedAt: w.startedAt,
        lastSegmentEnd: w.lastSegmentEnd,
      })),
    /** The ffmpeg process ids (the benchmark measures their CPU). */
    pids: () => [...workers.values()].map((w) => w.child?.pid).filter((p): p is number => typeof p === 'number'),
    isRunning: (tenantId: number, deviceId: number) => workers.has(`${tenantId}:${deviceId}`),
    /** Kills a camera's ffmpeg as if the stream dropped (tests of the retry path). */
    dropForTest(tenantId: number, deviceId: number) {
      workers.get(`${tenantId}:${deviceId}`)?.child?.kill('SIGKILL');
    },
    ensureClip: simulatedClip,
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
