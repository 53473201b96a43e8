import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** 'ok', 'not started' (this process does not run it, e.g. ROLE=api), or what is wrong. */
export type DependencyState = string;
export type DependencyCheck = () => Promise<DependencyState> | DependencyState;

const CHECK_TIMEOUT_MS = 2000;
const PASSING = new Set(['ok', 'not started']);

async function within(check: DependencyCheck): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DependencyState>((resolve) => {
    timer = setTimeout(() => resolve('no answer within 2 s'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(check), timeout]);
  } catch (error) {
    return error instanceof Error ? error.message.slice(0, 200) : 'failed';
  } finally {
    clearTimeout(timer);
  }
}

export const databaseCheck =
  (db: Db): DependencyCheck =>
  async () => {
    await sql`select 1`.execute(db);
    return 'ok';
  };

/** The local blob store's folder must exist and be writable. */
export const blobStoreCheck =
  (root: string): DependencyCheck =>
  async () => {
    await mkdir(root, { recursive: true });
    await access(root, constants.W_OK);
    return 'ok';
  };

/** The device broker: the embedded one listening, or the consumer of MQTT_URL connected. */
export const brokerCheck =
  (runtime: () => { mqttPort: number | null; externalConnected: boolean | null }): DependencyCheck =>
  () => {
    const { mqttPort, externalConnected } = runtime();
    if (externalConnected === false) return 'external broker not connected';
    return externalConnected || mqttPort !== null ? 'ok' : 'not started';
  };

/** Runs every check at once; ready only when each passes. */
export async function readiness(checks: Record<string, DependencyCheck>) {
  const names = Object.keys(checks);
  const states = await Promise.all(names.map((name) => within(checks[name] as DependencyCheck)));
  const result = Object.fromEntries(names.map((name, i) => [name, states[i] as string]));
  const failing = names.filter((name) => !PASSING.has(result[name] as string));
  return { ready: failing.length === 0, checks: result, failing };
}
