// Devices publishing telemetry over MQTT at a paced rate, for the benchmarks that need other
// traffic (bench/engines.ts, bench/lighting.ts): one mqtt.js client per device, QoS 1, at most
// `window` messages in flight each, `keys` numeric values a message, paced by a token bucket every
// 10 ms; a run counts PUBACKs, errors and their latencies, and the ts range its points carry (the
// rows it stored lie within it).
import mqtt, { type MqttClient } from 'mqtt';
import type { Sql } from './deviceServer.ts';

const TOPIC = 'v1/devices/me/telemetry';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class PublishRun {
  acked = 0;
  errors = 0;
  latencies: number[] = [];
  start = performance.now();
  lastAck = 0;
  /** The run's first and last ts (ms): its stored rows are those in between. */
  fromTs = Date.now();
  toTs = Date.now();
}

export interface PacedOptions {
  /** The keys of each message, random values each. */
  keys: readonly string[];
  /** Messages in flight per device, at most. */
  window: number;
  /** The MQTT client id's prefix (the device id follows). */
  clientPrefix: string;
  connectTimeoutMs: number;
}

export class PacedDevice {
  client!: MqttClient;
  inflight = 0;
  budget = 0;
  running = false;
  lastTs = 0;
  run = new PublishRun();
  /**
   * A bench's own change to a message before it goes (a watched value crossing its threshold);
   * answers what to do once that message is PUBACKed, if anything.
   */
  shape?: (ts: number, values: Record<string, number>) => (() => void) | undefined;
  readonly device: { id: number; access_token: string };
  readonly options: PacedOptions;
  constructor(device: { id: number; access_token: string }, options: PacedOptions) {
    this.device = device;
    this.options = options;
  }

  connect(url: string): Promise<void> {
    this.client = mqtt.connect(url, {
      username: this.device.access_token, clientId: `${this.options.clientPrefix}${this.device.id}`, reconnectPeriod: 0, connectTimeout: this.options.connectTimeoutMs, keepalive: 0,
    });
    this.client.on('error', () => { /* counted through the publish callbacks */ });
    return new Promise((resolve, reject) => {
      this.client.once('connect', () => resolve());
      this.client.once('error', reject);
    });
  }

  pump = () => {
    while (this.running && this.budget >= 1 && this.inflight < this.options.window && this.client.connected) {
      this.budget--;
      const ts = this.lastTs = Math.max(Date.now(), this.lastTs + 1);
      const values: Record<string, number> = {};
      for (const key of this.options.keys) values[key] = Math.round(Math.random() * 10_000) / 100;
      const acknowledged = this.shape?.(ts, values);
      const sentAt = performance.now();
      const run = this.run;
      this.inflight++;
      this.client.publish(TOPIC, JSON.stringify({ ts, values }), { qos: 1 }, (error) => {
        this.inflight--;
        if (error) run.errors++;
        else {
          run.acked++;
          run.lastAck = performance.now();
          run.latencies.push(run.lastAck - sentAt);
          acknowledged?.();
        }
        this.pump();
      });
    }
  };

  async settle(timeoutMs: number) {
    for (const deadline = Date.now() + timeoutMs; this.inflight > 0 && Date.now() < deadline && this.client.connected;) await sleep(20);
  }
}

/** Publishes from every device, paced to `rate` points/s in all, for `seconds`; answers the run once the last PUBACKs are in. */
export async function publishPaced(devices: PacedDevice[], rate: number, seconds: number): Promise<PublishRun> {
  const run = new PublishRun();
  for (const device of devices) {
    device.run = run;
    device.running = true;
    device.budget = 1;
  }
  const perTick = rate / (devices[0]?.options.keys.length ?? 1) / devices.length / 100;
  const ticker = setInterval(() => {
    for (const device of devices) {
      device.budget = Math.min(device.budget + perTick, 2);
      device.pump();
    }
  }, 10);
  await sleep(seconds * 1000);
  clearInterval(ticker);
  for (const device of devices) device.running = false;
  await Promise.all(devices.map((device) => device.settle(60_000)));
  run.toTs = Date.now();
  return run;
}

/** The points of `keys` a run stored (rows within its ts range). */
export async function storedPoints(db: Sql, keys: readonly string[], run: PublishRun): Promise<number> {
  const [{ count }] = await db.query<{ count: number }>(`SELECT count(*)::float8 AS count FROM telemetry
    WHERE key IN (${keys.map((k) => `'${k}'`).join(', ')}) AND ts >= to_timestamp(${run.fromTs / 1000}) AND ts <= to_timestamp(${run.toTs / 1000})`);
  return count;
}
