// What a device's messages do, whichever door they came through (MQTT or HTTP): the access token
// names the device, telemetry becomes points for the writer, client attributes merge into the
// entity, gateways speak for the devices behind them (created on first mention), and connects
// and disconnects mark the device active or not, and every accepted message moves the device's
// lastActivityTime (at most one write a minute: deviceActivity.ts). Each change is logged and
// told as an `entity.updated` event (the live bus hears it).
import { maintenanceGuard } from '../services/maintenanceGuard.ts';
import { recordConnections, type ConnectionEvent } from '../db/connectionQueries.ts';
import type { DeviceIdentity } from '../db/deviceQueries.ts';
import {
  countGatewayChildren, createGatewayChild, devicesByTokens, gatewayChild, mergeAttributes, writeDeviceLog, writeLastActivity,
} from '../db/deviceQueries.ts';
import type { Database } from '../db/database.ts';
import type { PostCommitBus } from '../events/postCommit.ts';
import type { TelemetryPoint, TelemetryValue } from '../telemetry/telemetryPoint.ts';
import {
  attributeValues, gatewayAttributes, gatewayDevice, gatewayTelemetry, telemetryEntries, type PayloadProblem, type TelemetryEntry,
} from '../telemetry/devicePayload.ts';
import type { IngestProblems } from './ingestProblems.ts';
import { DEFAULT_ACTIVITY_LIMITS, deviceActivity, type ActivityLimits } from './deviceActivity.ts';
import { gatheredCalls } from './gatheredCalls.ts';

export type { DeviceIdentity };

export interface IngestLimits extends ActivityLimits {
  /** Devices one gateway may create. */
  maxGatewayChildren: number;
  /** Token lookups kept in memory. */
  tokenCacheSize: number;
  tokenCacheMs: number;
  /** An unknown token is remembered this long (a misconfigured device retrying costs no query). */
  unknownTokenCacheMs: number;
}

const DEFAULT_LIMITS: IngestLimits = {
  maxGatewayChildren: 10_000, tokenCacheSize: 200_000, tokenCacheMs: 60_000, unknownTokenCacheMs: 5_000, ...DEFAULT_ACTIVITY_LIMITS,
};

/** Token lookups and connection records wait this long for others, and go up to this many a statement. */
const GATHER = { waitMs: 5, max: 1_000 };

export interface Points { points: TelemetryPoint[]; problems: PayloadProblem[] }

/** How a device is named in the log (never by its token). */
export const deviceLabel = (device: DeviceIdentity) => `device ${device.entityId}`;

function pointsOf(device: DeviceIdentity, entries: TelemetryEntry[]): TelemetryPoint[] {
  const points: TelemetryPoint[] = [];
  for (const entry of entries) {
    for (const [key, value] of entry.values) points.push({ tenantId: device.tenantId, entityId: device.entityId, key, ts: entry.ts, value });
  }
  return points;
}

/** `instanceId`: this instance, whose connections of each device are counted (connectionQueries.ts). */
export function deviceIngest(db: Database, events: PostCommitBus, problems: IngestProblems, instanceId: string, limits: Partial<IngestLimits> = {}) {
  const allLimits = { ...DEFAULT_LIMITS, ...limits };
  const maintenance = maintenanceGuard(db);
  const { maxGatewayChildren, tokenCacheSize, tokenCacheMs, unknownTokenCacheMs } = allLimits;
  // Cached lookups carry their tenant's generation; forgetting a tenant bumps it (O(1), however
  // many devices are cached: the notification comes on every change of the tenant's entities).
  const generations = new Map<string, number>();
  /** Bumped by forgetAll: part of every tenant's generation. */
  let everyone = 0;
  const generationOf = (tenantId: string) => everyone + (generations.get(tenantId) ?? 0);
  const current = (device: DeviceIdentity, generation: number) => generationOf(device.tenantId) === generation;
  const tokens = new Map<string, { device?: DeviceIdentity; generation: number; until: number }>();
  const children = new Map<string, { device: DeviceIdentity; generation: number }>();
  const lookups = new Map<string, Promise<DeviceIdentity | undefined>>();
  /** How to close each open MQTT session, per device (its token was rotated). */
  const sessions = new Map<number, Set<() => void>>();

  const publish = (device: Pick<DeviceIdentity, 'tenantId' | 'entityId' | 'entityTypeId'>, diff: Record<string, unknown>, updatedAt: string) => {
    events.emit('entity.updated', { tenantId: device.tenantId, update: { id: device.entityId, entity_type_id: device.entityTypeId, diff, updated_at: updatedAt } });
  };

  /** Forget what is cached of a tenant's devices (a token rotated, a device moved or deleted). */
  const forgetTenant = (tenantId: string) => {
    generations.set(tenantId, (generations.get(tenantId) ?? 0) + 1);
  };
  /** Closes the device's open sessions (this instance's). */
  const closeSessions = (entityId: number) => {
    for (const close of sessions.get(entityId) ?? []) close();
  };

  const activity = deviceActivity({
    write: (batch) => writeLastActivity(db, batch),
    written: (devices) => {
      for (const device of devices) publish(device, { attributes: { lastActivityTime: device.ms } }, device.updatedAt);
    },
    failed: (error) => problems.report('write_failed', 'device activity', error instanceof Error ? error.message.slice(0, 200) : 'the write failed'),
    limits: allLimits,
  });

  /** Merges attributes the device reported (`client`) or the server keeps of its connection (`server`). */
  async function setAttributes(device: DeviceIdentity, attributes: Record<string, TelemetryValue>, scope: 'client' | 'server') {
    if (Object.keys(attributes).length === 0) return;
    const updatedAt = await mergeAttributes(db, device, attributes, scope);
    publish(device, { attributes }, updatedAt);
  }

  // Devices connecting by the thousand (a restart, a network back) are looked up and recorded many
  // a statement (gatheredCalls.ts).
  const lookUpToken = gatheredCalls((tokens: string[]) => devicesByTokens(db, tokens), GATHER);
  const recordConnection = gatheredCalls((events: ConnectionEvent[]) => recordConnections(db, instanceId, events), { ...GATHER, keyOf: (event) => event.entityId });

  /** A device is active while it has a connection on any instance. */
  async function setConnected(device: DeviceIdentity, connected: boolean) {
    const ms = Date.now();
    const updatedAt = await recordConnection({ tenantId: device.tenantId, entityId: device.entityId, connected, ms });
    // A second connection of a connected device is activity; the end of one of several changes nothing.
    if (updatedAt === undefined) {
      if (connected) activity.seen(device);
      return;
    }
    activity.writtenNow(device.entityId);
    publish(device, { attributes: { active: connected, lastActivityTime: ms } }, updatedAt);
  }

  /** The device behind a gateway with this name, created under the gateway on first mention. */
  async function childOf(gateway: DeviceIdentity, name: string, type?: string): Promise<DeviceIdentity | undefined> {
    const cacheKey = `${gateway.entityId}\u0000${name}`;
    const cached = children.get(cacheKey);
    if (cached && current(cached.device, cached.generation)) return cached.device;
    // Two messages naming a new device at once create it once.
    let lookup = lookups.get(cacheKey);
    if (!lookup) {
      lookup = findOrCreateChild(gateway, name, type, cacheKey).finally(() => lookups.delete(cacheKey));
      lookups.set(cacheKey, lookup);
    }
    return lookup;
  }

  async function findOrCreateChild(gateway: DeviceIdentity, name: string, type: string | undefined, cacheKey: string) {
    let child = await gatewayChild(db, gateway, name);
    if (!child) {
      if (await countGatewayChildren(db, gateway) >= maxGatewayChildren) {
        problems.report('too_many_devices', deviceLabel(gateway), `a gateway may create at most ${maxGatewayChildren} devices`);
        return undefined;
      }
      child = await createGatewayChild(db, gateway, name, type);
      await writeDeviceLog(db, child, 'notice', 'Device created by gateway', { event: 'created', gateway_id: gateway.entityId, name });
    }
    if (children.size >= tokenCacheSize) children.delete(children.keys().next().value!);
    children.set(cacheKey, { device: child, generation: generationOf(child.tenantId) });
    return child;
  }

  const requireGateway = (device: DeviceIdentity) => {
    if (!device.isGateway) problems.report('not_a_gateway', deviceLabel(device), 'only a gateway may publish to v1/gateway topics');
    return device.isGateway;
  };

  return {
    /** The device with this access token, or undefined. */
    async authenticate(token: string | undefined): Promise<DeviceIdentity | undefined> {
      if (!token || token.length > 255 || token.includes('\0')) return undefined;
      const now = Date.now();
      const cached = tokens.get(token);
      if (cached && cached.until > now && (!cached.device || current(cached.device, cached.generation))) return cached.device;
      const device = await lookUpToken(token);
      if (tokens.size >= tokenCacheSize) tokens.delete(tokens.keys().next().value!);
      tokens.set(token, { device, generation: device ? generationOf(device.tenantId) : 0, until: now + (device ? tokenCacheMs : unknownTokenCacheMs) });
      return device;
    },

    forgetTenant,

    /** Forget what is cached of every tenant's devices (the changes' notifications may have been missed). */
    forgetAll() {
      everyone++;
    },

    /** `v1/devices/me/telemetry`. */
    telemetry(device: DeviceIdentity, json: unknown, now = Date.now()): Points {
      const { value, problems: wrong } = telemetryEntries(json, now);
      return { points: pointsOf(device, value), problems: wrong };
    },

    /** `v1/gateway/telemetry`. */
    async gatewayTelemetry(gateway: DeviceIdentity, json: unknown, now = Date.now()): Promise<Points> {
      if (!requireGateway(gateway)) return { points: [], problems: [] };
      const { value, problems: wrong } = gatewayTelemetry(json, now);
      const points: TelemetryPoint[] = [];
      for (const [name, entries] of value) {
        const child = await childOf(gateway, name);
        if (child) points.push(...pointsOf(child, entries));
      }
      return { points, problems: wrong };
    },

    /** `v1/devices/me/attributes`; with `partial` false nothing is stored when anything is wrong; refused (503) during read-only maintenance. */
    async attributes(device: DeviceIdentity, json: unknown, partial = true): Promise<PayloadProblem[]> {
      await maintenance.refuseWhileReadOnly(device.tenantId);
      const { value, problems: wrong } = attributeValues(json);
      if (partial || wrong.length === 0) {
        await setAttributes(device, value, 'client');
        activity.seen(device);
      }
      return wrong;
    },

    /** `v1/gateway/attributes`. */
    async gatewayAttributes(gateway: DeviceIdentity, json: unknown): Promise<PayloadProblem[]> {
      if (!requireGateway(gateway)) return [];
      await maintenance.refuseWhileReadOnly(gateway.tenantId);
      const { value, problems: wrong } = gatewayAttributes(json);
      for (const [name, attributes] of value) {
        const child = await childOf(gateway, name);
        if (!child) continue;
        await setAttributes(child, attributes, 'client');
        activity.seen(child);
      }
      activity.seen(gateway);
      return wrong;
    },

    /** `v1/gateway/connect` and `v1/gateway/disconnect`. */
    async gatewayConnection(gateway: DeviceIdentity, json: unknown, connected: boolean): Promise<PayloadProblem[]> {
      if (!requireGateway(gateway)) return [];
      activity.seen(gateway);
      const { value, problems: wrong } = gatewayDevice(json);
      if (!value) return wrong;
      const child = await childOf(gateway, value.device, value.type);
      if (child) await setConnected(child, connected);
      return wrong;
    },

    /** The device behind a gateway by the name the gateway uses (created on first mention), or undefined with the problem reported. */
    async gatewayChildNamed(gateway: DeviceIdentity, name: unknown): Promise<DeviceIdentity | undefined> {
      if (!requireGateway(gateway)) return undefined;
      const { value, problems: wrong } = gatewayDevice({ device: name });
      problems.reportAll(wrong, deviceLabel(gateway));
      return value ? childOf(gateway, value.device) : undefined;
    },

    /** Remembers how to close a session of the device; answers how to forget it. */
    trackSession(device: DeviceIdentity, close: () => void): () => void {
      const open = sessions.get(device.entityId) ?? new Set();
      open.add(close);
      sessions.set(device.entityId, open);
      return () => {
        open.delete(close);
        if (open.size === 0 && sessions.get(device.entityId) === open) sessions.delete(device.entityId);
      };
    },

    closeSessions,

    /** The device's token was rotated here: its cached lookups go, its sessions close (other instances hear of it by notification). */
    credentialsRotated(tenantId: string, entityId: number) {
      forgetTenant(tenantId);
      closeSessions(entityId);
    },

    /**
     * The writer took the points of a telemetry message of `device` (a gateway's: of the devices
     * behind it too): their lastActivityTime moves.
     */
    telemetryAccepted(device: DeviceIdentity, points: TelemetryPoint[]) {
      activity.seen(device);
      let previous = device.entityId;
      for (const point of points) {
        if (point.entityId === previous) continue;
        previous = point.entityId;
        activity.seen(point);
      }
    },

    /** Writes the last activity times that are due. */
    close: () => activity.close(),

    connected: (device: DeviceIdentity) => setConnected(device, true),
    disconnected: (device: DeviceIdentity) => setConnected(device, false),
  };
}

export type DeviceIngest = ReturnType<typeof deviceIngest>;
