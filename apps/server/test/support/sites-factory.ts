import { ALLOWED_PARENT_TYPES, DEVICE_TYPES } from '@sitewatch/contracts';
import { expect } from 'vitest';
import type { TestClient } from './harness.ts';

/** Builds sites and devices through the API, as an administrator would. */

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Math.random().toString(36).slice(2, 6)}`;

export interface SiteSpec {
  name?: string;
  address?: string[];
  latitude?: number | null;
  longitude?: number | null;
  metadata?: Record<string, unknown>;
  customerId?: number | null;
}

export async function makeSite(admin: TestClient, spec: SiteSpec = {}) {
  const res = await admin.post('/iotapp/assets/', {
    name: spec.name ?? unique('Site'),
    address: spec.address ?? ['India', 'Karnataka', 'Bengaluru'],
    latitude: spec.latitude === undefined ? 12.97 : spec.latitude,
    longitude: spec.longitude === undefined ? 77.59 : spec.longitude,
    metadata: spec.metadata ?? {},
    customerId: spec.customerId ?? null,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string; address: string[]; metadata: Record<string, unknown> };
}

export interface DeviceSpec {
  label?: string;
  type: string;
  assetId?: number | null;
  parentId?: number | null;
  templateId?: number | null;
  metadata?: Record<string, unknown>;
}

export async function makeDevice(admin: TestClient, spec: DeviceSpec) {
  const res = await admin.post('/iotapp/devices/', {
    label: spec.label ?? unique(spec.type),
    type: spec.type,
    assetId: spec.assetId ?? null,
    parentId: spec.parentId ?? null,
    templateId: spec.templateId ?? null,
    metadata: spec.metadata ?? {},
  });
  expect(res.statusCode, res.body).toBe(201);
  const device = res.json() as { id: number; name: string; label: string; type: string; assetId: number | null; parentId: number | null };
  return { ...device, accessToken: await accessTokenOf(admin, device.id) };
}

/** A device's access token, read as the device page's copy action reads it (never part of a device answer). */
export async function accessTokenOf(admin: TestClient, deviceId: number): Promise<string> {
  const res = await admin.post(`/iotapp/devices/${deviceId}/access-token/`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { accessToken: string }).accessToken;
}

/**
 * One device of every kind at a site, each under a parent of an allowed kind where it needs one, all with the given
 * metadata: the ids by kind and the access tokens.
 */
export async function makeDeviceOfEveryKind(admin: TestClient, siteId: number, metadata: Record<string, unknown>) {
  const made = new Map<string, number>();
  const tokens: string[] = [];
  const ordered = [...DEVICE_TYPES].sort((a, b) => ALLOWED_PARENT_TYPES[a].length - ALLOWED_PARENT_TYPES[b].length);
  for (const type of ordered) {
    const parentType = ALLOWED_PARENT_TYPES[type].find((p) => made.has(p));
    const device = await makeDevice(admin, { type, ...(parentType ? { parentId: made.get(parentType) } : { assetId: siteId }), metadata });
    made.set(type, device.id);
    tokens.push(device.accessToken);
  }
  return { made, tokens };
}

/** A site with a router, a DVR with two cameras and an HDD, and a generator: the usual shape of the estate. */
export async function makeEstateSite(admin: TestClient, spec: SiteSpec = {}) {
  const site = await makeSite(admin, spec);
  const router = await makeDevice(admin, { type: 'ROUTER', assetId: site.id, label: 'RTR' });
  const dvr = await makeDevice(admin, { type: 'DVR', parentId: router.id, label: 'DVR1' });
  const cam1 = await makeDevice(admin, { type: 'CAMERA', parentId: dvr.id, label: 'CAM1' });
  const cam2 = await makeDevice(admin, { type: 'CAMERA', parentId: dvr.id, label: 'CAM2' });
  const hdd = await makeDevice(admin, { type: 'HDD', parentId: dvr.id, label: 'HDD1' });
  const genset = await makeDevice(admin, { type: 'GENERATOR', parentId: router.id, label: 'DG1' });
  return { site, router, dvr, cam1, cam2, hdd, genset };
}

/** The id of a demo user (username = role) as seen through the users API. */
export async function userId(client: TestClient, username: string): Promise<number> {
  const res = await client.get(`/iotapp/users/?searchText=${encodeURIComponent(username)}&limit=50`);
  const user = (res.json().contents as { id: number; username: string }[]).find((u) => u.username === username);
  if (!user) throw new Error(`no user ${username}`);
  return user.id;
}
