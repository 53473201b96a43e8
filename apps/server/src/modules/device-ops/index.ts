import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { OutboundNetworks } from '../../platform/outbound-networks.ts';
import { createSimulatedNetworks } from '../../platform/simulated-network.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { TelemetryPort } from '../telemetry/index.ts';
import type { UserDirectory } from '../users/directory.ts';
import { loadVideoSettings } from '../video/settings.ts';
import { deviceOpsRoutes } from './routes.ts';
import { createDeviceOpsService, type DeviceOpsService, type DiagnosticTickets } from './service.ts';

export type { DiagnosticTickets } from './service.ts';

export interface DeviceOpsPorts {
  db: Db;
  events: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Who sees which site. */
  directory: SiteDirectory;
  /** Names of the users who started diagnostics. */
  users: UserDirectory;
  /** Stored telemetry: access controllers' events are indexed from it. */
  telemetry: TelemetryPort;
  /** Diagnostic results go to tickets as comments. */
  tickets: DiagnosticTickets;
  /** The networks each tenant's devices may be dialled in (set by the system administrator). */
  outbound: OutboundNetworks;
  /** The cameras' RTSP URLs (the video module): the stream probe. */
  streamUrls(tenantId: number, deviceIds: number[]): Promise<Map<number, string>>;
}

export interface DeviceOpsPort {
  service: DeviceOpsService;
}

/** Device operations (issue 17): access control, routers, ethernet RTUs and diagnostics. */
export function createDeviceOpsModule(ports: DeviceOpsPorts): DomainModule<DeviceOpsPort> {
  // a device's host may reach what a camera URL may (VIDEO_STREAM_NETWORKS)
  const ops = createDeviceOpsService({
    ...ports,
    networks: loadVideoSettings().VIDEO_STREAM_NETWORKS,
    simulated: createSimulatedNetworks(ports.db),
  });
  ports.telemetry.ingest.onStored((items) => {
    void ops.stored(items);
  });
  return {
    ports: { service: ops },
    register(app) {
      deviceOpsRoutes(app, { ops, websocket: app.hasDecorator('websocketServer') });
      app.addHook('onClose', async () => ops.stop());
    },
  };
}
