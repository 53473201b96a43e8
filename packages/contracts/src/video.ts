import { z } from 'zod';
import { INT4_MAX, idCoerced, idSchema } from './common.ts';
import { idList, repeated } from './query.ts';

/** Video surveillance: cameras, recordings, storages, tours, incidents, clip downloads (SPEC 2.2, 2.15, 3, 4, 5, 7, 8.3, 9). */

/** SPEC 9 camera constants. */
export const CAMERA_CONSTANTS = {
  recordingDefaultSec: 60,
  recordingGrid: { columns: 3, rows: 2 },
  incidentMaxDurationSec: 60,
  mappingRecordDurationSec: 300,
  recordingExpiryMs: 3600_000,
  recordingWindowSec: 300,
  snapshotTries: 5,
  snapshotRetryMs: 3000,
  copyLabelResetMs: 1200,
  /** Most cameras × windows one batch download may ask for (the rest is dropped with the max-limit warning). */
  batchMaxTasks: 50,
  /** Longest window one clip may cover. */
  clipMaxSec: 3600,
} as const;

export const VIDEO_MESSAGES = {
  alreadyInGrid: 'Camera Already Exists In Grid !',
  copyFailed: 'Failed To Copy!',
  copied: 'Copied',
  copyUrl: 'Copy URL',
  maxLimit: (n: number, what: string) => `Max limit exceeded, Only ${n} ${what}(s) will be downloaded!`,
  storageCreated: 'Storage created successfully',
  storageUpdated: 'Storage updated successfully',
  storageDeleted: 'Storage deleted successfully',
  created: 'Successfully Created',
  updated: 'Successfully Updated',
  deleted: 'Successfully Deleted',
  noFootage: 'No footage in the selected range',
  cameraNotConfigured: 'This camera has no video configuration yet',
  snapshotUnavailable: 'No recent footage to take a snapshot from',
  liveVideo: 'Live Video',
  cameraRecording: 'CAMERA RECORDING',
  tableCamera: (table: string, camera: string) => `Camera for table ${table}: ${camera}`,
  noTableCamera: (table: string) => `No camera watches table ${table}`,
  tableTaken: (table: string, camera: string | null) =>
    `Table ${table} is already watched by ${camera === null ? 'another camera' : `camera ${camera}`}`,
  tableTwice: (table: string) => `Table ${table} is listed twice`,
} as const;

/** SPEC 5: incident report columns AWB and Table are required and visible by default. */
export const INCIDENT_COLUMNS = [
  { field: 'awb', label: 'AWB', required: true, visible: true },
  { field: 'tableNumber', label: 'Table', required: true, visible: true },
] as const;

const isoDate = z.iso.datetime({ offset: true, message: 'must be an ISO date-time' });

/** A packing table's number as the incident's Table field holds it; a camera watches at most `tablesPerCamera`. */
export const TABLE_NUMBER_MAX = 60;
export const TABLES_PER_CAMERA = 50;
export const tableNumberSchema = z
  .string()
  .trim()
  .min(1, 'Table is required')
  .max(TABLE_NUMBER_MAX, `Please use maximum ${TABLE_NUMBER_MAX} characters`);

// ------------------------------------------------------------------ stream URLs

/** rtsp:// or rtsps:// only; credentials may be given in the URL but are never sent back. */
export const streamUrlSchema = z
  .string()
  .trim()
  .max(1000)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'rtsp:' || u.protocol === 'rtsps:') && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'streamUrl must be an rtsp:// or rtsps:// URL');

/** The URL as shown to users: user name and password replaced. */
export function redactStreamUrl(url: string | null): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '***';
      u.password = '';
    }
    return u.toString();
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ storages

export const storageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Folder under the video root where footage goes. */
  path: z.string(),
  retentionDays: z.number().int(),
  maxBytes: z.number().int().nullable(),
  usedBytes: z.number().int(),
  isDefault: z.boolean(),
  cameraCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Storage = z.infer<typeof storageSchema>;

export const storageInputSchema = z.strictObject({
  name: z.string().trim().min(1, 'Name is required').max(120),
  path: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'path must be a folder name of lower-case letters, digits, - and _'),
  retentionDays: z.coerce.number().int().min(1).max(3650).default(30),
  maxBytes: z.coerce.number().int().min(1_000_000).nullable().default(null),
  isDefault: z.boolean().default(false),
});
export type StorageInput = z.infer<typeof storageInputSchema>;
export const storageListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const storageListSchema = z.object({ contents: z.array(storageSchema), totalCount: z.number().int() });

// ------------------------------------------------------------------ cameras

export const CAMERA_STATES = ['idle', 'starting', 'recording', 'retrying', 'stopped'] as const;
export type CameraState = (typeof CAMERA_STATES)[number];
/** What a person reads for a camera's state. */
export const CAMERA_STATE_LABELS: Record<CameraState, string> = {
  idle: 'Idle',
  starting: 'Starting',
  recording: 'Recording',
  retrying: 'Reconnecting',
  stopped: 'Stopped',
};
/** A camera's state as its card shows it: unconfigured cameras and cameras that stream only while watched say so. */
export const cameraStateText = (c: { configured: boolean; recordingEnabled: boolean; state: CameraState }) =>
  !c.configured ? 'Not configured' : !c.recordingEnabled && c.state === 'idle' ? 'Live on demand' : CAMERA_STATE_LABELS[c.state];

export const cameraSchema = z.object({
  /** The CAMERA device id. */
  id: z.number().int(),
  label: z.string(),
  name: z.string(),
  assetId: z.number().int().nullable(),
  parentId: z.number().int().nullable(),
  parentLabel: z.string().nullable(),
  /** The name of the camera's site: labels repeat at every site (CAM-01), the site tells them apart. */
  siteName: z.string().nullable(),
  configured: z.boolean(),
  simulated: z.boolean(),
  /** Credentials replaced by *** */
  streamUrl: z.string().nullable(),
  recordingEnabled: z.boolean(),
  segmentSec: z.number().int(),
  storageId: z.number().int().nullable(),
  state: z.enum(CAMERA_STATES),
  lastError: z.string().nullable(),
  lastSegmentAt: z.string().nullable(),
  /** The packing tables this camera watches (incident reports find their camera by table). */
  tables: z.array(z.string()),
});
export type Camera = z.infer<typeof cameraSchema>;

export const cameraListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  search: z.string().trim().max(200).optional(),
  assetId: idCoerced.optional(),
  /** Cameras of the sites whose address starts with these levels (the device-tree selection; repeat per level). */
  path: repeated(z.string().trim().min(1).max(80), 6, 'path').optional(),
  /** The device-tree selection of a device: that camera, or the cameras under that DVR/NVR. */
  deviceId: idCoerced.optional(),
  configured: z.enum(['true', 'false']).optional(),
  /** Only these cameras (comma-separated ids): screens that keep a chosen list look their cameras up by id. */
  ids: idList.optional(),
});
export const cameraListSchema = z.object({ contents: z.array(cameraSchema), totalCount: z.number().int() });

export const cameraTablesSchema = z
  .array(tableNumberSchema)
  .max(TABLES_PER_CAMERA, `A camera watches at most ${TABLES_PER_CAMERA} tables`)
  .superRefine((tables, ctx) => {
    const twice = tables.find((t, i) => tables.indexOf(t) !== i);
    if (twice !== undefined) ctx.addIssue({ code: 'custom', message: VIDEO_MESSAGES.tableTwice(twice) });
  });

export const cameraConfigInputSchema = z
  .strictObject({
    simulated: z.boolean().default(false),
    streamUrl: streamUrlSchema.nullable().optional(),
    recordingEnabled: z.boolean().default(true),
    segmentSec: z.coerce.number().int().min(1).max(10).default(2),
    storageId: idSchema.nullable().default(null),
    /** The tables it watches; absent keeps them as they are. */
    tables: cameraTablesSchema.optional(),
  })
  .refine((v) => v.simulated || !!v.streamUrl, { message: 'streamUrl is required unless the camera is simulated', path: ['streamUrl'] });
export type CameraConfigInput = z.infer<typeof cameraConfigInputSchema>;

export const camIdParamSchema = z.object({ camId: idCoerced });

/** SPEC 7: GET /api/cameras/{camId}/snapshot/ → path, or err. */
export const snapshotSchema = z.union([z.object({ path: z.string(), takenAt: z.string() }), z.object({ err: z.string() })]);

/**
 * `url`: the HLS live playlist (the baseline). `wsUrl`: the low-latency path, a WebSocket of fMP4 for Media Source
 * Extensions; each binary message is an 8-byte big-endian float64 (the server's epoch ms when the fragment left the
 * camera's remuxer) followed by MP4 bytes: the init segment first, then moof+mdat fragments from a keyframe on.
 */
export const liveViewSchema = z.object({ url: z.string(), wsUrl: z.string(), state: z.enum(CAMERA_STATES) });

/** A time range; without one, the last 60 s (SPEC 9 recording default). */
export const rangeQuerySchema = z
  .strictObject({ from: isoDate.optional(), to: isoDate.optional() })
  .transform((v) => {
    const to = v.to ? new Date(v.to) : new Date();
    const from = v.from ? new Date(v.from) : new Date(to.getTime() - CAMERA_CONSTANTS.recordingDefaultSec * 1000);
    return { from: from.toISOString(), to: to.toISOString() };
  })
  .refine((v) => Date.parse(v.to) > Date.parse(v.from), { message: 'to must be after from', path: ['to'] })
  .refine((v) => Date.parse(v.to) - Date.parse(v.from) <= 7 * 24 * 3600_000, { message: 'range must be at most 7 days', path: ['to'] });

export const timelineSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Stretches with footage; what lies between is a gap. */
  ranges: z.array(z.object({ start: z.string(), end: z.string() })),
  /** Marked stretches (maintenance windows) overlapping the range. */
  markers: z.array(z.object({ start: z.string(), end: z.string(), label: z.string() })),
});

/** A media file inside one recording run: the only names the media route accepts. */
export const mediaParamSchema = z.object({
  camId: idCoerced,
  run: z.string().regex(/^[a-z0-9]{6,32}$/, 'invalid run'),
  file: z.string().regex(/^(init\.mp4|seg-\d{1,9}\.m4s)$/, 'invalid file'),
});

export const clipInputSchema = z
  .strictObject({ from: isoDate, durationSec: z.coerce.number().int().min(1).max(CAMERA_CONSTANTS.clipMaxSec) })
  .strict();

// ------------------------------------------------------------------ batch playback downloads

export const batchDownloadInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(120).optional(),
  cameraIds: z.array(idSchema).min(1).max(500),
  windows: z
    .array(
      z
        .strictObject({ from: isoDate, to: isoDate })
        .refine((w) => Date.parse(w.to) > Date.parse(w.from), { message: 'to must be after from', path: ['to'] })
        .refine((w) => Date.parse(w.to) - Date.parse(w.from) <= CAMERA_CONSTANTS.clipMaxSec * 1000, {
          message: `a window is at most ${CAMERA_CONSTANTS.clipMaxSec} s`,
          path: ['to'],
        }),
    )
    .min(1)
    .max(50),
});
export type BatchDownloadInput = z.infer<typeof batchDownloadInputSchema>;
export const batchDownloadCreatedSchema = z.object({
  jobId: z.number().int(),
  taskCount: z.number().int(),
  /** Set when the request asked for more than the limit: the SPEC 8.3 amber warning. */
  warning: z.string().nullable(),
});

// ------------------------------------------------------------------ tours

export const tourStopSchema = z.object({ cameraId: idSchema, dwellSec: z.number().int().min(5).max(3600) });
export const tourSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  layout: z.number().int(),
  /** `label` names the stop's camera with its site (`nameWithSite`), or is null to whoever may not open that camera. */
  stops: z.array(tourStopSchema.extend({ label: z.string().nullable() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tour = z.infer<typeof tourSchema>;
export const tourInputSchema = z.strictObject({
  name: z.string().trim().min(1, 'Name is required').max(120),
  layout: z.union([z.literal(1), z.literal(4), z.literal(6), z.literal(9)]).default(1),
  stops: z.array(tourStopSchema).min(1, 'Add at least one camera').max(64),
});
export const tourListSchema = z.object({ contents: z.array(tourSchema), totalCount: z.number().int() });

// ------------------------------------------------------------------ incidents

export const INCIDENT_STATUSES = ['OPEN', 'CLOSED'] as const;
export const incidentSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  awb: z.string(),
  tableNumber: z.string(),
  cameraId: z.number().int(),
  cameraLabel: z.string().nullable(),
  eventAt: z.string(),
  durationSec: z.number().int(),
  status: z.enum(INCIDENT_STATUSES),
  clipStatus: z.enum(['pending', 'ready', 'failed']),
  /** Authenticated download path of the clip once ready. */
  clipPath: z.string().nullable(),
  createdBy: z.number().int().nullable(),
  createdAt: z.string(),
});
export type Incident = z.infer<typeof incidentSchema>;
export const incidentInputSchema = z.strictObject({
  title: z.string().trim().min(1, 'Title is required').max(250, 'Please use maximum 250 characters'),
  description: z.string().trim().max(2000).default(''),
  awb: z.string().trim().min(1, 'AWB is required').max(120),
  tableNumber: tableNumberSchema,
  /** Without it, the camera that watches the table. */
  cameraId: idSchema.optional(),
  /** Without it, now: the time the AWB or table was scanned. */
  eventAt: isoDate.optional(),
  durationSec: z.coerce.number().int().min(1).max(CAMERA_CONSTANTS.incidentMaxDurationSec).default(CAMERA_CONSTANTS.incidentMaxDurationSec),
});
export const incidentUpdateSchema = z.strictObject({
  title: z.string().trim().min(1).max(250, 'Please use maximum 250 characters').optional(),
  description: z.string().trim().max(2000).optional(),
  awb: z.string().trim().min(1, 'AWB is required').max(120).optional(),
  tableNumber: tableNumberSchema.optional(),
  status: z.enum(INCIDENT_STATUSES).optional(),
});
export const incidentListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(200).optional(),
  cameraId: idCoerced.optional(),
  status: z.enum(INCIDENT_STATUSES).optional(),
});
export const incidentListSchema = z.object({ contents: z.array(incidentSchema), totalCount: z.number().int() });

/** GET /api/incident-reports/table-camera/?table=: the camera that watches a packing table. */
export const tableCameraQuerySchema = z.strictObject({ table: tableNumberSchema });
export const tableCameraSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  site: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type TableCamera = z.infer<typeof tableCameraSchema>;

/** SPEC 9: an evidence pack link lives this many days unless asked otherwise (1 to 30). */
export const EVIDENCE_LINK_DAYS = 7;
export const evidencePackInputSchema = z.strictObject({
  days: z.number().int().min(1, 'A link lives at least 1 day').max(30, 'A link lives at most 30 days').default(EVIDENCE_LINK_DAYS),
});
export const evidenceFileSchema = z.object({
  name: z.enum(['summary.pdf', 'clip.mp4']),
  label: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
});
export const evidencePackSchema = z.object({
  /** The shareable page of the pack (relative to the tenant's address). */
  url: z.string(),
  expiresAt: z.string(),
  files: z.array(evidenceFileSchema),
});
export type EvidencePack = z.infer<typeof evidencePackSchema>;
/** What anyone holding the link sees: the incident's facts and the files with their hashes. */
export const evidencePublicSchema = z.object({
  title: z.string(),
  awb: z.string(),
  tableNumber: z.string(),
  cameraLabel: z.string(),
  eventAt: z.string(),
  durationSec: z.number().int(),
  expiresAt: z.string(),
  files: z.array(evidenceFileSchema),
});
export type EvidencePublic = z.infer<typeof evidencePublicSchema>;
export const evidenceTokenParamSchema = z.object({
  token: z
    .string()
    .max(600)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'This link is not valid'),
});
export const evidenceFileParamSchema = evidenceTokenParamSchema.extend({ name: z.enum(['summary.pdf', 'clip.mp4']) });

/** GET /api/video-tools/: the ffmpeg and ffprobe the server runs ("7.1.1 (system)"), and what to install when one is missing. */
export const videoToolsSchema = z.object({
  ffmpeg: z.string().nullable(),
  ffprobe: z.string().nullable(),
  message: z.string().nullable(),
});
export type VideoToolsInfo = z.infer<typeof videoToolsSchema>;
