import { copyFile, link, mkdir, readdir } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';

/** Folders of the data folder that hold files the database names. Recordings (`video`) only when asked for. */
export const FILE_TREES = ['blobs', 'analysis', 'video-exports'] as const;
export const RECORDINGS_TREE = 'video';

export const treesOf = (withRecordings: boolean): string[] => (withRecordings ? [...FILE_TREES, RECORDINGS_TREE] : [...FILE_TREES]);

/** A file being written (`*.part`, `*.tmp`) is never a file the database names. */
const IN_PROGRESS = /\.(part|tmp)$/;

/**
 * The files the database names, as paths inside the data folder, read in the caller's snapshot (the backup's moment).
 * Every table that names a file has its line here; the backup test fails when a demo file is left out.
 */
export type RunQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

export async function referencedFiles(run: RunQuery, withRecordings: boolean): Promise<string[]> {
  const rows = await run(`
    select 'blobs/' || blob_key as path from ticket_attachments
    union all select 'blobs/' || blob_key from ticket_imports
    union all select 'blobs/' || blob_key from form_attachments
    union all select 'blobs/' || blob_key from download_tasks where blob_key is not null
    union all select 'blobs/' || snapshot_key from attendance_records where snapshot_key is not null
    union all select 'blobs/' || blob_key from attendance_photos
    union all select 'analysis/' || tenant_id || '/' || frame_file from analysis_results where frame_file is not null
    union all select 'analysis/' || tenant_id || '/' || reference_file from analysis_cameras where reference_file is not null
    union all select 'video-exports/' || tenant_id || '/evidence/' || id || '.mp4' from video_evidence where status = 'ready'
    union all select 'video-exports/' || tenant_id || '/' || clip_key from video_incidents where clip_key is not null
    union all select 'video-exports/' || tenant_id || '/' || job_id || '/' || file from video_clip_tasks
      where file is not null and status = 'ready-to-download'
  `);
  const paths = rows.map((r) => String(r.path));
  if (withRecordings) {
    const segments = await run(
      `select 'video/' || storage_path || '/' || tenant_id || '/' || device_id || '/' || run || '/' || file as path from video_segments`,
    );
    for (const r of segments) paths.push(String(r.path));
  }
  return paths;
}

/** Every file under the given trees of `root`, as paths relative to `root` with forward slashes. */
export async function listTreeFiles(root: string, trees: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const tree of trees) {
    const base = join(root, tree);
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isFile() || IN_PROGRESS.test(e.name)) continue;
      files.push(
        join(e.parentPath, e.name)
          .slice(root.length + 1)
          .split(sep)
          .join('/'),
      );
    }
  }
  return files;
}

/**
 * Holds on to the files of the trees as they are now: hard links in `staging` (on the data folder's disk), so that a
 * file deleted afterwards is still there to copy; a copy where links are not possible. Files already held are kept.
 */
export async function holdFiles(dataDir: string, staging: string, trees: readonly string[]): Promise<number> {
  const files = await listTreeFiles(dataDir, trees);
  let held = 0;
  for (const file of files) {
    const from = join(dataDir, ...file.split('/'));
    const to = join(staging, ...file.split('/'));
    await mkdir(dirname(to), { recursive: true });
    try {
      await link(from, to);
      held++;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'ENOENT') continue; // deleted since it was listed
      if (code === 'EXDEV' || code === 'EPERM' || code === 'EMLINK') {
        await copyFile(from, to).then(
          () => held++,
          (e: NodeJS.ErrnoException) => {
            if (e.code !== 'ENOENT') throw e;
          },
        );
        continue;
      }
      throw error;
    }
  }
  return held;
}
