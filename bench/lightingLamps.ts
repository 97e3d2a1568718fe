// The simulated street lamps of bench/lighting.ts, in a child process of their own (forked with
// an IPC channel), so that their 10,000 connections and their answers have an event loop and a
// file-descriptor table apart from the benchmark's pacing of the other devices. Each lamp is one
// mqtt.js client (MQTT 3.1.1, no keep-alive, no reconnect) subscribed to
// `v1/devices/me/rpc/request/+`, and does what the demo's lamps do (server/seed/demoDevices.ts
// `obeyCommands`): to `setDim` it answers `{"level": N}` on `v1/devices/me/rpc/response/{id}` and
// reports `{"dim_level": N}` on `v1/devices/me/telemetry`, both QoS 1, at once. Per lamp and level it
// keeps when the first setDim to that level arrived and when its report of that level was PUBACKed
// (Date.now(): the same clock as the parent's on the same machine).
import mqtt, { type MqttClient } from 'mqtt';

export interface LampIdentity { id: number; token: string }

/** What the parent asks. */
export type LampRequest =
  | { kind: 'connect'; url: string; lamps: LampIdentity[]; batch: number }
  | { kind: 'status' }
  | { kind: 'mark' }
  | { kind: 'times'; level: number }
  | { kind: 'stop' };

/** What the child answers. */
export type LampReply =
  | { kind: 'connected'; online: number; failed: number; seconds: number; firstError?: string }
  | { kind: 'status'; online: number; reported: Record<number, number>; commands: number; errors: number }
  | { kind: 'marked'; online: number; at: number }
  | { kind: 'times'; level: number; commandAt: (number | null)[]; reportedAt: (number | null)[]; onlineAtMark: boolean[] }
  | { kind: 'stopped' };

const RPC_REQUEST = 'v1/devices/me/rpc/request/';

class Lamp {
  client?: MqttClient;
  online = false;
  onlineAtMark = false;
  /** The level of its last PUBACKed report. */
  reported: number | null = null;
  /** level → ms of the first setDim to it, and of the PUBACK of the first report of it. */
  readonly commandAt = new Map<number, number>();
  readonly reportedAt = new Map<number, number>();
  readonly identity: LampIdentity;
  constructor(identity: LampIdentity) {
    this.identity = identity;
  }
}

const lamps: Lamp[] = [];
let commands = 0;
let errors = 0;

function obey(lamp: Lamp, client: MqttClient) {
  client.on('message', (topic, payload) => {
    if (!topic.startsWith(RPC_REQUEST)) return;
    const arrived = Date.now();
    const id = topic.slice(RPC_REQUEST.length);
    let level: number | undefined;
    try {
      const request = JSON.parse(payload.toString()) as { method?: string; params?: { level?: unknown } };
      if (request.method === 'setDim' && typeof request.params?.level === 'number') level = Math.round(request.params.level);
    } catch { /* answered as an error below */ }
    commands++;
    if (level === undefined) {
      client.publish(`v1/devices/me/rpc/response/${id}`, JSON.stringify({ error: 'unsupported' }), { qos: 1 });
      return;
    }
    if (!lamp.commandAt.has(level)) lamp.commandAt.set(level, arrived);
    client.publish(`v1/devices/me/rpc/response/${id}`, JSON.stringify({ level }), { qos: 1 }, (error) => {
      if (error) errors++;
    });
    client.publish('v1/devices/me/telemetry', JSON.stringify({ dim_level: level }), { qos: 1 }, (error) => {
      if (error) {
        errors++;
        return;
      }
      lamp.reported = level;
      if (!lamp.reportedAt.has(level)) lamp.reportedAt.set(level, Date.now());
    });
  });
}

function connectLamp(lamp: Lamp, url: string): Promise<void> {
  const client = mqtt.connect(url, {
    username: lamp.identity.token, clientId: `bench-lamp-${lamp.identity.id}`, protocolVersion: 4,
    reconnectPeriod: 0, connectTimeout: 60_000, keepalive: 0,
  });
  lamp.client = client;
  obey(lamp, client);
  client.on('close', () => {
    lamp.online = false;
  });
  return new Promise((resolve, reject) => {
    client.once('error', reject);
    client.once('connect', () => {
      client.subscribe(`${RPC_REQUEST}+`, { qos: 1 }, (error) => {
        if (error) return reject(error);
        client.off('error', reject);
        client.on('error', () => { /* the close counts it offline */ });
        lamp.online = true;
        resolve();
      });
    });
  });
}

const send = (reply: LampReply) => process.send!(reply);

async function handle(request: LampRequest) {
  switch (request.kind) {
    case 'connect': {
      const started = performance.now();
      let failed = 0;
      let firstError: string | undefined;
      const fresh = request.lamps.map((identity) => new Lamp(identity));
      lamps.push(...fresh);
      for (let i = 0; i < fresh.length; i += request.batch) {
        await Promise.all(fresh.slice(i, i + request.batch).map((lamp) => connectLamp(lamp, request.url).catch((error: Error) => {
          failed++;
          firstError ??= error.message;
          lamp.client?.end(true);
        })));
      }
      send({ kind: 'connected', online: lamps.filter((lamp) => lamp.online).length, failed, seconds: (performance.now() - started) / 1000, firstError });
      return;
    }
    case 'status': {
      const reported: Record<number, number> = {};
      let online = 0;
      for (const lamp of lamps) {
        if (!lamp.online) continue;
        online++;
        if (lamp.reported !== null) reported[lamp.reported] = (reported[lamp.reported] ?? 0) + 1;
      }
      send({ kind: 'status', online, reported, commands, errors });
      return;
    }
    case 'mark': {
      for (const lamp of lamps) lamp.onlineAtMark = lamp.online;
      send({ kind: 'marked', online: lamps.filter((lamp) => lamp.onlineAtMark).length, at: Date.now() });
      return;
    }
    case 'times':
      send({
        kind: 'times', level: request.level,
        commandAt: lamps.map((lamp) => lamp.commandAt.get(request.level) ?? null),
        reportedAt: lamps.map((lamp) => lamp.reportedAt.get(request.level) ?? null),
        onlineAtMark: lamps.map((lamp) => lamp.onlineAtMark),
      });
      return;
    case 'stop':
      await Promise.all(lamps.map((lamp) => lamp.client?.endAsync(true).catch(() => {})));
      send({ kind: 'stopped' });
      process.disconnect();
  }
}

process.on('message', (request: LampRequest) => {
  handle(request).catch((error: unknown) => {
    console.error(`[lamps] ${request.kind} failed:`, error);
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0));
