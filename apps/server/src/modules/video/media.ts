import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Db } from '../../platform/db.ts';
import { PROTOCOLS, runFfmpeg } from '../../platform/ffmpeg/index.ts';
import type { VideoPaths } from './paths.ts';
import * as repo from './repository.ts';

/** Reading footage: playlists of any range, the live playlist, snapshots and remuxed clips. */

export const mediaUrl = (camId: number, run: string, file: string) => `/api/cameras/${camId}/media/${run}/${file}`;

/**
 * A VOD playlist of the indexed segments that overlap [from, to). A new run (ffmpeg restarted) or a hole in the
 * footage starts a discontinuity with that run's init segment. EXT-X-START puts the player at `from`.
 */
export function buildPlaybackPlaylist(camId: number, segments: repo.SegmentRow[], from: Date): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-INDEPENDENT-SEGMENTS'];
  const target = Math.max(1, ...segments.map((s) => Math.ceil((s.end_at.getTime() - s.start_at.getTime()) / 1000)));
  lines.push(`#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0');
  const first = segments[0];
  if (first) {
    const offset = Math.max(0, (from.getTime() - first.start_at.getTime()) / 1000);
    if (offset > 0) lines.push(`#EXT-X-START:TIME-OFFSET=${offset.toFixed(3)},PRECISE=YES`);
  }
  let run: string | null = null;
  let lastEnd: number | null = null;
  for (const s of segments) {
    const start = new Date(s.start_at).getTime();
    const end = new Date(s.end_at).getTime();
    if (s.run !== run) {
      if (run !== null) lines.push('#EXT-X-DISCONTINUITY');
      lines.push(`#EXT-X-MAP:URI="${mediaUrl(camId, s.run, 'init.mp4')}"`);
      run = s.run;
    } else if (lastEnd !== null && start - lastEnd > 1500) {
      lines.push('#EXT-X-DISCONTINUITY');
    }
    lines.push(
      `#EXT-X-PROGRAM-DATE-TIME:${new Date(start).toISOString()}`,
      `#EXTINF:${((end - start) / 1000).toFixed(3)},`,
      mediaUrl(camId, s.run, s.file),
    );
    lastEnd = end;
  }
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** The muxer's live playlist with its file names turned into authenticated media URLs. */
export async function livePlaylist(
  paths: VideoPaths,
  camId: number,
  tenantId: number,
  storagePath: string,
  run: string,
  urlOf: (run: string, file: string) => string = (r, file) => mediaUrl(camId, r, file),
): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(paths.mediaFile(storagePath, tenantId, camId, run, 'live.m3u8'), 'utf8');
  } catch {
    return null;
  }
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('#EXT-X-MAP:')) return `#EXT-X-MAP:URI="${urlOf(run, 'init.mp4')}"`;
      if (/^seg-\d+\.m4s$/.test(line.trim())) return urlOf(run, line.trim());
      return line;
    })
    .join('\n');
}

/** A JPEG of the first frame of the latest segment; reused while that segment is the latest. */
/**
 * One frame of the simulated cameras' clip, made once: the picture of a simulated camera that is not streaming
 * (demo cameras run only while watched), next to its clip.
 */
export function createClipStill(clip: () => Promise<string>) {
  let still: Promise<string> | null = null;
  return () => {
    if (!still) {
      still = (async () => {
        const source = await clip();
        const out = `${source}.still.jpg`;
        try {
          await stat(out);
          return out;
        } catch {
          // not made yet
        }
        const temp = `${out}.${process.pid}.${Date.now()}.jpg`;
        await runFfmpeg(['-protocol_whitelist', PROTOCOLS.file, '-ss', '1', '-i', source, '-frames:v', '1', '-q:v', '5', '-y', temp]);
        await rename(temp, out);
        return out;
      })().catch((error) => {
        still = null;
        throw error;
      });
    }
    return still;
  };
}

export async function takeSnapshot(
  db: Db,
  paths: VideoPaths,
  tenantId: number,
  camId: number,
): Promise<{ file: string; takenAt: Date } | null> {
  const latest = await repo.latestSegment(db, tenantId, camId);
  if (!latest) return null;
  const out = paths.snapshotFile(latest.storage_path, tenantId, camId);
  const takenAt = new Date(latest.start_at);
  try {
    const info = await stat(out);
    if (info.mtimeMs >= takenAt.getTime()) return { file: out, takenAt };
  } catch {
    // none yet
  }
  const init = paths.mediaFile(latest.storage_path, tenantId, camId, latest.run, 'init.mp4');
  const segment = paths.mediaFile(latest.storage_path, tenantId, camId, latest.run, latest.file);
  const temp = `${out}.${process.pid}.${Date.now()}.jpg`;
  await mkdir(dirname(out), { recursive: true });
  await runFfmpeg(['-protocol_whitelist', PROTOCOLS.concat, '-i', `concat:${init}|${segment}`, '-frames:v', '1', '-q:v', '5', '-y', temp]);
  await rename(temp, out);
  return { file: out, takenAt };
}

/**
 * Writes an MP4 of [from, to) by remuxing the indexed segments (`-c copy`, never re-encoding). Each recording run
 * is one fragmented stream (its init segment followed by its segments); several runs are joined with the concat
 * demuxer. The cut falls on the keyframe at or before `from`.
 */
export async function exportClip(
  db: Db,
  paths: VideoPaths,
  opts: {
    tenantId: number;
    camId: number;
    from: Date;
    to: Date;
    out: string;
    signal?: AbortSignal;
    onStage?: (stage: 'playlist' | 'mp4') => Promise<void>;
  },
): Promise<{ bytes: number; segments: number }> {
  const segments = await repo.segmentsInRange(db, opts.tenantId, opts.camId, opts.from, opts.to);
  if (segments.length === 0) throw new Error('No footage in the selected range');
  await opts.onStage?.('playlist');
  const runs: Array<{ run: string; storage: string; files: repo.SegmentRow[] }> = [];
  for (const s of segments) {
    const last = runs.at(-1);
    if (last && last.run === s.run) last.files.push(s);
    else runs.push({ run: s.run, storage: s.storage_path, files: [s] });
  }
  await mkdir(dirname(opts.out), { recursive: true });
  await opts.onStage?.('mp4');
  const temp = `${opts.out}.${process.pid}.part.mp4`;
  const first = segments[0] as repo.SegmentRow;
  const startOffset = Math.max(0, (opts.from.getTime() - new Date(first.start_at).getTime()) / 1000);
  const duration = (opts.to.getTime() - Math.max(opts.from.getTime(), new Date(first.start_at).getTime())) / 1000;
  const concatOf = (r: (typeof runs)[number]) =>
    `concat:${[paths.mediaFile(r.storage, opts.tenantId, opts.camId, r.run, 'init.mp4'), ...r.files.map((f) => paths.mediaFile(r.storage, opts.tenantId, opts.camId, r.run, f.file))].join('|')}`;
  const tail = ['-t', duration.toFixed(3), '-map', '0:v:0', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', '-y', temp];
  const parts: string[] = [];
  try {
    if (runs.length === 1) {
      await runFfmpeg(
        ['-protocol_whitelist', PROTOCOLS.concat, '-ss', startOffset.toFixed(3), '-i', concatOf(runs[0] as (typeof runs)[number]), ...tail],
        { signal: opts.signal },
      );
    } else {
      for (const [i, r] of runs.entries()) {
        const part = `${opts.out}.part${i}.mp4`;
        parts.push(part);
        await runFfmpeg(
          ['-protocol_whitelist', PROTOCOLS.concat, '-i', concatOf(r), '-map', '0:v:0', '-c', 'copy', '-f', 'mp4', '-y', part],
          { signal: opts.signal },
        );
      }
      const list = `${opts.out}.list.txt`;
      parts.push(list);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(
        list,
        parts
          .filter((p) => p.endsWith('.mp4'))
          .map((p) => `file '${p.replace(/'/g, "'\\''")}'`)
          .join('\n'),
      );
      await runFfmpeg(
        ['-protocol_whitelist', PROTOCOLS.file, '-f', 'concat', '-safe', '0', '-ss', startOffset.toFixed(3), '-i', list, ...tail],
        { signal: opts.signal },
      );
    }
    await rename(temp, opts.out);
  } finally {
    await Promise.all([temp, ...parts].map((p) => rm(p, { force: true })));
  }
  return { bytes: (await stat(opts.out)).size, segments: segments.length };
}

export const removeQuietly = (path: string) => rm(path, { force: true, recursive: true });
export const joinPath = join;
