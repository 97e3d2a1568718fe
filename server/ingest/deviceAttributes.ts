// A device's attributes through ThingsBoard's device API: it asks for its client and shared
// attributes (`v1/devices/me/attributes/request/{id}` → `…/response/{id}`, or
// `GET /api/v1/{token}/attributes?clientKeys=&sharedKeys=`), and shared attributes the platform
// sets are pushed to it (`v1/devices/me/attributes` to a subscribed MQTT session, or as the answer
// to a waiting `GET /api/v1/{token}/attributes/updates`; to the gateway of a device behind one, on
// `v1/gateway/attributes` as `{"device", "data"}`). Changes are announced to every instance
// (downlinkNotices.ts): the one holding the device's connection tells it.
import { deviceAttributes, type ScopedAttributes } from '../db/deviceAttributeQueries.ts';
import type { Database } from '../db/database.ts';
import { gatewaysOf, sharedAttributesOfDevices, type DeviceIdentity } from '../db/deviceQueries.ts';
import type { SharedAttributesNotice } from '../db/downlinkNotices.ts';
import type { DeviceDownlink } from './deviceCommands.ts';
import { deviceWaiters } from './deviceWaiters.ts';

export const ATTRIBUTES_TOPIC = 'v1/devices/me/attributes';
export const GATEWAY_ATTRIBUTES_TOPIC = 'v1/gateway/attributes';
export const ATTRIBUTE_REQUEST_TOPIC = 'v1/devices/me/attributes/request/';
export const ATTRIBUTE_RESPONSE_TOPIC = 'v1/devices/me/attributes/response/';
/** Longest an HTTP device may wait for an attribute update. */
export const MAX_UPDATES_WAIT_MS = 60_000;
/** Keys one request may name, per scope. */
export const MAX_REQUESTED_KEYS = 100;

/** Comma-separated keys (ThingsBoard's `clientKeys`/`sharedKeys`): undefined when not given. */
export function requestedKeys(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : String(value).split(',');
  return list.map((key) => String(key).trim()).filter((key) => key.length > 0 && key.length <= 255).slice(0, MAX_REQUESTED_KEYS);
}

export function deviceAttributeService(db: Database, downlink: DeviceDownlink) {
  const waiters = deviceWaiters<Record<string, unknown>>();
  return {
    /** The device's attributes asked for: each scope named (or both when neither is), narrowed to its keys. */
    async request(device: DeviceIdentity, asked: { clientKeys?: unknown; sharedKeys?: unknown }): Promise<Partial<ScopedAttributes>> {
      const clientKeys = requestedKeys(asked.clientKeys);
      const sharedKeys = requestedKeys(asked.sharedKeys);
      const both = clientKeys === undefined && sharedKeys === undefined;
      const found = await deviceAttributes(db, device.tenantId, device.entityId, clientKeys, sharedKeys);
      return { ...(both || clientKeys ? { client: found.client } : {}), ...(both || sharedKeys ? { shared: found.shared } : {}) };
    },

    /** An announcement of shared attributes set (any instance's): pushed to the devices connected or waiting here. */
    async announced(payload: string) {
      const notice = JSON.parse(payload) as SharedAttributesNotice;
      const message = JSON.stringify(notice.a);
      const elsewhere: number[] = [];
      await Promise.all(notice.e.map(async (entityId) => {
        waiters.wake(entityId, notice.a);
        if (downlink.sessionsOf(entityId) > 0) await downlink.publishToDevice(entityId, ATTRIBUTES_TOPIC, message, { qos: 1 });
        else elsewhere.push(entityId);
      }));
      // devices with no connection of their own hear it through their gateway's, when it is here
      const gateways = await gatewaysOf(db, notice.t, elsewhere);
      await Promise.all(gateways.filter((child) => downlink.sessionsOf(child.gatewayId) > 0).map((child) => downlink.publishToDevice(
        child.gatewayId, GATEWAY_ATTRIBUTES_TOPIC, JSON.stringify({ device: child.name, data: notice.a }), { qos: 1 })));
    },

    /**
     * Announcements may have been missed (this instance's listening connection was lost): the
     * devices connected here, and those behind gateways connected here without a connection of
     * their own, are pushed their shared attributes as they are now.
     */
    async resendShared() {
      const devices = await sharedAttributesOfDevices(db, downlink.connectedDevices());
      await Promise.all(devices.map(({ entityId, gatewayId, name, shared }) => {
        if (downlink.sessionsOf(entityId) > 0) return downlink.publishToDevice(entityId, ATTRIBUTES_TOPIC, JSON.stringify(shared), { qos: 1 });
        if (gatewayId !== null && downlink.sessionsOf(gatewayId) > 0) {
          return downlink.publishToDevice(gatewayId, GATEWAY_ATTRIBUTES_TOPIC, JSON.stringify({ device: name, data: shared }), { qos: 1 });
        }
        return undefined;
      }));
    },

    /** An HTTP device's wait for its next shared attribute update; undefined when none came in time. */
    waitForUpdate(device: DeviceIdentity, timeoutMs: number, signal?: AbortSignal) {
      return waiters.wait(device.entityId, Math.min(timeoutMs, MAX_UPDATES_WAIT_MS), signal);
    },
  };
}

export type DeviceAttributeService = ReturnType<typeof deviceAttributeService>;
