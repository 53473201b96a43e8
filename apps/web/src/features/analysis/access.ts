import type { User } from '@sitewatch/contracts/auth';
import { can, canAdministerVideo, canChangeTickets } from '../../lib/access.ts';

/** Sees camera health results: the right to view cameras, or a video administrator (the server's rule). */
export const seesAnalysis = (user: User | null) => canAdministerVideo(user) || can(user, 'view_camera');

/** Gives verdicts, runs an analysis, resets a reference: as above, and may change tickets (a verdict may resolve one). */
export const canVerifyAnalysis = (user: User | null) => seesAnalysis(user) && (canAdministerVideo(user) || canChangeTickets(user));
