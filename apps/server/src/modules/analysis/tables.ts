import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | string, Date | string>;

/** Per camera: how far its footage is analysed, its reference frame and since when its video is lost. */
export interface AnalysisCamerasTable {
  tenant_id: number;
  device_id: number;
  analysed_until: Stamp | null;
  reference_file: string | null;
  reference_at: Stamp | null;
  video_lost_since: Stamp | null;
  /** Motion in a region during set hours: the region (fractions of the picture), the hours and their time zone. */
  region: ColumnType<AnalysisRegionValue | null, string | null | undefined, string | null>;
  motion_from: string | null;
  motion_to: string | null;
  motion_tz: string | null;
  motion_threshold: ColumnType<number, number | undefined, number>;
}

export interface AnalysisRegionValue {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One finding of an analyser, and the verdict a person gave it. */
export interface AnalysisResultsTable {
  id: Generated<number>;
  tenant_id: number;
  device_id: number;
  /** The camera's site when the finding was made (site scoping of the lists). */
  asset_id: number | null;
  analyser: string;
  at: Stamp;
  end_at: Stamp | null;
  score: number;
  detail: Generated<string>;
  frame_file: string | null;
  verdict: string | null;
  reason: string | null;
  verified_by: number | null;
  verified_at: Stamp | null;
  ticket_id: number | null;
  ticket_no: string | null;
  created_at: Generated<Date>;
}

export interface AnalysisTables {
  analysis_cameras: AnalysisCamerasTable;
  analysis_results: AnalysisResultsTable;
}
