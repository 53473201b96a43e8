import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { OutboundNetworks } from '../../platform/outbound-networks.ts';
import { createSimulatedNetworks } from '../../platform/simulated-network.ts';
import type { ExternalAlarms } from '../alarms/index.ts';
import type { DeviceRecords } from '../devices/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { createForwarder, type OutgoingTrap } from './forwarder.ts';
import { createTrapPipeline, type TrapPipeline } from './receiver.ts';
import { createSnmpRepository } from './repository.ts';
import { snmpRoutes } from './routes.ts';
import { createSealer } from './secrets.ts';
import { createSnmpService, type SnmpService } from './service.ts';
import { createStatsBook, type StatsBook } from './stats.ts';

export const INFORM_RETRY_QUEUE = 'snmp.inform-retry';
const PRUNE_QUEUE = 'snmp.prune';
const INFORM_ATTEMPTS = 5;
const UNMATCHED_KEEP_DAYS = 30;

export interface SnmpPorts {
  db: Db;
  /** The networks each tenant's trap destinations may be in (set by the system administrator). */
  outbound: OutboundNetworks;
  log: FastifyBaseLogger;
  clock: Clock;
  jobs: JobWorker;
  settings: Config['snmp'];
  /** The install's key that seals destination secrets. */
  secret: Uint8Array;
  /** Devices by declared address (`metadata.ipAddress`). */
  devices: Pick<DeviceRecords, 'activity'>;
  directory: SiteDirectory;
  /** The alarms module's port for alarms raised and cleared by traps. */
  alarms: ExternalAlarms;
}

export interface SnmpPort {
  service: SnmpService;
  /** The receiver: `start()` in ROLE=all and ROLE=worker processes (tests pass port 0). */
  receiver: TrapPipeline;
  stats: StatsBook;
}

/** SNMP traps in (receiver → device → alarm) and trap forwarding (issue 17). */
export function createSnmpModule(ports: SnmpPorts): DomainModule<SnmpPort> {
  const { db, log, settings } = ports;
  const repo = createSnmpRepository(db);
  const stats = createStatsBook({ repo, log, flushMs: 500 });
  let pipeline: TrapPipeline | null = null;

  const queueRetry = (tenantId: number, destinationId: number, trap: OutgoingTrap) =>
    enqueueJob(db, {
      tenantId,
      queue: INFORM_RETRY_QUEUE,
      payload: { destinationId, trap: trap as unknown as Record<string, unknown> },
      runAt: new Date(ports.clock.now().getTime() + 2000),
      maxAttempts: INFORM_ATTEMPTS,
    }).catch((error) => log.error({ err: error }, 'inform retry could not be queued'));

  const forwarder = createForwarder({
    networks: settings.forwardNetworks,
    outbound: ports.outbound,
    informTimeoutMs: settings.informTimeoutMs,
    onOutcome({ destination, trap, error, unacknowledged }) {
      if (!error) {
        stats.destination(destination, 'sent');
        return;
      }
      stats.failure(destination, trap.trapOid, unacknowledged ? `inform not acknowledged (${error.message}); retrying` : error.message);
      if (unacknowledged) void queueRetry(destination.tenantId, destination.id, trap);
      else stats.destination(destination, 'failed');
    },
    onDropped(destination, trap, reason) {
      stats.destination(destination, 'dropped');
      stats.failure(destination, trap.trapOid, `dropped: ${reason}`);
    },
  });

  ports.outbound.onChange((tenantId) => forwarder.forgetTenant(tenantId));

  const service = createSnmpService({
    repo,
    sealer: createSealer(ports.secret),
    directory: ports.directory,
    networks: settings.forwardNetworks,
    outbound: ports.outbound,
    changed: (tenantId) => pipeline?.invalidate(tenantId),
    credentialsChanged: () => void pipeline?.reloadCredentials(),
    removed: (id) => forwarder.forget(id),
    receiverPort: settings.port,
    simulated: createSimulatedNetworks(db),
  });

  pipeline = createTrapPipeline({
    settings,
    log,
    devicesByAddress: (tenantId, address) => ports.devices.activity.byAddress(tenantId, address),
    credentials: () => service.credentials(),
    tenantConfig: (tenantId) => service.tenantConfig(tenantId),
    alarms: ports.alarms,
    forwarder,
    stats,
  });
  const receiver = pipeline;

  return {
    ports: { service, receiver, stats },
    register(app) {
      snmpRoutes(app, { snmp: service });
      ports.jobs.register(INFORM_RETRY_QUEUE, async (job) => {
        const destinationId = Number(job.payload.destinationId);
        const trap = job.payload.trap as unknown as OutgoingTrap;
        if (job.tenantId === null) return { skipped: true };
        const target = await service.target(job.tenantId, destinationId);
        if (!target) return { skipped: true };
        const ref = { id: destinationId, tenantId: job.tenantId };
        const error = await forwarder.sendNow(target, trap);
        if (!error) {
          stats.destination(ref, 'sent');
          await stats.flush();
          return { acknowledged: true, attempt: job.attempt };
        }
        stats.failure(ref, trap.trapOid, `inform retry ${job.attempt} not acknowledged (${error.message})`);
        if (job.attempt >= INFORM_ATTEMPTS) {
          stats.destination(ref, 'failed');
          await stats.flush();
          return { acknowledged: false };
        }
        await stats.flush();
        throw new Error(`inform to destination ${destinationId} not acknowledged`);
      });
      ports.jobs.register(PRUNE_QUEUE, async () => {
        await repo.pruneUnmatched(new Date(ports.clock.now().getTime() - UNMATCHED_KEEP_DAYS * 86_400_000));
        return {};
      });
      ports.jobs.every(PRUNE_QUEUE, 3_600_000);
      stats.start();
      app.addHook('onClose', async () => {
        await receiver.stop();
        forwarder.close();
        await stats.stop();
      });
    },
  };
}
