import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Video settings from the environment (read once per app build so tests can set them):
 * - VIDEO_STREAM_NETWORKS: which addresses a camera URL may reach. `private` (default) allows public and private
 *   LAN ranges (10/8, 172.16/12, 192.168/16, fc00::/7) where cameras live, and refuses loopback, link-local,
 *   cloud metadata, unspecified and multicast addresses; `public` refuses private ranges too (a hosted service);
 *   `any` allows everything (a lab, or the RTSP test that serves a stream on loopback). Simulated cameras have no URL.
 * - VIDEO_RETENTION_DAYS: age limit of footage on the built-in storage (cameras without a storage).
 * - VIDEO_SIM_SIZE: frame size of the simulated cameras' clip (default 1280x720).
 * - VIDEO_RECORDER: false to build the API without starting ffmpeg (the recorder then runs in a ROLE=recorder process).
 * - VIDEO_EVIDENCE_WINDOW_SEC: the recording window either side of an alarm whose clips go on its ticket (SPEC 9:
 *   300 s by default, configurable; 10 to 1800).
 * - DEMO_CAMERAS: false to seed no simulated demo cameras; DEMO_CAMERA_COUNT (default 6).
 */
const schema = z.object({
  VIDEO_STREAM_NETWORKS: z.enum(['public', 'private', 'any']).default('private'),
  VIDEO_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
  VIDEO_SIM_SIZE: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/)
    .default('1280x720'),
  VIDEO_RECORDER: bool.default(true),
  VIDEO_EVIDENCE_WINDOW_SEC: z.coerce.number().int().min(10).max(1800).default(300),
  DEMO_CAMERAS: bool.default(true),
  DEMO_CAMERA_COUNT: z.coerce.number().int().min(0).max(200).default(6),
});

export type VideoSettings = z.infer<typeof schema>;
export const loadVideoSettings = (env: NodeJS.ProcessEnv = process.env): VideoSettings => schema.parse(env);
