import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TENANTS, seedFoundation } from '../src/demo/foundation.ts';
import { openPostgres } from '../src/platform/db.ts';
import { adminQuery, databaseUrl } from './support/pg-admin.ts';

/**
 * The README's split deployment on one host: `ROLE=api`, `ROLE=worker`, `ROLE=ingest` and `ROLE=recorder` as four
 * processes on one PostgreSQL database and one data folder. A device's telemetry reaches the API through the ingest
 * process's broker, an export runs on the worker, a camera records in the recorder, and a browser's socket on the
 * API is told of a change made in another process. None of them logs an error on a clean start.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const CAPTCHA = 'SPLIT';
const ROLES = ['api', 'worker', 'ingest', 'recorder'] as const;
type Role = (typeof ROLES)[number];

interface Proc {
  role: Role;
  child: ChildProcess;
  lines: string[];
}

let dbName: string;
let dataDir: string;
const procs = new Map<Role, Proc>();
const ports = { api: 0, worker: 0, ingest: 0, mqtt: 0, snmp: 0 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  return typeof address === 'object' && address ? address.port : 0;
}
async function until<T>(what: string, fn: () => Promise<T | undefined | false | null>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

function start(role: Role, port: number): Proc {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    ROLE: role,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl(adminUrl as string, dbName),
    DATA_DIR: dataDir,
    DEMO: 'false',
    DEMO_SIMULATOR: 'false',
    MQTT_PORT: String(ports.mqtt),
    SNMP_TRAP_PORT: String(ports.snmp),
    CAPTCHA_FIXED_ANSWER: CAPTCHA,
    WEB_DIST: '/nonexistent',
    VIDEO_SIM_SIZE: '320x240',
  };
  const child = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: new URL('../../../', import.meta.url).pathname,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream as NodeJS.ReadableStream }).on('line', (line) => lines.push(line));
  }
  return { role, child, lines };
}

/** A browser's session on the API process: cookies, the CSRF header, the access token. */
class Session {
  jar = new Map<string, string>();
  access = '';
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }
  private keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [k, v] = (c.split(';')[0] ?? '').split('=');
      if (k) this.jar.set(k, v ?? '');
    }
  }
  cookie = () => [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  async call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        cookie: this.cookie(),
        'x-csrftoken': this.jar.get('csrftoken') ?? '',
        ...(this.access ? { authorization: `Bearer ${this.access}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.keep(res);
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  }
  async signIn(username: string) {
    this.keep(await fetch(`${this.base}/api/auth/csrf/`));
    const challenge = await fetch(`${this.base}/api/auth/captcha/`);
    this.keep(challenge);
    const { captchaId } = (await challenge.json()) as { captchaId: string };
    const res = await this.call('POST', '/api/auth/login/', { username, password: 'Demo@2026!', captchaId, captcha: CAPTCHA });
    expect(res.status).toBe(200);
    this.access = res.json.access;
  }
}

describe.skipIf(!adminUrl)('split deployment: api + worker + ingest + recorder on one PostgreSQL', () => {
  let admin: Session;

  beforeAll(async () => {
    dbName = `sw_split_${randomBytes(5).toString('hex')}`;
    const template = inject('databaseTemplate');
    await adminQuery(
      adminUrl as string,
      template?.kind === 'pg' ? `create database ${dbName} template ${template.name}` : `create database ${dbName}`,
    );
    dataDir = mkdtempSync(join(tmpdir(), 'sw-split-'));
    ports.api = await freePort();
    ports.worker = await freePort();
    ports.ingest = await freePort();
    ports.mqtt = await freePort();
    ports.snmp = await freePort();
    // the first process migrates (the others wait on the migration lock); then the tenant the test works in
    procs.set('api', start('api', ports.api));
    await until('the API', async () => (await fetch(`http://127.0.0.1:${ports.api}/ready`)).ok, 60_000);
    const handle = openPostgres(databaseUrl(adminUrl as string, dbName), 2);
    await seedFoundation(handle.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
    await handle.close();
    procs.set('worker', start('worker', ports.worker));
    procs.set('ingest', start('ingest', ports.ingest));
    procs.set('recorder', start('recorder', 0));
    await until('the worker', async () => (await fetch(`http://127.0.0.1:${ports.worker}/ready`)).ok, 60_000);
    await until('the ingest process', async () => (await fetch(`http://127.0.0.1:${ports.ingest}/ready`)).ok, 60_000);
    admin = new Session(`http://127.0.0.1:${ports.api}`);
    await admin.signIn('customeradmin');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      [...procs.values()].map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.child.exitCode !== null) return resolve();
            p.child.once('exit', () => resolve());
            p.child.kill('SIGTERM');
            setTimeout(() => p.child.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
    if (adminUrl && dbName) await adminQuery(adminUrl, `drop database if exists ${dbName} with (force)`);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('stores telemetry through the ingest process and pushes it to a socket on the API process', async () => {
    const site = await admin.call('POST', '/iotapp/assets/', { name: 'Split Site', address: ['India', 'Pune'] });
    expect(site.status).toBe(201);
    const device = await admin.call('POST', '/iotapp/devices/', { label: 'MTR-01', type: 'METER', assetId: site.json.id });
    expect(device.status).toBe(201);
    const handle = openPostgres(databaseUrl(adminUrl as string, dbName), 1);
    const { access_token: token } = await handle.db
      .selectFrom('devices')
      .select('access_token')
      .where('id', '=', device.json.id)
      .executeTakeFirstOrThrow();
    await handle.close();

    const ws = new WebSocket(`ws://127.0.0.1:${ports.api}/ws`, { headers: { cookie: admin.cookie() } });
    const received: Array<{ type: string; data: { deviceId?: number } }> = [];
    ws.on('message', (raw) => received.push(JSON.parse(String(raw))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await until('the hello', async () => received.some((m) => m.type === 'hello'));
    ws.send(JSON.stringify({ type: 'watch', deviceIds: [device.json.id] }));
    await sleep(300);

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${ports.mqtt}`, { username: token, reconnectPeriod: 0 });
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ energy: 1234.5 }), { qos: 1 });
    await client.endAsync();

    const latest = await until('the stored value', async () => {
      const res = await admin.call('GET', `/api/telemetry/devices/${device.json.id}/latest/`);
      return JSON.stringify(res.json).includes('1234.5') && res.json;
    });
    expect(JSON.stringify(latest)).toContain('energy');
    await until('the pushed value', async () => received.some((m) => m.type !== 'hello' && m.data?.deviceId === device.json.id), 10_000);
    ws.close();
  }, 60_000);

  it('runs an export on the worker', async () => {
    const job = await admin.call('POST', '/api/exports/', { kind: 'users', name: 'All users' });
    expect(job.status).toBe(201);
    const done = await until('the export', async () => {
      const list = await admin.call('GET', '/api/batch-playback-download/');
      const found = list.json.jobs.find((j: { jobId: number }) => j.jobId === job.json.jobId);
      return found?.status === 'ready-to-download' && found;
    });
    const file = await fetch(`http://127.0.0.1:${ports.api}${done.tasks[0].path}`, {
      headers: { cookie: admin.cookie(), authorization: `Bearer ${admin.access}` },
    });
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('customeradmin');
  }, 60_000);

  it('records a camera in the recorder process and plays it through the API', async () => {
    const site = await admin.call('POST', '/iotapp/assets/', { name: 'Split Cameras', address: ['India', 'Pune'] });
    const router = await admin.call('POST', '/iotapp/devices/', { label: 'RTR-01', type: 'ROUTER', assetId: site.json.id });
    const dvr = await admin.call('POST', '/iotapp/devices/', {
      label: 'DVR-01',
      type: 'DVR',
      assetId: site.json.id,
      parentId: router.json.id,
    });
    const cam = await admin.call('POST', '/iotapp/devices/', {
      label: 'CAM-01',
      type: 'CAMERA',
      assetId: site.json.id,
      parentId: dvr.json.id,
    });
    const id = cam.json.id as number;
    expect(
      (await admin.call('PUT', `/api/cameras/${id}/configs/`, { simulated: true, recordingEnabled: true, segmentSec: 2 })).status,
    ).toBe(200);
    await until('recording', async () => (await admin.call('GET', `/api/cameras/${id}/`)).json.state === 'recording', 60_000);
    const snapshot = await until('a snapshot from the footage', async () => {
      const res = await admin.call('GET', `/api/cameras/${id}/snapshot/`);
      return res.json?.path && res.json;
    });
    expect(snapshot.path).toBeTruthy();
  }, 90_000);

  it('logged no error in any of the four processes', () => {
    const errors = [...procs.values()].flatMap((p) =>
      p.lines.filter((line) => /"level":(50|60)/.test(line)).map((line) => `${p.role}: ${line.slice(0, 300)}`),
    );
    expect(errors).toEqual([]);
  });
});
