import { sql } from 'kysely';

/**
 * SQL the analysis module lends to others' queries over its tables (the site summaries' "cameras with video loss"):
 * whether the camera `d` (a devices row alias) has lost its video by the analysis, i.e. it records nothing for
 * longer than the video-loss time and the episode is not over.
 */
export const cameraVideoLost = (deviceAlias = 'd') =>
  sql<boolean>`exists (select 1 from analysis_cameras ac
    where ac.tenant_id = ${sql.ref(`${deviceAlias}.tenant_id`)} and ac.device_id = ${sql.ref(`${deviceAlias}.id`)}
      and ac.video_lost_since is not null)`;
