import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TENANTS } from '../../src/demo/foundation.ts';
import { seedDemo } from '../../src/demo/index.ts';
import { startSimulator } from '../../src/demo/simulator/index.ts';
import { startTrapSimulator } from '../../src/demo/simulator/traps.ts';
import { freePort } from '../telemetry-fixtures.ts';
import type { TestApp } from './harness.ts';

const quiet = { info: () => undefined, warn: () => undefined };

/**
 * The living demo in a test app: both demo tenants seeded, the MQTT broker and the background work started, the
 * trap receiver on a free port, and per tenant the device simulator (over MQTT) and the trap simulator.
 * The demo's files go into `dataDir` (a new folder by default). `stop()` stops the simulators (call it before closing
 * the app); `remove()` removes the data folder.
 */
export async function startLivingDemo(t: TestApp, opts: { intervalSeconds: number; folder: string; dataDir?: string }) {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), opts.folder));
  await seedDemo(t.db, 1, quiet, dataDir);
  const mqttPort = await freePort();
  await t.handles.telemetry.runtime.startMqtt({ port: mqttPort });
  await t.handles.telemetry.runtime.startBackground();
  const trapPort = await t.handles.snmp.receiver.start(0);
  const stops: Array<() => unknown> = [];
  for (const spec of DEMO_TENANTS) {
    const simulator = await startSimulator({
      db: t.db,
      tenantSlug: spec.slug,
      mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
      intervalSeconds: opts.intervalSeconds,
      seed: 1,
      log: quiet,
    });
    stops.push(() => simulator.stop());
    const traps = await startTrapSimulator({ db: t.db, tenantSlug: spec.slug, port: trapPort, intervalSeconds: 1, log: quiet });
    stops.push(() => traps.stop());
  }
  return {
    async stop() {
      for (const stop of stops.splice(0)) await stop();
    },
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
