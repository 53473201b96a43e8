import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs once the server under test answers and before any browser starts. With E2E_START_AFTER set (by `npm test`),
 * the tests wait until that file exists: the server starts and seeds its demo while the last Vitest files finish,
 * and no page is timed beside them.
 */
export default async function waitForStartGate() {
  const gate = process.env.E2E_START_AFTER;
  if (!gate) return;
  while (!existsSync(gate)) await sleep(200);
}
