import type { TestApp } from '../../../test/support/harness.ts';
import { createEvidencePacks } from './evidence.ts';

/** Test data of the video domain, through the product's own API (used by the route-walking security test). */

export async function createTestCamera(t: TestApp, label = 'Fixture Cam') {
  const admin = await t.login('customeradmin');
  const asset = (await admin.post('/iotapp/assets/', { name: `Site ${label} ${Date.now()}`, address: ['India', 'Pune'] })).json();
  const router = (await admin.post('/iotapp/devices/', { label: `Router ${label}`, type: 'ROUTER', assetId: asset.id })).json();
  const dvr = (await admin.post('/iotapp/devices/', { label: `DVR ${label}`, type: 'DVR', assetId: asset.id, parentId: router.id })).json();
  const camera = (await admin.post('/iotapp/devices/', { label, type: 'CAMERA', assetId: asset.id, parentId: dvr.id })).json();
  // recording off: configured without starting ffmpeg
  await admin.put(`/api/cameras/${camera.id}/configs/`, { simulated: true, recordingEnabled: false });
  return { admin, camId: camera.id as number };
}

const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();
const range = () => ({ from: hourAgo(), to: new Date(Date.now() - 3000_000).toISOString() });

export const videoObjectRoutes = {
  camera: async (t: TestApp) => ({ params: { camId: (await createTestCamera(t)).camId } }),
  configs: async (t: TestApp) => ({
    params: { camId: (await createTestCamera(t)).camId },
    payload: { simulated: true, recordingEnabled: false },
  }),
  media: async (t: TestApp) => ({ params: { camId: (await createTestCamera(t)).camId, run: 'abcdef123', file: 'init.mp4' } }),
  storage: async (t: TestApp) => {
    const admin = await t.login('customeradmin');
    const s = (await admin.post('/api/storages/', { name: `Fixture ${Date.now()}`, path: `fx${Date.now()}` })).json();
    return { params: { id: s.id }, payload: { name: 'Renamed', path: s.path } };
  },
  tour: async (t: TestApp) => {
    const { admin, camId } = await createTestCamera(t);
    const tour = (await admin.post('/api/camera-tours/', { name: 'Fixture tour', stops: [{ cameraId: camId, dwellSec: 10 }] })).json();
    return { params: { id: tour.id }, payload: { name: 'x', stops: [{ cameraId: camId, dwellSec: 10 }] } };
  },
  incident: async (t: TestApp) => {
    const { admin, camId } = await createTestCamera(t);
    const incident = (
      await admin.post('/api/incident-reports/', { title: 'Fixture', awb: 'A1', tableNumber: 'T1', cameraId: camId, eventAt: hourAgo() })
    ).json();
    return { params: { id: incident.id }, payload: { title: 'x' } };
  },
  /** A valid evidence link of an incident of tenant A (signed with the install's secret). */
  evidence: async (t: TestApp) => {
    const { admin, camId } = await createTestCamera(t);
    const incident = (
      await admin.post('/api/incident-reports/', { title: 'Fixture', awb: 'A1', tableNumber: 'T1', cameraId: camId, eventAt: hourAgo() })
    ).json();
    const secret = await t.db.selectFrom('app_secrets').select('value').where('name', '=', 'evidence').executeTakeFirstOrThrow();
    const token = createEvidencePacks(Buffer.from(secret.value, 'base64url')).link(t.tenantA, incident.id, 1);
    return { params: { token, name: 'summary.pdf' } };
  },
  clipJob: async (t: TestApp) => {
    const { admin, camId } = await createTestCamera(t);
    const created = (await admin.post('/api/batch-playback-download/', { cameraIds: [camId], windows: [range()] })).json();
    const job = (await admin.get(`/api/video-clips/${created.jobId}/`)).json();
    return { params: { jobId: created.jobId, tid: job.tasks[0].tid }, payload: { tid: job.tasks[0].tid } };
  },
};
