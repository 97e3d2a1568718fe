// The demo comes alive: on first start 30 days of history (DEMO_HISTORY_DAYS) are written through
// the telemetry writer (in the background, so the server serves at once), and with SIMULATE=on
// every demo device connects to the server's own MQTT listener as a real client and reports every
// few seconds — the energy meters through their region's gateway (v1/gateway/telemetry).
import mqtt, { type MqttClient } from 'mqtt';
import { simulatedDevices, type SimulatedDevice } from '../db/deviceQueries.ts';
import type { Database } from '../db/database.ts';
import type { TelemetryPoint } from '../telemetry/telemetryPoint.ts';
import type { TelemetryWriter } from '../telemetry/telemetryWriter.ts';
import { BACKFILL_DAYS, BACKFILL_STEP_MS, DEVICE_KINDS, seededRandom, type DeviceKind } from './demoData.ts';
import { demoReading, type DemoDeviceState } from './demoTelemetry.ts';

const kindOf = (device: SimulatedDevice): DeviceKind | undefined => DEVICE_KINDS.find((kind) => kind.category === device.category);

/** Counters start somewhere plausible and differ per device. */
const initialState = (device: SimulatedDevice): DemoDeviceState => ({ energy: device.energy ?? 1000 + (device.entityId % 97) * 13 });

export interface BackfillOptions { days?: number; stepMs?: number; end?: number; onProgress?(done: number, total: number): void }

/** Writes `days` of history for every demo device, one reading per `stepMs`, ending at `end`. */
export async function backfillDemoTelemetry(db: Database, writer: TelemetryWriter, options: BackfillOptions = {}): Promise<number> {
  const { days = BACKFILL_DAYS, stepMs = BACKFILL_STEP_MS, end = Math.floor(Date.now() / stepMs) * stepMs } = options;
  const devices = (await simulatedDevices(db)).filter((device) => kindOf(device));
  const start = end - days * 24 * 3_600_000;
  const random = seededRandom(7);
  const pending: Promise<void>[] = [];
  let written = 0;
  for (const [index, device] of devices.entries()) {
    const kind = kindOf(device)!;
    const state = initialState(device);
    const points: TelemetryPoint[] = [];
    for (let ts = start; ts < end; ts += stepMs) {
      for (const [key, value] of Object.entries(demoReading(kind, ts, stepMs, state, random))) {
        points.push({ tenantId: device.tenantId, entityId: device.entityId, key, ts, value });
      }
    }
    // Enqueue waits while the writer's queue is full, so memory stays bounded. A batch that fails
    // now is reported by Promise.all below, not as an unhandled rejection before it is reached.
    const { committed } = await writer.enqueue(points);
    committed.catch(() => {});
    pending.push(committed);
    written += points.length;
    options.onProgress?.(index + 1, devices.length);
  }
  await Promise.all(pending);
  return written;
}

export interface DemoSimulation { stop(): Promise<void> }

const RPC_REQUEST = 'v1/devices/me/rpc/request/';

/**
 * A demo lamp obeys like a real one: it takes its commands (setDim with a level 0-100), answers
 * each on `v1/devices/me/rpc/response/{id}` and reports its new `dim_level` at once.
 */
function obeyCommands(client: MqttClient, state: DemoDeviceState, report: () => void) {
  client.on('connect', () => client.subscribe(`${RPC_REQUEST}+`, { qos: 1 }));
  client.on('message', (topic, payload) => {
    if (!topic.startsWith(RPC_REQUEST)) return;
    const id = topic.slice(RPC_REQUEST.length);
    let answer: Record<string, unknown>;
    try {
      const { method, params } = JSON.parse(payload.toString()) as { method?: string; params?: { level?: unknown } };
      const level = params?.level;
      if (method !== 'setDim' || typeof level !== 'number' || level < 0 || level > 100) answer = { error: `unsupported: ${String(method)}` };
      else {
        state.dimLevel = Math.round(level);
        answer = { level: state.dimLevel };
      }
    } catch {
      answer = { error: 'not JSON' };
    }
    client.publish(`v1/devices/me/rpc/response/${id}`, JSON.stringify(answer), { qos: 1 });
    if (!('error' in answer)) report();
  });
}

/** Every reporting period, with a little jitter so the devices do not all speak at once. */
const PERIOD_MS = 5_000;

/** Connects each demo device (and gateway) to the MQTT listener at `url` and reports readings. */
export async function startDemoSimulation(db: Database, url: string, periodMs = PERIOD_MS): Promise<DemoSimulation> {
  const devices = await simulatedDevices(db);
  const random = seededRandom(Date.now() % 1000);
  const clients: MqttClient[] = [];
  const timers: NodeJS.Timeout[] = [];
  const connect = (token: string, id: number) => {
    const client = mqtt.connect(url, { username: token, clientId: `terrasight-demo-${id}`, reconnectPeriod: 5_000, connectTimeout: 10_000 });
    client.on('error', () => { /* reconnects by itself */ });
    clients.push(client);
    return client;
  };
  const every = (work: () => void) => {
    const slot = timers.length;
    const tick = () => {
      work();
      timers[slot] = setTimeout(tick, periodMs * (0.8 + random() * 0.4)).unref();
    };
    timers.push(setTimeout(tick, random() * periodMs).unref());
  };

  const byGateway = new Map<number, { device: SimulatedDevice; kind: DeviceKind; state: DemoDeviceState }[]>();
  for (const device of devices) {
    const kind = kindOf(device);
    if (!kind || device.isGateway) continue;
    const state = initialState(device);
    if (kind.viaGateway && device.gatewayId !== null && device.gatewayName) {
      byGateway.set(device.gatewayId, [...(byGateway.get(device.gatewayId) ?? []), { device, kind, state }]);
      continue;
    }
    const client = connect(device.token, device.entityId);
    let last = Date.now();
    const report = () => {
      const now = Date.now();
      if (client.connected) client.publish('v1/devices/me/telemetry', JSON.stringify(demoReading(kind, now, now - last, state, random)), { qos: 1 });
      last = now;
    };
    every(report);
    if (kind.category === 'lighting') obeyCommands(client, state, report);
  }
  for (const gateway of devices.filter((device) => device.isGateway)) {
    const children = byGateway.get(gateway.entityId);
    if (!children) continue;
    const client = connect(gateway.token, gateway.entityId);
    client.on('connect', () => {
      for (const { device } of children) client.publish('v1/gateway/connect', JSON.stringify({ device: device.gatewayName }), { qos: 1 });
    });
    let last = Date.now();
    every(() => {
      const now = Date.now();
      const message = Object.fromEntries(children.map(({ device, kind, state }) =>
        [device.gatewayName, [{ ts: now, values: demoReading(kind, now, now - last, state, random) }]]));
      if (client.connected) client.publish('v1/gateway/telemetry', JSON.stringify(message), { qos: 1 });
      last = now;
    });
  }
  return {
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(clients.map((client) => client.endAsync(true)));
    },
  };
}
