// The clients of bench/control-room.ts, in a process of their own so that their work is not the
// server's: the screens polling their paths over HTTP (GET /kpi-data of each widget, or a public-API
// board's component list; each screen its own session or API user), a light client
// reading GET /tenant every 100 ms, and devices publishing the city's telemetry over MQTT (QoS 1,
// bench/pacedPublisher.ts). Reads its orders as JSON from the file named by its one argument and
// writes what it measured as one JSON line on stdout.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { PacedDevice, publishPaced } from './pacedPublisher.ts';

export interface LoadOrders {
  baseUrl: string;
  mqttUrl: string;
  /** Each screen's bearer token (its own session or API user). */
  screens: string[];
  /** What each screen asks every `everyS`, each at its own phase. */
  paths: string[];
  everyS: number;
  durationS: number;
  lightToken: string;
  lightEveryMs: number;
  /** Points per second in all (0: none), from these devices, `keys` values a message. */
  ingestRate: number;
  devices: { id: number; access_token: string }[];
  keys: string[];
}

export interface LoadResult {
  times: number[];
  /** Bytes of all the screens' answers. */
  bytes: number;
  statuses: Record<string, number>;
  light: number[];
  acked: number;
  errors: number;
  pubackLatencies: number[];
  seconds: number;
}

const orders = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadOrders;

const devices = orders.devices.map((device) => new PacedDevice(device, { keys: orders.keys, window: 4, clientPrefix: 'control-room-', connectTimeoutMs: 30_000 }));
for (let at = 0; at < devices.length; at += 100) await Promise.all(devices.slice(at, at + 100).map((device) => device.connect(orders.mqttUrl)));

const times: number[] = [];
const statuses: Record<string, number> = {};
const light: number[] = [];
const started = performance.now();
const until = started + orders.durationS * 1000;

let bytes = 0;
/** A GET with keep-alive (fetch's pool), its whole body read: the status and its bytes. */
const get = async (path: string, token: string) => {
  const answer = await fetch(`${orders.baseUrl}${path}`, { headers: { authorization: token } });
  return { status: answer.status, bytes: (await answer.arrayBuffer()).byteLength };
};
const poll = async (token: string, path: string) => {
  await sleep(Math.random() * orders.everyS * 1000);
  while (performance.now() < until) {
    const at = performance.now();
    const { status, bytes: size } = await get(path, token).catch(() => ({ status: 0, bytes: 0 }));
    times.push(performance.now() - at);
    bytes += size;
    statuses[status] = (statuses[status] ?? 0) + 1;
    await sleep(Math.max(0, orders.everyS * 1000 - (performance.now() - at)));
  }
};
const lightClient = async () => {
  while (performance.now() < until) {
    const at = performance.now();
    await get('/tenant', orders.lightToken);
    light.push(performance.now() - at);
    await sleep(orders.lightEveryMs);
  }
};
const [run] = await Promise.all([
  orders.ingestRate > 0 ? publishPaced(devices, orders.ingestRate, orders.durationS) : undefined,
  ...orders.screens.flatMap((token) => orders.paths.map((path) => poll(token, path))),
  lightClient(),
]);
const result: LoadResult = {
  times, bytes, statuses, light, acked: run?.acked ?? 0, errors: run?.errors ?? 0, pubackLatencies: run?.latencies ?? [], seconds: (performance.now() - started) / 1000,
};
for (const device of devices) device.client.end(true);
// exits once the pipe has taken it all (a write to a pipe is asynchronous)
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
