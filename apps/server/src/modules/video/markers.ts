import type { Db } from '../../platform/db.ts';
import { endMarkers, insertMarkers, markersByRef } from './markers-repository.ts';

/** Marks stretches of cameras' recordings for another domain (maintenance windows); the timeline shows them. */
export interface VideoMarkers {
  mark(tenantId: number, cameraIds: number[], marker: { ref: string; label: string; from: Date; to: Date }): Promise<void>;
  /** Ends a reference's markers at `at` (the window stopped before its planned end). */
  end(tenantId: number, ref: string, at: Date): Promise<void>;
  list(tenantId: number, ref: string): Promise<{ cameraId: number; label: string; from: Date; to: Date }[]>;
}

export function createVideoMarkers(db: Db): VideoMarkers {
  return {
    mark: (tenantId, cameraIds, m) => insertMarkers(db, tenantId, cameraIds, m),
    end: (tenantId, ref, at) => endMarkers(db, tenantId, ref, at),
    async list(tenantId, ref) {
      return (await markersByRef(db, tenantId, ref)).map((r) => ({
        cameraId: r.camera_id,
        label: r.label,
        from: r.starts_at,
        to: r.ends_at,
      }));
    },
  };
}
