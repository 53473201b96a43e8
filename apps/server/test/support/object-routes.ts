import { EVENT_TYPES } from '@sitewatch/contracts';
import { createTestResult } from '../../src/modules/analysis/fixtures.ts';
import { ticketPayload, userIdOf } from '../../src/modules/notifications/fixtures.ts';
import { videoObjectRoutes as video } from '../../src/modules/video/fixtures.ts';
import { fieldWorkObjectRoutes as fieldWork } from '../attendance-fixtures.ts';
import { calendarObjectRoutes as calendar } from '../calendar-fixtures.ts';
import { commandsObjectRoutes as commands } from '../commands-fixtures.ts';
import { dashboardsObjectRoutes as dashboards } from '../dashboards-fixtures.ts';
import { deviceApiObjectRoutes as deviceApi } from '../device-api-fixtures.ts';
import { deviceOpsObjectRoutes as deviceOps } from '../device-ops-fixtures.ts';
import { directoriesObjectRoutes as directories } from '../directories-fixtures.ts';
import { formsObjectRoutes as forms } from '../forms-fixtures.ts';
import { helpdeskObjectRoutes as helpdesk } from '../helpdesk-fixtures.ts';
import { inventoryObjectRoutes as inventory } from '../inventory-fixtures.ts';
import { peopleObjectRoutes as people } from '../people-fixtures.ts';
import { reportsObjectRoutes as reports } from '../reports-fixtures.ts';
import { sitesObjectRoutes as sites } from '../sites-fixtures.ts';
import { snmpObjectRoutes as snmp } from '../snmp-fixtures.ts';
import { telemetryObjectRoutes as telemetry } from '../telemetry-fixtures.ts';
import { vendorsObjectRoutes as vendors } from '../vendors-fixtures.ts';
import { evidenceObjectRoutes as videoEvidence } from '../video-evidence-fixtures.ts';
import type { TestApp } from './harness.ts';

/**
 * For every route with a path parameter: how to make an object of tenant A that the route names, and a valid
 * body for it. The route-walking test calls each route with those values as tenant B and expects 403 or 404.
 */
export type ObjectFixture = (t: TestApp) => Promise<{ params: Record<string, string | number>; payload?: unknown }>;

export const OBJECT_ROUTES: Record<string, ObjectFixture> = {
  // sites, devices and users (issue 3)
  ...sites,
  // telemetry and alarms (issue 4)
  ...telemetry,
  // helpdesk (issue 5)
  ...helpdesk,
  // dynamic forms (issue 13)
  ...forms,
  // user administration (issue 15)
  ...people,
  // field staff directories and clusters (issue 15)
  ...directories,
  // inventory of spares (issue 16)
  ...inventory,
  // vendors directory (issue 15)
  ...vendors,
  // SNMP traps and trap forwarding (issue 17)
  ...snmp,
  // attendance and equipment (issue 16)
  ...fieldWork,
  // calendar and maintenance windows (issue 16)
  ...calendar,
  // purchase requests and report schedules (issue 18)
  ...reports,
  // dashboards, folders, components, versions and analytics links
  ...dashboards,
  // video evidence on tickets, region motion settings (issue 18)
  ...videoEvidence,
  // device operations: access control, routers, RTUs, diagnostics (issue 17)
  ...deviceOps,
  // device commands, server-side RPC (issue 17)
  ...commands,
  // ThingsBoard device API: shared attributes (issue 45)
  ...deviceApi,
  // video (issue 7)
  'GET /api/cameras/:camId/': video.camera,
  'PUT /api/cameras/:camId/configs/': video.configs,
  'DELETE /api/cameras/:camId/configs/': video.camera,
  'GET /api/cameras/:camId/live-view/': video.camera,
  'DELETE /api/cameras/:camId/live-view/': video.camera,
  'GET /api/cameras/:camId/live.m3u8': video.camera,
  'GET /api/cameras/:camId/live/ws': video.camera,
  'GET /api/cameras/:camId/playback.m3u8': video.camera,
  'GET /api/cameras/:camId/timeline/': video.camera,
  'GET /api/cameras/:camId/media/:run/:file': video.media,
  'GET /api/cameras/:camId/snapshot/': video.camera,
  'GET /api/cameras/:camId/snapshot/image/': video.camera,
  'GET /api/storages/:id/': video.storage,
  'PUT /api/storages/:id/': video.storage,
  'DELETE /api/storages/:id/': video.storage,
  'GET /api/camera-tours/:id/': video.tour,
  'PUT /api/camera-tours/:id/': video.tour,
  'DELETE /api/camera-tours/:id/': video.tour,
  'GET /api/incident-reports/:id/': video.incident,
  'PUT /api/incident-reports/:id/': video.incident,
  'DELETE /api/incident-reports/:id/': video.incident,
  'GET /api/incident-reports/:id/clip/': video.incident,
  'POST /api/incident-reports/:id/pack/': async (t) => ({ ...(await video.incident(t)), payload: {} }),
  'GET /api/evidence/:token/': video.evidence,
  'GET /api/evidence/:token/:name': video.evidence,
  'GET /api/video-clips/:jobId/': video.clipJob,
  'PUT /api/video-clips/:jobId/': video.clipJob,
  'DELETE /api/video-clips/:jobId/': video.clipJob,
  'GET /api/video-clips/:jobId/:tid/file/': video.clipJob,
  // camera health analysis (issue 18)
  'GET /api/analysis/results/:id/frame/': async (t) => ({ params: { id: await createTestResult(t) } }),
  'PUT /api/analysis/results/:id/verdict/': async (t) => ({
    params: { id: await createTestResult(t) },
    payload: { verdict: 'TRUE_POSITIVE' },
  }),
  'POST /api/analysis/cameras/:camId/run/': video.camera,
  'GET /api/analysis/cameras/:camId/reference/': video.camera,
  'DELETE /api/analysis/cameras/:camId/reference/': video.camera,
  'DELETE /api/auth/sessions/:id/': async (t) => {
    const owner = await t.login('customer');
    const { contents } = (await owner.get('/api/auth/sessions/')).json();
    return { params: { id: contents[0].id } };
  },
  'DELETE /notification/system-alerts/:id/': async (t) => {
    const admin = await t.login('customeradmin');
    const alert = (await admin.post('/notification/system-alerts/', { message: 'tenant A only' })).json();
    return { params: { id: alert.id } };
  },
  'PUT /notification/inbox/:id/': async (t) => {
    const assignee = await userIdOf(t.db, t.tenantA, 'customeradmin');
    t.handles.events.emit({
      type: EVENT_TYPES.ticketAssigned,
      tenantId: t.tenantA,
      payload: ticketPayload({ assignedTo: assignee }),
    });
    await t.handles.notifications.settled();
    const owner = await t.login('customeradmin');
    const item = (await owner.get('/notification/inbox/')).json().contents[0];
    return { params: { id: item.id }, payload: { isRead: true, uuid: item.uuid } };
  },
  'PUT /api/batch-playback-download/:jobId/': async (t) => {
    const { jobId, tid } = await finishedExport(t);
    return { params: { jobId }, payload: { tid } };
  },
  'DELETE /api/batch-playback-download/:jobId/': async (t) => ({ params: { jobId: (await finishedExport(t)).jobId } }),
  'GET /api/batch-playback-download/:jobId/files/:tid/': async (t) => ({ params: await finishedExport(t) }),
};

/** A finished export of tenant A's admin: its job id and the tid of its file. */
async function finishedExport(t: TestApp) {
  const admin = await t.login('customeradmin');
  const job = (await admin.post('/api/exports/', { kind: 'users' })).json();
  await t.app.jobs.drain();
  return { jobId: job.jobId as number, tid: job.tasks[0].tid as string };
}
