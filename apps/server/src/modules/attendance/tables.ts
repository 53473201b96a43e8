import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
type Time = ColumnType<Date, Date | string, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface AttendanceRecordsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  asset_id: number;
  ticket_id: number | null;
  check_in_at: Time;
  check_in_lat: number;
  check_in_lng: number;
  check_in_accuracy: number | null;
  distance_m: number;
  travel_kmh: ColumnType<number | null, number | null | undefined, number | null>;
  check_out_at: NullableTime;
  check_out_lat: number | null;
  check_out_lng: number | null;
  check_out_accuracy: number | null;
  check_out_received_at: NullableTime;
  moved_ticket_ids: ColumnType<number[], number[] | undefined, number[]>;
  snapshot_state: ColumnType<string, string | undefined, string>;
  snapshot_key: string | null;
  snapshot_at: NullableTime;
  snapshot_camera: string | null;
  created_at: Created;
  updated_at: Created;
}

export interface AttendancePhotosTable {
  uid: string;
  tenant_id: number;
  user_id: number;
  record_id: number | null;
  type: string;
  size: number;
  blob_key: string;
  created_at: Created;
}

export interface AttendanceTables {
  attendance_records: AttendanceRecordsTable;
  attendance_photos: AttendancePhotosTable;
}
