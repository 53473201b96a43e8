import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
type Time = ColumnType<Date, Date | string, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** bigint columns come back as strings from pg and numbers from PGlite: read them through Number(). */
type BigInt = ColumnType<string | number, number | undefined, number>;
type NullableBigInt = ColumnType<string | number | null, number | null | undefined, number | null>;

export interface VideoStoragesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  path: string;
  retention_days: ColumnType<number, number | undefined, number>;
  max_bytes: NullableBigInt;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Created;
  updated_at: Created;
}

export interface VideoCamerasTable {
  tenant_id: number;
  device_id: number;
  label: ColumnType<string, string | undefined, string>;
  asset_id: number | null;
  simulated: ColumnType<boolean, boolean | undefined, boolean>;
  stream_url: string | null;
  recording_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  segment_sec: ColumnType<number, number | undefined, number>;
  storage_id: number | null;
  state: ColumnType<string, string | undefined, string>;
  last_error: string | null;
  last_segment_at: NullableTime;
  live_until: NullableTime;
  created_at: Created;
  updated_at: Created;
}

export interface VideoSegmentsTable {
  id: Generated<number>;
  tenant_id: number;
  device_id: number;
  storage_path: string;
  run: string;
  file: string;
  start_at: Time;
  end_at: Time;
  bytes: BigInt;
}

export interface VideoToursTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  layout: number;
  stops: JSONColumnType<{ cameraId: number; dwellSec: number }[]>;
  created_by: number | null;
  created_at: Created;
  updated_at: Created;
}

export interface VideoIncidentsTable {
  id: Generated<number>;
  tenant_id: number;
  title: string;
  description: string;
  awb: string;
  table_number: string;
  device_id: number;
  event_at: Time;
  duration_sec: number;
  status: ColumnType<string, string | undefined, string>;
  clip_status: ColumnType<string, string | undefined, string>;
  clip_key: string | null;
  created_by: number | null;
  created_at: Created;
  updated_at: Created;
}

export interface VideoClipJobsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  name: string;
  status: ColumnType<string, string | undefined, string>;
  queue_job_id: number | null;
  error: string | null;
  downloaded: ColumnType<boolean, boolean | undefined, boolean>;
  expires_at: NullableTime;
  created_at: Created;
  updated_at: Created;
}

export interface VideoClipTasksTable {
  id: Generated<number>;
  tenant_id: number;
  job_id: number;
  tid: Generated<string>;
  device_id: number;
  name: string;
  camera_label: string | null;
  start_at: Time;
  end_at: Time;
  status: ColumnType<string, string | undefined, string>;
  progress: ColumnType<number, number | undefined, number>;
  file: string | null;
  bytes: NullableBigInt;
  error: string | null;
  is_read: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: Created;
}

/** A stretch of a camera's recordings marked by another domain (a maintenance window), shown on its timeline. */
export interface VideoMarkersTable {
  id: Generated<string>;
  tenant_id: number;
  camera_id: number;
  ref: string;
  label: string;
  starts_at: Time;
  ends_at: Time;
  created_at: Created;
}

export interface VideoTables {
  video_markers: VideoMarkersTable;
  video_storages: VideoStoragesTable;
  video_cameras: VideoCamerasTable;
  video_segments: VideoSegmentsTable;
  video_tours: VideoToursTable;
  video_incidents: VideoIncidentsTable;
  video_clip_jobs: VideoClipJobsTable;
  video_clip_tasks: VideoClipTasksTable;
  video_evidence: VideoEvidenceTable;
  video_camera_tables: VideoCameraTablesTable;
}

/** A packing table watched by a camera: one camera per table number and tenant. */
export interface VideoCameraTablesTable {
  tenant_id: number;
  table_number: string;
  device_id: number;
}

/** A camera's clip on a ticket (an alarm's window, an AI finding's); while `pinned`, retention keeps its footage. */
export interface VideoEvidenceTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_id: number;
  ticket_no: ColumnType<string, string | undefined, string>;
  device_id: number;
  source: string;
  source_id: NullableBigInt;
  event_at: Time;
  from_at: Time;
  to_at: Time;
  status: ColumnType<string, string | undefined, string>;
  bytes: NullableBigInt;
  pinned: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Created;
}
