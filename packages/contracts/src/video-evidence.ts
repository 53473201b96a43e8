import { z } from 'zod';
import { idCoerced } from './common.ts';

/**
 * Video evidence on tickets: every device alarm's ticket gets the clips of the cameras mapped to the device or its
 * site over the recording window around the alarm (SPEC 9: 300 s either side); an AI audit ticket gets a short clip
 * around its finding. The footage stays beyond normal retention while the ticket is open.
 */
export const EVIDENCE_CONSTANTS = {
  /** SPEC 9: recording window either side of an alarm, in seconds (the default of VIDEO_EVIDENCE_WINDOW_SEC). */
  alarmWindowSeconds: 300,
  /** Seconds either side of an analysis finding for the AI audit ticket's clip. */
  analysisWindowSeconds: 15,
  /** Clips kept per ticket at most (a recurring alarm adds to its open ticket). */
  perTicket: 50,
} as const;

export const EVIDENCE_SOURCES = ['alarm', 'analysis'] as const;
export const EVIDENCE_STATUSES = ['pending', 'ready', 'failed'] as const;

export const videoEvidenceSchema = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  ticketNo: z.string(),
  cameraId: z.number().int(),
  cameraLabel: z.string(),
  source: z.enum(EVIDENCE_SOURCES),
  /** The alarm's (or the finding's) time. */
  eventAt: z.string(),
  from: z.string(),
  to: z.string(),
  /** pending: the window is not over or not cut yet; failed: no footage was recorded over it. */
  status: z.enum(EVIDENCE_STATUSES),
  bytes: z.number().nullable(),
  /** Kept beyond normal retention (the ticket is open). */
  pinned: z.boolean(),
  /** The MP4 once ready. */
  clipPath: z.string().nullable(),
});
export type VideoEvidence = z.infer<typeof videoEvidenceSchema>;

export const videoEvidenceQuerySchema = z.object({ ticketId: idCoerced });
export const videoEvidenceListSchema = z.object({ contents: z.array(videoEvidenceSchema) });
export type VideoEvidenceList = z.infer<typeof videoEvidenceListSchema>;
export const videoEvidenceIdParamSchema = z.object({ id: idCoerced });

/** The cameras to open at an alarm (or a ticket, or a notification) of a device: mapped to it or its site. */
export const eventCamerasQuerySchema = z.object({ deviceId: idCoerced });
export const eventCamerasSchema = z.object({ contents: z.array(z.object({ id: z.number().int(), label: z.string() })) });
export type EventCameras = z.infer<typeof eventCamerasSchema>;

/** The camera view at an event: live view and the recording around `at` (one click from alarms, tickets, notifications). */
export const cameraAtPath = (cameraId: number, at: string | Date) =>
  `/cctv/view/${cameraId}?at=${encodeURIComponent(typeof at === 'string' ? at : at.toISOString())}`;
