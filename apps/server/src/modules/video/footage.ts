import { readFile } from 'node:fs/promises';
import type { Db } from '../../platform/db.ts';
import { takeSnapshot } from './media.ts';
import type { VideoPaths } from './paths.ts';
import * as repo from './repository.ts';
import type { EvidenceRequest, TicketEvidence } from './ticket-evidence.ts';

/** A stretch of recorded footage as one ffmpeg input (`concat:` of a recording run's init and segments). */
export interface Footage {
  input: string;
  from: Date;
  to: Date;
}

/** A camera whose footage may be analysed: recording, across tenants. */
export interface RecordingCamera {
  tenantId: number;
  deviceId: number;
  label: string;
  assetId: number | null;
  lastSegmentAt: Date | null;
}

/**
 * What other domains may read of the recordings (the analysis of camera health): never the tables or the paths
 * themselves, only footage as an ffmpeg input.
 */
export function createFootagePort(db: Db, paths: VideoPaths, evidence: Pick<TicketEvidence, 'request'>) {
  return {
    /**
     * Puts the clip of the cameras around an event on a ticket (cut once the window is recorded, the footage kept
     * while the ticket is open); the new clips' ids.
     */
    attachClips: (req: EvidenceRequest) => evidence.request(req),
    /** Cameras with recording on, across tenants, oldest analysed first is the caller's business. */
    async recordingCameras(): Promise<RecordingCamera[]> {
      const rows = await repo.camerasToRun(db);
      return rows
        .filter((r) => r.recording_enabled)
        .map((r) => ({
          tenantId: r.tenant_id,
          deviceId: r.device_id,
          label: r.label,
          assetId: r.asset_id,
          lastSegmentAt: r.last_segment_at ? new Date(r.last_segment_at) : null,
        }));
    },
    /**
     * The footage recorded after `since`, at most `seconds` of it and from one recording run (a restart of the
     * recorder starts a new stream), or null when none is indexed yet.
     */
    async since(tenantId: number, deviceId: number, since: Date, seconds: number): Promise<Footage | null> {
      const to = new Date(since.getTime() + seconds * 1000);
      const segments = (await repo.segmentsInRange(db, tenantId, deviceId, since, to)).filter((s) => new Date(s.start_at) >= since);
      const first = segments[0];
      if (!first) return null;
      const run = segments.filter((s) => s.run === first.run);
      const last = run.at(-1) as (typeof run)[number];
      const files = [
        paths.mediaFile(first.storage_path, tenantId, deviceId, first.run, 'init.mp4'),
        ...run.map((s) => paths.mediaFile(s.storage_path, tenantId, deviceId, s.run, s.file)),
      ];
      return { input: `concat:${files.join('|')}`, from: new Date(first.start_at), to: new Date(last.end_at) };
    },
  };
}
export type FootagePort = ReturnType<typeof createFootagePort>;

/** Stills of a site's cameras, for other domains (attendance check-ins). */
export function createSiteStills(db: Db, paths: VideoPaths, simulatedStill: () => Promise<string>) {
  return {
    /**
     * A still of the site from its first camera that has a picture (attendance check-ins): null when the site has no
     * configured camera, `image` null when none of its cameras has a picture now.
     */
    async siteStill(tenantId: number, assetId: number) {
      const cameras = await repo.camerasAtSite(db, tenantId, assetId);
      if (cameras.length === 0) return null;
      for (const camera of cameras) {
        try {
          const shot = await takeSnapshot(db, paths, tenantId, camera.device_id);
          const file = shot?.file ?? (camera.simulated ? await simulatedStill() : null);
          if (!file) continue;
          return { deviceId: camera.device_id, label: camera.label, takenAt: shot?.takenAt ?? new Date(), image: await readFile(file) };
        } catch {
          // this camera has no picture now: try the next
        }
      }
      const first = cameras[0] as (typeof cameras)[number];
      return { deviceId: first.device_id, label: first.label, takenAt: new Date(), image: null };
    },
  };
}
export type SiteStillsPort = ReturnType<typeof createSiteStills>;
