// What a device asks or answers over MQTT besides its telemetry and attributes (ThingsBoard's
// device API): its answer to a command (`v1/devices/me/rpc/response/{id}`), a request of its own
// (`v1/devices/me/rpc/request/{id}`, answered on `…/response/{id}`), its attributes
// (`v1/devices/me/attributes/request/{id}` → `…/response/{id}`), and a gateway's for the devices
// behind it (`v1/gateway/attributes/request` → `v1/gateway/attributes/response`, answers to
// commands on `v1/gateway/rpc`).
import { INT4_MAX } from '../../src/schemas/bounds.ts';
import type { DeviceIdentity } from '../db/deviceQueries.ts';
import type { DeviceIngest } from './deviceIngest.ts';
import type { PayloadProblem } from '../telemetry/devicePayload.ts';
import { ATTRIBUTE_REQUEST_TOPIC, ATTRIBUTE_RESPONSE_TOPIC, type DeviceAttributeService } from './deviceAttributes.ts';
import { RPC_REQUEST_TOPIC, RPC_RESPONSE_TOPIC, type DeviceCommands, type DeviceDownlink } from './deviceCommands.ts';
import { answerDeviceRpc } from './deviceRpcMethods.ts';

const GATEWAY_ATTRIBUTE_REQUEST = 'v1/gateway/attributes/request';
const GATEWAY_ATTRIBUTE_RESPONSE = 'v1/gateway/attributes/response';
const GATEWAY_RPC = 'v1/gateway/rpc';

const shape = (detail: string): PayloadProblem[] => [{ reason: 'bad_shape', detail }];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request id at the end of a topic, or undefined when it is not one. */
function requestId(topic: string, prefix: string): number | undefined {
  const text = topic.slice(prefix.length);
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= INT4_MAX ? id : undefined;
}

export function deviceRequests(ingest: DeviceIngest, commands: DeviceCommands, attributes: DeviceAttributeService, downlink: DeviceDownlink) {
  // Not waited for: the device's PUBACK of the answer is read only after this request's handling
  // ends (its connection is not read meanwhile). An answer that does not arrive is the device's loss.
  const reply = (device: DeviceIdentity, topic: string, answer: unknown) => {
    downlink.publishToDevice(device.entityId, topic, JSON.stringify(answer), { qos: 1 }).catch(() => {});
  };

  /** A gateway asks for attributes of a device behind it: `{"id", "device", "client": bool, "key"}` or `"keys": [...]`. */
  async function gatewayAttributeRequest(gateway: DeviceIdentity, json: unknown): Promise<PayloadProblem[]> {
    if (!isObject(json) || typeof json.id !== 'number' || typeof json.device !== 'string') return shape('an attribute request needs {"id", "device", "key" or "keys"}');
    const child = await ingest.gatewayChildNamed(gateway, json.device);
    if (!child) return [];
    const keys = typeof json.key === 'string' ? [json.key] : Array.isArray(json.keys) ? json.keys.map(String) : undefined;
    if (!keys) return shape('an attribute request needs "key" or "keys"');
    const scope = json.client === true ? 'client' : 'shared';
    const found = (await attributes.request(child, scope === 'client' ? { clientKeys: keys } : { sharedKeys: keys }))[scope] ?? {};
    const answer = typeof json.key === 'string' ? { id: json.id, device: json.device, value: found[json.key] ?? null } : { id: json.id, device: json.device, values: found };
    reply(gateway, GATEWAY_ATTRIBUTE_RESPONSE, answer);
    return [];
  }

  return {
    /** Whether `topic` is one of these (else the caller handles it, or reports it unknown). */
    handles: (topic: string) => topic.startsWith(RPC_RESPONSE_TOPIC) || topic.startsWith(RPC_REQUEST_TOPIC) || topic.startsWith(ATTRIBUTE_REQUEST_TOPIC)
      || topic === GATEWAY_ATTRIBUTE_REQUEST || topic === GATEWAY_RPC,

    /** Handles one message (its JSON parsed); answers what was wrong with it. */
    async handle(device: DeviceIdentity, topic: string, json: unknown): Promise<PayloadProblem[]> {
      if (topic === GATEWAY_ATTRIBUTE_REQUEST) return gatewayAttributeRequest(device, json);
      if (topic === GATEWAY_RPC) {
        // a gateway's answer for a device behind it: {"device", "id", "data"}
        if (!isObject(json) || typeof json.id !== 'number' || typeof json.device !== 'string') return shape('a gateway answer needs {"device", "id", "data"}');
        const child = await ingest.gatewayChildNamed(device, json.device);
        if (child) await commands.answer(child, json.id, json.data ?? null);
        return [];
      }
      const prefix = [RPC_RESPONSE_TOPIC, RPC_REQUEST_TOPIC, ATTRIBUTE_REQUEST_TOPIC].find((start) => topic.startsWith(start))!;
      const id = requestId(topic, prefix);
      if (id === undefined) return shape(`the request id of ${topic.slice(0, 100)} is not a number`);
      if (prefix === RPC_RESPONSE_TOPIC) {
        await commands.answer(device, id, json);
      } else if (prefix === RPC_REQUEST_TOPIC) {
        const answer = answerDeviceRpc(device, json);
        reply(device, `${RPC_RESPONSE_TOPIC}${id}`, 'unknownMethod' in answer ? { error: `Unknown RPC method ${answer.unknownMethod}` } : answer.result);
      } else {
        reply(device, `${ATTRIBUTE_RESPONSE_TOPIC}${id}`, await attributes.request(device, isObject(json) ? json : {}));
      }
      return [];
    },
  };
}

export type DeviceRequests = ReturnType<typeof deviceRequests>;
