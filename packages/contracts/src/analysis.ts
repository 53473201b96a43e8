import { z } from 'zod';
import { INT4_MAX, idCoerced } from './common.ts';

/**
 * Camera health analysis (SPEC 2.2 /image-analysis, /result-verification, /result-analysis): analysers run on the
 * recorded footage of every camera; each finding is a result that a person verifies as a true or false positive.
 */
export const ANALYSERS = ['videoLoss', 'black', 'frozen', 'blur', 'sceneChange', 'regionMotion'] as const;
export type Analyser = (typeof ANALYSERS)[number];
export const analyserSchema = z.enum(ANALYSERS);

export const ANALYSER_LABELS: Record<Analyser, string> = {
  videoLoss: 'Video loss',
  black: 'Black frame',
  frozen: 'Frozen image',
  blur: 'Blur / defocus',
  sceneChange: 'Scene changed (moved or covered)',
  regionMotion: 'Motion in region',
};

export const VERDICTS = ['TRUE_POSITIVE', 'FALSE_POSITIVE'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const verdictSchema = z.enum(VERDICTS);
export const VERDICT_LABELS: Record<Verdict, string> = { TRUE_POSITIVE: 'True positive', FALSE_POSITIVE: 'False positive' };

/** Reasons offered with a false positive (free text is allowed too). */
export const FALSE_POSITIVE_REASONS = [
  'Lighting change',
  'Night / IR switch',
  'Weather',
  'Planned work',
  'Camera restarted',
  'Other',
] as const;

export const ANALYSIS_CONSTANTS = {
  /** Footage analysed per camera and sweep, at most (seconds). */
  windowSeconds: 60,
  /** Results whose score reaches this raise an AI audit ticket (AIAlarmTicket). */
  ticketScore: 0.6,
  /** A camera with no recorded segment for this long has video loss. */
  videoLossSeconds: 120,
  /** Seconds either side of a result's time that its clip covers (SPEC 9 recording window is wider; a review needs less). */
  clipSeconds: 10,
  /** False-positive rate (with at least `suggestionMinimum` verdicts) above which a camera gets a suggestion. */
  suggestionRate: 0.5,
  suggestionMinimum: 5,
} as const;

export const analysisResultSchema = z.object({
  id: z.number().int(),
  cameraId: z.number().int(),
  cameraLabel: z.string(),
  siteId: z.number().int().nullable(),
  analyser: analyserSchema,
  /** When the finding starts in the footage. */
  at: z.string(),
  endAt: z.string().nullable(),
  /** 0 to 1: how sure the analyser is (share of the window, distance from the reference, ...). */
  score: z.number(),
  detail: z.string(),
  hasFrame: z.boolean(),
  verdict: verdictSchema.nullable(),
  reason: z.string().nullable(),
  verifiedBy: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  ticketId: z.number().int().nullable(),
  ticketNo: z.string().nullable(),
});
export type AnalysisResult = z.infer<typeof analysisResultSchema>;

const isoInstant = z.iso.datetime({ offset: true });

export const analysisResultQuerySchema = z.object({
  analyser: analyserSchema.optional(),
  cameraId: idCoerced.optional(),
  /** The results behind an AI audit ticket. */
  ticketId: idCoerced.optional(),
  /** PENDING: not verified yet. */
  verdict: z.enum(['PENDING', ...VERDICTS]).optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  offset: z.coerce.number().int().min(0).max(INT4_MAX).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type AnalysisResultQuery = z.infer<typeof analysisResultQuerySchema>;

export const analysisResultPageSchema = z.object({ count: z.number().int(), results: z.array(analysisResultSchema) });
export type AnalysisResultPage = z.infer<typeof analysisResultPageSchema>;

/** The verification queue: the oldest unverified result after `after` (the one just answered), with how many wait. */
export const analysisQueueQuerySchema = z.object({ after: idCoerced.optional() });
export const analysisQueueSchema = z.object({ next: analysisResultSchema.nullable(), waiting: z.number().int() });
export type AnalysisQueue = z.infer<typeof analysisQueueSchema>;

export const analysisVerdictSchema = z.object({
  verdict: verdictSchema,
  reason: z.string().trim().max(200, 'Reason must be at most 200 characters').optional(),
});
export type AnalysisVerdictBody = z.infer<typeof analysisVerdictSchema>;

export const analysisRunSchema = z.object({ queued: z.boolean() });

export const analysisSummaryQuerySchema = z.object({
  from: isoInstant.optional(),
  to: isoInstant.optional(),
});

export const analysisSummaryRowSchema = z.object({
  cameraId: z.number().int(),
  cameraLabel: z.string(),
  analyser: analyserSchema,
  total: z.number().int(),
  truePositives: z.number().int(),
  falsePositives: z.number().int(),
  pending: z.number().int(),
  /** False positives among the verified, or null when none is verified. */
  falsePositiveRate: z.number().nullable(),
  suggestion: z.string().nullable(),
});
export type AnalysisSummaryRow = z.infer<typeof analysisSummaryRowSchema>;
export const analysisSummarySchema = z.object({ rows: z.array(analysisSummaryRowSchema) });

export const cameraIdParamSchema = z.object({ camId: idCoerced });
export const analysisIdParamSchema = z.object({ id: idCoerced });

/** The suggestion shown for a camera whose analyser is often wrong. */
export function analysisSuggestion(analyser: Analyser, falsePositiveRate: number | null, verified: number): string | null {
  if (falsePositiveRate === null || verified < ANALYSIS_CONSTANTS.suggestionMinimum) return null;
  if (falsePositiveRate <= ANALYSIS_CONSTANTS.suggestionRate) return null;
  switch (analyser) {
    case 'sceneChange':
      return 'Often wrong: reset the reference frame, or mask the moving part of the scene.';
    case 'black':
    case 'frozen':
      return 'Often wrong: check the camera schedule (night, IR switch) or raise the threshold.';
    case 'blur':
      return 'Often wrong: raise the blur threshold for this camera or clean the lens and reset.';
    case 'videoLoss':
      return 'Often wrong: check the recording schedule and the storage of this camera.';
    case 'regionMotion':
      return 'Often wrong: shrink the region to the area that matters, or raise its motion threshold.';
  }
}

/* ------------------------------------------------------------------ region motion (per camera settings) */

const hhmm = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'Use a time as HH:MM');

/** A rectangle on the picture as fractions of its width and height (0 to 1, from the top left corner). */
export const analysisRegionSchema = z
  .object({
    x: z.number().min(0).max(1),
    y: z.number().min(0).max(1),
    w: z.number().min(0.02, 'The region is too small').max(1),
    h: z.number().min(0.02, 'The region is too small').max(1),
  })
  .refine((r) => r.x + r.w <= 1.0001 && r.y + r.h <= 1.0001, { message: 'The region must lie inside the picture' });
export type AnalysisRegion = z.infer<typeof analysisRegionSchema>;

/**
 * "Motion in a region during set hours": the region watched (null: the analyser is off for the camera), the hours
 * (from–to in the time zone; from after to spans midnight) and how much the region must change to count as motion.
 */
export const analysisCameraSettingsBodySchema = z.object({
  region: analysisRegionSchema.nullable(),
  motionFrom: hhmm,
  motionTo: hhmm,
  timeZone: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'Unknown time zone'),
  /** The mean change of the region between two keyframes, in percent, from which it counts as motion. */
  threshold: z.number().min(0.1, 'Threshold must be at least 0.1 %').max(50, 'Threshold must be at most 50 %').default(1),
});
export type AnalysisCameraSettingsBody = z.infer<typeof analysisCameraSettingsBodySchema>;

export const analysisCameraSettingsSchema = z.object({
  cameraId: z.number().int(),
  region: analysisRegionSchema.nullable(),
  motionFrom: z.string(),
  motionTo: z.string(),
  timeZone: z.string(),
  threshold: z.number(),
  hasReference: z.boolean(),
});
export type AnalysisCameraSettings = z.infer<typeof analysisCameraSettingsSchema>;

/** Minutes after midnight of an HH:MM time. */
const minutesOf = (hhmmText: string) => {
  const [h, m] = hhmmText.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** Whether a local time (minutes after midnight) falls in the hours from–to (from after to: over midnight; equal: all day). */
export function withinHours(minutes: number, from: string, to: string): boolean {
  const a = minutesOf(from);
  const b = minutesOf(to);
  if (a === b) return true;
  return a < b ? minutes >= a && minutes < b : minutes >= a || minutes < b;
}

/** Minutes after midnight of an instant in a time zone. */
export function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}
