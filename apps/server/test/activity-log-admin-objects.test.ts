import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestResult } from '../src/modules/analysis/fixtures.ts';
import { createTestCamera } from '../src/modules/video/fixtures.ts';
import { masked } from '../src/platform/audit.ts';
import { activityEntries, entriesOf } from './activity-log-fixtures.ts';
import { allFieldsTemplate, createTemplate, submit } from './forms-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let other: TestClient;
beforeAll(async () => {
  // stream URLs of the site network 10.0.0.0/8 are saved, never dialled (recording stays off for them)
  t = await createTestApp({ OUTBOUND_NETWORKS: 'public 10.0.0.0/8' });
  admin = await t.login('customeradmin');
  other = await t.login('customeradmin', HOST_B);
});
afterAll(() => t?.close());

const entries = (query: string, client = admin) => activityEntries(client, query);
const of = (type: string, id: number) => entriesOf(admin, type, id);
const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

const OBJECT_TYPES = [
  'camera-config',
  'video-storage',
  'camera-tour',
  'incident-report',
  'analysis-result',
  'analysis-reference',
  'helpdesk-settings',
  'issue-type',
  'escalation-policy',
  'form-template',
  'form-response',
];

describe('masked()', () => {
  it('masks credentials in URLs and parameters, in nested objects and arrays', () => {
    const out = masked({
      streamUrl: 'rtsp://admin:S3cret@10.0.0.5/live?pwd=S3cret&channel=1',
      stops: [{ url: 'http://u:S3cret@cam/x' }, 'https://cam/y?token=S3cret'],
      apiKey: 'S3cret',
    });
    expect(JSON.stringify(out)).not.toContain('S3cret');
    expect(out.streamUrl).toBe('rtsp://***@10.0.0.5/live?pwd=***&channel=1');
  });
});

describe('activity log of video objects', () => {
  it('records a camera configured, changed and removed, never with the stream credentials', async () => {
    const { camId } = await createTestCamera(t, 'Audited Cam');
    const configs = (await of('camera-config', camId)).length;
    const url = 'rtsp://admin:S3cret@10.0.0.5:554/live?password=S3cret';
    const changed = await admin.put(`/api/cameras/${camId}/configs/`, { streamUrl: url, recordingEnabled: false, segmentSec: 4 });
    expect(changed.statusCode, changed.body).toBe(200);
    // only the password changes: recorded as a change, without either password
    const rotated = url.replace('S3cret@', 'N3wPass@');
    expect(
      (await admin.put(`/api/cameras/${camId}/configs/`, { streamUrl: rotated, recordingEnabled: false, segmentSec: 4 })).statusCode,
    ).toBe(200);
    expect((await admin.delete(`/api/cameras/${camId}/configs/`)).statusCode).toBe(200);
    const log = (await of('camera-config', camId)).slice(configs);
    expect(log.map((e) => e.action)).toEqual(['camera-config.update', 'camera-config.update', 'camera-config.delete']);
    for (const e of log) expect(e).toMatchObject({ actorId: admin.user?.id, objectType: 'camera-config', ip: expect.any(String) });
    expect(log[0]?.before).toMatchObject({ simulated: true, streamUrl: null });
    expect(log[0]?.after).toMatchObject({ simulated: false, streamUrl: 'rtsp://***@10.0.0.5:554/live?password=***', segmentSec: 4 });
    expect(Object.keys(log[1]?.after ?? {})).toEqual(['streamUrl']);
    expect(log[2]?.before).toMatchObject({ streamUrl: 'rtsp://***@10.0.0.5:554/live?password=***', recordingEnabled: false });
    const text = JSON.stringify(log);
    expect(text).not.toContain('S3cret');
    expect(text).not.toContain('N3wPass');
    const audit = await sql<{ detail: unknown }>`select detail from audit_log where action like 'camera-config.%'`.execute(t.db);
    expect(JSON.stringify(audit.rows)).not.toMatch(/S3cret|N3wPass/);

    // configuring a camera that had no config is a create
    const { camId: fresh } = await createTestCamera(t, 'Fresh Cam');
    const created = (await of('camera-config', fresh)).map((e) => e.action);
    expect(created).toEqual(['camera-config.create']);
  });

  it('records storages, tours and incident reports created, changed and deleted', async () => {
    const name = `Audited storage ${Date.now()}`;
    const storage = await admin.post('/api/storages/', { name, path: `aud${Date.now()}`, retentionDays: 7 });
    expect(storage.statusCode, storage.body).toBe(200);
    const sid = storage.json().id as number;
    expect((await admin.put(`/api/storages/${sid}/`, { name, path: storage.json().path, retentionDays: 14 })).statusCode).toBe(200);
    expect((await admin.delete(`/api/storages/${sid}/`)).statusCode).toBe(200);
    const slog = await of('video-storage', sid);
    expect(slog.map((e) => e.action)).toEqual(['video-storage.create', 'video-storage.update', 'video-storage.delete']);
    expect(slog[0]?.after).toMatchObject({ name, retentionDays: 7 });
    expect(slog[1]).toMatchObject({ before: { retentionDays: 7 }, after: { retentionDays: 14 } });
    expect(slog[2]?.before).toMatchObject({ name, retentionDays: 14 });

    const { camId } = await createTestCamera(t, 'Tour Cam');
    const tour = await admin.post('/api/camera-tours/', { name: 'Audited tour', stops: [{ cameraId: camId, dwellSec: 10 }] });
    expect(tour.statusCode, tour.body).toBe(200);
    const tid = tour.json().id as number;
    const stops = [{ cameraId: camId, dwellSec: 20 }];
    expect((await admin.put(`/api/camera-tours/${tid}/`, { name: 'Audited tour', stops })).statusCode).toBe(200);
    expect((await admin.delete(`/api/camera-tours/${tid}/`)).statusCode).toBe(200);
    const tlog = await of('camera-tour', tid);
    expect(tlog.map((e) => e.action)).toEqual(['camera-tour.create', 'camera-tour.update', 'camera-tour.delete']);
    expect(tlog[0]?.after).toMatchObject({ name: 'Audited tour', stops: [{ cameraId: camId, dwellSec: 10 }] });
    expect(tlog[1]).toEqual(expect.objectContaining({ before: { stops: [{ cameraId: camId, dwellSec: 10 }] }, after: { stops } }));

    const incident = await admin.post('/api/incident-reports/', {
      title: 'Audited',
      awb: 'A1',
      tableNumber: 'T1',
      cameraId: camId,
      eventAt: hourAgo(),
    });
    expect(incident.statusCode, incident.body).toBe(200);
    const iid = incident.json().id as number;
    expect((await admin.put(`/api/incident-reports/${iid}/`, { title: 'Audited (edited)' })).statusCode).toBe(200);
    expect((await admin.delete(`/api/incident-reports/${iid}/`)).statusCode).toBe(200);
    const ilog = await of('incident-report', iid);
    expect(ilog.map((e) => e.action)).toEqual(['incident-report.create', 'incident-report.update', 'incident-report.delete']);
    expect(ilog[0]?.after).toMatchObject({ title: 'Audited', awb: 'A1', cameraId: camId });
    expect(ilog[1]).toMatchObject({ before: { title: 'Audited' }, after: { title: 'Audited (edited)' } });
    expect(ilog[2]?.before).toMatchObject({ title: 'Audited (edited)' });
  });

  it('records a verdict on an analysis result and a reset reference frame', async () => {
    const { camId } = await createTestCamera(t, 'Analysis Cam');
    const id = await createTestResult(t, camId);
    const verdict = await admin.put(`/api/analysis/results/${id}/verdict/`, { verdict: 'TRUE_POSITIVE', reason: 'Seen on site' });
    expect(verdict.statusCode, verdict.body).toBe(200);
    expect((await admin.put(`/api/analysis/results/${id}/verdict/`, { verdict: 'FALSE_POSITIVE' })).statusCode).toBe(409);
    const log = await of('analysis-result', id);
    expect(log.map((e) => e.action)).toEqual(['analysis-result.verdict']);
    expect(log[0]).toMatchObject({
      before: { verdict: null },
      after: { verdict: 'TRUE_POSITIVE', reason: 'Seen on site', cameraId: camId },
    });
    expect((await admin.delete(`/api/analysis/cameras/${camId}/reference/`)).statusCode).toBe(200);
    expect((await of('analysis-reference', camId)).map((e) => e.action)).toEqual(['analysis-reference.delete']);
  });
});

describe('activity log of helpdesk administration and forms', () => {
  it('records the helpdesk settings, issue types and escalation policies', async () => {
    const config = (await admin.get('/helpdesk/config/')).json();
    expect((await admin.put('/helpdesk/config/', { defaultDueHours: config.defaultDueHours + 1 })).statusCode).toBe(200);
    const settings = (await entries('?objectType=helpdesk-settings')).filter((e) => e.action === 'helpdesk-settings.update');
    expect(settings[0]).toMatchObject({
      before: { defaultDueHours: config.defaultDueHours },
      after: { defaultDueHours: config.defaultDueHours + 1 },
    });

    const created = await admin.post('/helpdesk/issue-types/', { name: 'Audited issue', subTypes: ['Mains'], slaHours: 4 });
    expect(created.statusCode, created.body).toBe(201);
    const issue = created.json();
    const body = { name: 'Audited issue', subTypes: ['Mains'], ticketTypes: issue.ticketTypes, slaHours: 8 };
    expect((await admin.put(`/helpdesk/issue-types/${issue.id}/`, body)).statusCode).toBe(200);
    expect((await admin.delete(`/helpdesk/issue-types/${issue.id}/`)).statusCode).toBe(204);
    const ilog = await of('issue-type', issue.id);
    expect(ilog.map((e) => e.action)).toEqual(['issue-type.create', 'issue-type.update', 'issue-type.delete']);
    expect(ilog[0]?.after).toMatchObject({ name: 'Audited issue', subTypes: ['Mains'], slaHours: 4 });
    expect(ilog[1]).toMatchObject({ before: { slaHours: 4 }, after: { slaHours: 8 } });
    expect(ilog[2]?.before).toMatchObject({ name: 'Audited issue', slaHours: 8 });

    const levels = [{ waitMinutes: 5, role: 'areahead' }];
    const policy = await admin.post('/helpdesk/escalation-policies/', { name: 'Audited policy', levels });
    expect(policy.statusCode, policy.body).toBe(201);
    const pid = policy.json().id as number;
    expect((await admin.put(`/helpdesk/escalation-policies/${pid}/`, { name: 'Audited policy', levels, active: false })).statusCode).toBe(
      200,
    );
    expect((await admin.delete(`/helpdesk/escalation-policies/${pid}/`)).statusCode).toBe(204);
    const plog = await of('escalation-policy', pid);
    expect(plog.map((e) => e.action)).toEqual(['escalation-policy.create', 'escalation-policy.update', 'escalation-policy.delete']);
    expect(plog[0]?.after).toMatchObject({
      name: 'Audited policy',
      levels: [expect.objectContaining({ waitMinutes: 5, role: 'areahead' })],
    });
    expect(plog[1]).toMatchObject({ before: { active: true }, after: { active: false } });
    expect(plog[2]?.before).toMatchObject({ name: 'Audited policy', active: false });
  });

  it('records a form template created, saved, restored and deleted, with its versions', async () => {
    const body = allFieldsTemplate();
    const template = await createTemplate(admin, body);
    const saved = await admin.put(`/ifmapp/dynamic-form-templates/${template.id}/`, { ...body, label: 'Relabelled', version: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await admin.post(`/ifmapp/dynamic-form-templates/${template.id}/versions/1/restore/`)).statusCode).toBe(200);
    const answered = await submit(admin, template.id, { title: 'Private answer', score: 4 });
    expect(answered.statusCode, answered.body).toBe(201);
    const response = await of('form-response', answered.json().id);
    expect(response.map((e) => e.action)).toEqual(['form-response.create']);
    expect(response[0]?.after).toEqual({ formTemplate: template.id, formName: body.name, version: 3, attachments: 0 });
    expect(JSON.stringify(response)).not.toContain('Private answer');
    expect((await admin.delete(`/ifmapp/dynamic-form-templates/${template.id}/`)).statusCode).toBe(204);
    const log = await of('form-template', template.id);
    expect(log.map((e) => e.action)).toEqual([
      'form-template.create',
      'form-template.update',
      'form-template.update',
      'form-template.delete',
    ]);
    const fields = Object.keys(body.metadata.schema.properties).length;
    expect(log[0]?.after).toMatchObject({ name: body.name, label: body.label, fieldCount: fields, version: 1 });
    expect(log[1]).toMatchObject({ before: { label: body.label, version: 1 }, after: { label: 'Relabelled', version: 2 } });
    expect(log[2]).toMatchObject({ before: { label: 'Relabelled', version: 2 }, after: { label: body.label, version: 3 } });
    expect(log[3]?.before).toMatchObject({ name: body.name, version: 3 });
  });
});

describe('entries and their changes', () => {
  it('leave no entry for a refused change', async () => {
    const name = `Refused storage ${Date.now()}`;
    expect((await admin.post('/api/storages/', { name, path: `ref${Date.now()}` })).statusCode).toBe(200);
    const before = (await entries('?action=video-storage.create&limit=200')).length;
    expect((await admin.post('/api/storages/', { name, path: `ref2${Date.now()}` })).statusCode).toBe(409);
    expect((await entries('?action=video-storage.create&limit=200')).length).toBe(before);
    const issues = (await entries('?action=issue-type.create&limit=200')).length;
    expect((await admin.post('/helpdesk/issue-types/', { name: 'Y', defaultPriority: 'NOPE' })).statusCode).toBe(400);
    expect((await entries('?action=issue-type.create&limit=200')).length).toBe(issues);
  });

  it('are rolled back with a change that fails after its entry was written', async () => {
    const issue = (await admin.post('/helpdesk/issue-types/', { name: 'Rolled back issue' })).json();
    // refused at commit, after the update and its entry were written in the transaction
    await sql`create function refuse_issue_type() returns trigger language plpgsql as $$
      begin if new.name = 'Refused at commit' then raise exception 'refused'; end if; return new; end $$`.execute(t.db);
    await sql`create constraint trigger refuse_issue_type after update on issue_types deferrable initially deferred
      for each row execute function refuse_issue_type()`.execute(t.db);
    try {
      const res = await admin.put(`/helpdesk/issue-types/${issue.id}/`, { name: 'Refused at commit' });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await sql`drop trigger refuse_issue_type on issue_types`.execute(t.db);
      await sql`drop function refuse_issue_type()`.execute(t.db);
    }
    expect((await admin.get(`/helpdesk/issue-types/${issue.id}/`)).json().name).toBe('Rolled back issue');
    expect((await of('issue-type', issue.id)).map((e) => e.action)).toEqual(['issue-type.create']);
  });

  it('a failing entry fails its change: the change and its entry are one outcome', async () => {
    const { camId } = await createTestCamera(t, 'Savepoint Cam');
    const tour = (await admin.post('/api/camera-tours/', { name: 'Savepoint tour', stops: [{ cameraId: camId, dwellSec: 10 }] })).json();
    await sql`create function refuse_tour_entry() returns trigger language plpgsql as $$
      begin if new.action = 'camera-tour.update' then raise exception 'entry refused'; end if; return new; end $$`.execute(t.db);
    await sql`create trigger refuse_tour_entry before insert on audit_log for each row execute function refuse_tour_entry()`.execute(t.db);
    try {
      const res = await admin.put(`/api/camera-tours/${tour.id}/`, {
        name: 'Savepoint tour renamed',
        stops: [{ cameraId: camId, dwellSec: 10 }],
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_tour_entry on audit_log`.execute(t.db);
      await sql`drop function refuse_tour_entry()`.execute(t.db);
    }
    // nothing changed, and the log holds only what happened
    expect((await admin.get(`/api/camera-tours/${tour.id}/`)).json().name).toBe('Savepoint tour');
    expect((await of('camera-tour', tour.id)).map((e) => e.action)).toEqual(['camera-tour.create']);
  });

  it("are never shown to another tenant's administrator", async () => {
    for (const type of OBJECT_TYPES) expect(await entries(`?objectType=${type}`, other), type).toHaveLength(0);
    for (const type of OBJECT_TYPES) expect((await entries(`?objectType=${type}`)).length, type).toBeGreaterThan(0);
  });
});
