// Device-originated RPC (ThingsBoard's client-side RPC): a device asks the platform with
// `{"method", "params"}` on `v1/devices/me/rpc/request/{id}` (or POST /api/v1/{token}/rpc) and gets
// the answer on `v1/devices/me/rpc/response/{id}` (or as the response). The methods answered here.
import type { DeviceIdentity } from '../db/deviceQueries.ts';
import { PAYLOAD_LIMITS } from '../telemetry/devicePayload.ts';
import { DEFAULT_TRANSPORT_LIMITS } from './mqtt/transportLimits.ts';

export type DeviceRpcAnswer = { result: unknown } | { unknownMethod: string };

const METHODS: Record<string, (device: DeviceIdentity, params: unknown) => unknown> = {
  /** The platform's clock, in ms since 1970 (a device without a clock of its own). */
  getCurrentTime: () => Date.now(),
  /**
   * The session's limits, as ThingsBoard's SDKs ask right after connecting (and wait for): no rate
   * limits (empty), the largest message and the messages that may await their PUBACK.
   */
  getSessionLimits: () => ({
    maxPayloadSize: PAYLOAD_LIMITS.messageBytes,
    maxInflightMessages: DEFAULT_TRANSPORT_LIMITS.receiveMaximum,
    rateLimits: { messages: '', telemetryMessages: '', telemetryDataPoints: '' },
  }),
};

export const DEVICE_RPC_METHODS = Object.keys(METHODS);

/** The answer to a device's request `{ method, params }`. */
export function answerDeviceRpc(device: DeviceIdentity, request: unknown): DeviceRpcAnswer {
  const method = typeof request === 'object' && request !== null ? (request as { method?: unknown }).method : undefined;
  const handler = typeof method === 'string' && Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (!handler) return { unknownMethod: typeof method === 'string' ? method.slice(0, 100) : '' };
  return { result: handler(device, (request as { params?: unknown }).params) };
}
