import { join, resolve, sep } from 'node:path';

/** Footage of cameras without a storage of their own; cannot clash with a storage path (those start with [a-z0-9]). */
export const DEFAULT_STORAGE_PATH = '_default';

const STORAGE = /^(_default|[a-z0-9][a-z0-9_-]{0,62})$/;
const RUN = /^[a-z0-9]{6,32}$/;
const FILE = /^(init\.mp4|seg-\d{1,9}\.m4s|live\.m3u8)$/;

/**
 * Where footage lives: <root>/<storage>/<tenant>/<camera>/<run>/{init.mp4,seg-N.m4s,live.m3u8}. Every part is
 * checked against a strict pattern and the result must stay inside the camera's folder, so no value that came
 * from a request can name a file elsewhere.
 */
export function createVideoPaths(dataDir: string) {
  const root = resolve(dataDir, 'video');
  const exportsRoot = resolve(dataDir, 'video-exports');
  const cameraDir = (storagePath: string, tenantId: number, deviceId: number) => {
    if (!STORAGE.test(storagePath)) throw new Error('invalid storage path');
    return join(root, storagePath, String(Math.trunc(tenantId)), String(Math.trunc(deviceId)));
  };
  const within = (base: string, path: string) => {
    const full = resolve(path);
    if (!full.startsWith(base + sep)) throw new Error('path outside the footage');
    return full;
  };
  return {
    root,
    exportsRoot,
    clipSource: join(root, '_clips', 'simulated-720p.mp4'),
    cameraDir,
    runDir(storagePath: string, tenantId: number, deviceId: number, run: string) {
      if (!RUN.test(run)) throw new Error('invalid run');
      const base = cameraDir(storagePath, tenantId, deviceId);
      return within(base, join(base, run));
    },
    mediaFile(storagePath: string, tenantId: number, deviceId: number, run: string, file: string) {
      if (!RUN.test(run) || !FILE.test(file)) throw new Error('invalid media name');
      const base = cameraDir(storagePath, tenantId, deviceId);
      return within(base, join(base, run, file));
    },
    snapshotFile(storagePath: string, tenantId: number, deviceId: number) {
      const base = cameraDir(storagePath, tenantId, deviceId);
      return join(base, 'snapshot.jpg');
    },
    clipFile(tenantId: number, jobId: number, tid: string) {
      if (!/^[0-9a-f-]{36}$/.test(tid)) throw new Error('invalid task id');
      const base = join(exportsRoot, String(Math.trunc(tenantId)));
      return within(base, join(base, String(Math.trunc(jobId)), `${tid}.mp4`));
    },
    clipJobDir(tenantId: number, jobId: number) {
      return join(exportsRoot, String(Math.trunc(tenantId)), String(Math.trunc(jobId)));
    },
    incidentFile(tenantId: number, incidentId: number) {
      return join(exportsRoot, String(Math.trunc(tenantId)), 'incidents', `${Math.trunc(incidentId)}.mp4`);
    },
  };
}

export type VideoPaths = ReturnType<typeof createVideoPaths>;
