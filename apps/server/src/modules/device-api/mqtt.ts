import {
  attributeRequestSchema,
  DEVICE_API_LIMITS,
  type ProvisionResponse,
  provisionRequestSchema,
  DEVICE_API_TOPICS as T,
} from '@sitewatch/contracts';
import type { IngestDevice } from '../devices/index.ts';
import type { DeviceApiHandler, TelemetryRuntime } from '../telemetry/index.ts';
import type { AttributeService } from './attributes.ts';
import { type ClientRpc, readJson } from './client-rpc.ts';

/** Provision requests over MQTT the process answers per minute, whoever asks: secrets cannot be guessed at speed. */
export const MQTT_PROVISIONS_PER_MINUTE = 30;

const SUBSCRIBABLE = new Set<string>([T.attributes, T.attributesResponseSubscription, T.clientRpcResponseSubscription]);

/** The request id that ends a topic with this prefix, or null (another topic, or an id no firmware sends). */
function requestIdOf(topic: string, prefix: string): string | null {
  if (!topic.startsWith(prefix)) return null;
  const id = topic.slice(prefix.length);
  return id.length > 0 && id.length <= DEVICE_API_LIMITS.maxRequestIdLength && !id.includes('/') ? id : null;
}

/**
 * The MQTT side of the device API on the embedded broker. Answers go to the asking client only, at QoS 0 (message
 * ids of QoS 1 belong to device commands); shared attribute updates go to the clients subscribed to
 * `v1/devices/me/attributes`. A malformed request is answered with `{ "error": … }`, never by closing the connection.
 */
export function createMqttDeviceApi(deps: {
  runtime: TelemetryRuntime;
  attributes: AttributeService;
  clientRpc: ClientRpc;
  provision(request: ReturnType<typeof provisionRequestSchema.parse>): Promise<ProvisionResponse>;
}): DeviceApiHandler {
  const { runtime, attributes, clientRpc } = deps;
  /** Clients subscribed to attribute updates, each with the function that stops listening. */
  const updateSubscribers = new Map<string, () => void>();
  let provisionWindow = { start: 0, count: 0 };
  const provisionAllowed = () => {
    const now = Date.now();
    if (now - provisionWindow.start >= 60_000) provisionWindow = { start: now, count: 0 };
    provisionWindow.count++;
    return provisionWindow.count <= MQTT_PROVISIONS_PER_MINUTE;
  };

  const send = (clientId: string, topic: string, body: unknown) =>
    runtime.broker?.send(clientId, topic, Buffer.from(JSON.stringify(body)), 0).then(() => undefined) ?? Promise.resolve();

  async function answerAttributes(device: IngestDevice, clientId: string, requestId: string, payload: Buffer) {
    const request = attributeRequestSchema.safeParse(payload.length === 0 ? {} : readJson(payload));
    const answer = request.success
      ? await attributes.request(device, request.data)
      : { error: 'Expected {"clientKeys": "a,b", "sharedKeys": "c"} with keys of at most 64 characters' };
    await send(clientId, T.attributesResponse(requestId), answer);
  }

  async function answerRpc(device: IngestDevice, clientId: string, requestId: string, payload: Buffer) {
    await send(clientId, T.clientRpcResponse(requestId), await clientRpc(device, readJson(payload)));
  }

  return {
    subscribable: (topic, provisioning) => (provisioning ? topic === T.provisionResponse : SUBSCRIBABLE.has(topic)),
    subscribed(device, clientId, topic) {
      if (topic !== T.attributes || updateSubscribers.has(clientId)) return;
      updateSubscribers.set(
        clientId,
        attributes.listen(device.id, (update) => void send(clientId, T.attributes, update)),
      );
    },
    disconnected(_device, clientId) {
      updateSubscribers.get(clientId)?.();
      updateSubscribers.delete(clientId);
    },
    published(device, clientId, topic, payload) {
      const attributeRequest = requestIdOf(topic, T.attributesRequestPrefix);
      if (attributeRequest) return answerAttributes(device, clientId, attributeRequest, payload);
      const rpcRequest = requestIdOf(topic, T.clientRpcRequestPrefix);
      if (rpcRequest) return answerRpc(device, clientId, rpcRequest, payload);
      return null;
    },
    provision(clientId, topic, payload) {
      if (topic !== T.provisionRequest && topic !== T.provisionRequestLegacy) return null;
      const request = provisionRequestSchema.safeParse(readJson(payload));
      return (async () => {
        let answer: ProvisionResponse;
        if (!provisionAllowed()) answer = { status: 'FAILURE', errorMsg: 'Too many provision requests, retry in a minute' };
        else if (!request.success)
          answer = { status: 'FAILURE', errorMsg: 'Expected {"deviceName", "provisionDeviceKey", "provisionDeviceSecret"}' };
        else answer = await deps.provision(request.data);
        await send(clientId, T.provisionResponse, answer);
      })();
    },
  };
}
