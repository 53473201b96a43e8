import { expect } from 'vitest';
import type { TestClient } from './support/harness.ts';

export type ActivityEntry = {
  action: string;
  actorId: number | null;
  objectType: string | null;
  objectId: string | null;
  ip: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** The activity log entries the client's tenant shows for a query (`?objectType=site`), newest first. */
export async function activityEntries(client: TestClient, query: string) {
  const res = await client.get(`/iotapp/user-activity-logs/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { contents: ActivityEntry[] }).contents;
}

/** The entries of one object, oldest first. */
export const entriesOf = async (client: TestClient, type: string, id: number) =>
  (await activityEntries(client, `?objectType=${type}&limit=200`)).filter((e) => e.objectId === String(id)).reverse();
