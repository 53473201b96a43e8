import type { Db } from '../../platform/db.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { DevicesPort } from '../devices/index.ts';
import type { TelemetryPort } from '../telemetry/index.ts';
import { type AttributeService, createAttributeService } from './attributes.ts';
import { createClientRpc } from './client-rpc.ts';
import { createMqttDeviceApi } from './mqtt.ts';
import { deviceApiHttpRoutes, sharedAttributeRoutes } from './routes.ts';

export interface DeviceApiPorts {
  db: Db;
  clock: Clock;
  /** The broker, the token lookup and client attributes (telemetry). */
  telemetry: TelemetryPort;
  /** Provisioning creates devices (the devices module). */
  provision: DevicesPort['provision'];
}

export interface DeviceApiPort {
  attributes: AttributeService;
}

/**
 * The ThingsBoard device API beyond telemetry and device commands: client and shared attributes (requests, updates
 * pushed on change), device-side RPC answered by the product, and provisioning over MQTT — on the embedded broker
 * (through telemetry's runtime) and over HTTP.
 */
export function createDeviceApiModule(ports: DeviceApiPorts): DomainModule<DeviceApiPort> {
  const { db, clock, telemetry } = ports;
  const attributes = createAttributeService({ db, telemetry });
  const clientRpc = createClientRpc({ clock, attributes });
  telemetry.runtime.handleDeviceApi(createMqttDeviceApi({ runtime: telemetry.runtime, attributes, clientRpc, provision: ports.provision }));
  return {
    ports: { attributes },
    register(app) {
      deviceApiHttpRoutes(app, { ingest: telemetry.ingest, attributes, clientRpc });
      sharedAttributeRoutes(app, { attributes, visibleDevice: telemetry.visibleDevice });
    },
  };
}
