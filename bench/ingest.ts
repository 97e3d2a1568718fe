// `node bench/ingest.ts [sustained|flood|crash] [--postgres] [--clients N] [--window W] [--duration S] [--rate P] [--keepalive S]`
// `node bench/ingest.ts --devices N [--period S] [--duration S] [--postgres]` (the city mode)
// `node bench/ingest.ts --connected N [--duration S] [--postgres]` (the connected mode)
// Device ingestion over MQTT (ThingsBoard's device API, the server's own listener), each mode on
// a fresh server process (`node server/main.ts`, SEED=demo, SIMULATE=off, free ports; embedded
// PGlite in a temporary DATA_DIR, a throw-away PostgreSQL with --postgres, or DATABASE_URL).
//
// The demo database is seeded (and its history written) by a first start that is then stopped, so
// the measured server does nothing but the benchmark's ingestion; devices beyond the demo's are
// added by SQL. What is stored is counted in the database itself once the measured server has
// stopped cleanly (PGlite allows one process per data directory), never from what was sent or
// acknowledged. Every figure comes with the cores used by the server, by this process and by the
// rest of the machine meanwhile (the machines are shared).
//
// - sustained (default): --clients 50 mqtt.js devices, each keeping --window 16 QoS 1 publishes
//   in flight for --duration 30 s; 10 numeric keys a message, each message with its own ts. Prints
//   stored points/s, PUBACK latency p50/p95/p99 and the server's RSS (sampled every second).
//   Goal on 2 cores: ≥ 30,000 stored points/s (embedded).
// - flood: --rate points/s offered (default 300,000, ten times the goal) for --duration 60 s by
//   --clients 200 devices, half QoS 1 (window 64), half QoS 0 (paced, waiting only for the
//   socket), while a user signed in as admin@demo.city reads GET /tenant every 100 ms. Then waits
//   for the backlog: the QoS 1 messages in flight and one last message of each QoS 0 client, sent
//   QoS 1 (the server handles a client's messages in order, so its PUBACK means the rest was
//   handled). Prints /tenant p50/p95/p99, the server's RSS (goal < 1 GB), whether it stayed up,
//   whether every PUBACKed point is stored (each acknowledged message looked up) and the QoS 0
//   points written vs stored.
// - city (with --devices, default 10,000): a city's shape, many devices each sending little. Each
//   device is its own MQTT connection (bench/lightMqtt.ts, one process holds them all) and sends
//   one QoS 1 message of 10 keys every --period 5 s (20,000 points/s offered by 10,000 devices),
//   each at its own phase, whatever is still in flight, for --duration 60 s. Prints offered and
//   stored points/s, PUBACK p50/p95/p99/max, whether every PUBACKed point is stored and the
//   server's RSS. Goals on 2 cores: every point stored, PUBACK p99 ≤ 1 s, RSS < 1 GB; the ceiling
//   (a shorter --period) ≥ 30,000 stored points/s embedded, ≥ 40,000 on PostgreSQL.
// - connected (with --connected, default 100,000): N devices connected at once with MQTT keep-alive
//   60 s, 1 % of them sending 10 keys every 5 s for --duration 60 s while a user reads GET /tenant
//   every 100 ms; then the server restarts on the same data and every device reconnects, backing
//   off with jitter (the first retry within 1 s, then up to twice as long each time, at most 30 s).
//   Prints the server's RSS (idle, with the N devices connected and idle, the most while they
//   report), what a connected device costs ((connected − idle) / N) and so the RSS 100,000 would
//   need, the reader's delays, and how long after the restart all devices were accepted again.
//   Goals: RSS < 2 GB, the reader delayed ≤ 100 ms, all back within 60 s. One
//   loopback address has ~28,000 source ports: past 50,000 devices they come from 127.0.0.1–.8.
//   Both processes need an open-file limit above N, and past 40,000 the server is given the heap
//   they need (docs/operations.md "Devices connected at once").
// - crash: QoS 1 for --duration 15 s, then `kill -9` of the server mid-ingest, a restart on the
//   same data (the killed server's lock file is still there), and every PUBACKed message (device,
//   ts: all 10 keys) looked up: PUBACKed, found, missing (goal 0).
import mqtt, { type MqttClient } from 'mqtt';
import { LightMqttDevice } from './lightMqtt.ts';
import { heapNeededMb } from '../server/deviceCapacity.ts';
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { cores, fmt, latencyLine, liveServers, log, makeTarget, openSql, percentile, prepare, processFigures, sleep, startServer, watchServer, type Device, type Sql, type Target } from './deviceServer.ts';
import { machineLine } from './launch.ts';
import { argument } from './arguments.ts';

const mode = (['sustained', 'flood', 'crash', 'city', 'connected'] as const).find((name) => process.argv.slice(2).includes(name))
  ?? (process.argv.includes('--connected') ? 'connected' : process.argv.includes('--devices') ? 'city' : 'sustained');
const usePostgres = process.argv.includes('--postgres');
const defaults = {
  sustained: { clients: 50, window: 16, duration: 30 }, flood: { clients: 200, window: 64, duration: 60 }, crash: { clients: 50, window: 16, duration: 15 },
  city: { clients: 10_000, window: 1, duration: 60 }, connected: { clients: 100_000, window: 1, duration: 60 },
}[mode];
const clientCount = Number(argument('--connected', argument('--devices', argument('--clients', String(defaults.clients)))));
const periodS = Number(argument('--period', '5'));
const windowSize = Number(argument('--window', String(defaults.window)));
const durationS = Number(argument('--duration', String(defaults.duration)));
const floodRate = Number(argument('--rate', '300000'));
// MQTT keep-alive of the clients: off by default, so that a client giving up on a server that is
// minutes behind (its PINGREQ waits behind its own backlog) does not count as the server's loss.
const keepalive = Number(argument('--keepalive', '0'));
const KEYS = 10;
const TOPIC = 'v1/devices/me/telemetry';
/** How long the server is left alone before its RSS is read (idle, and once all are connected). */
const SETTLE_MS = 10_000;

// ---------------------------------------------------------------------------------------------
// Load: mqtt.js clients, one device each.

const keyOf = (qos: 0 | 1, i: number) => `bench${qos}_${i}`;

/** Distinct ts per message and device (now, or 1 ms after the device's last). */
const lastTs = new Map<number, number>();
function nextTs(device: Device): number {
  const ts = Math.max(Date.now(), (lastTs.get(device.id) ?? 0) + 1);
  lastTs.set(device.id, ts);
  return ts;
}

function payload(qos: 0 | 1, ts: number): string {
  const values: Record<string, number> = {};
  for (let i = 0; i < KEYS; i++) values[keyOf(qos, i)] = Math.round(Math.random() * 100_000) / 100;
  return JSON.stringify({ ts, values });
}

class Stats {
  attempted = [0, 0];
  done = [0, 0]; // QoS 0: written to the socket; QoS 1: PUBACKed
  errors = 0;
  /** Connections closed before the benchmark ended them (keep-alive timeouts, the server closing them). */
  disconnects = [0, 0];
  firstDisconnect = [NaN, NaN];
  latencies: number[] = [];
  /** PUBACKed points per second since `start`. */
  perSecond: number[] = [];
  /** ts of each PUBACKed message, per device. */
  acked = new Map<number, number[]>();
  start = performance.now();
  lastAck = 0;
}

class Publisher {
  client!: MqttClient;
  inflight = 0;
  budget = Infinity;
  running = false;
  ending = false;
  private waitingDrain = false;
  private readonly device: Device;
  readonly qos: 0 | 1;
  private readonly window: number;
  private readonly stats: Stats;
  private readonly record: boolean;
  constructor(device: Device, qos: 0 | 1, window: number, stats: Stats, record: boolean) {
    this.device = device;
    this.qos = qos;
    this.window = window;
    this.stats = stats;
    this.record = record;
  }

  connect(url: string, tag: string): Promise<void> {
    this.client = mqtt.connect(url, { username: this.device.access_token, clientId: `bench-${tag}-${this.device.id}`, reconnectPeriod: 0, connectTimeout: 30_000, keepalive });
    this.client.on('error', () => { /* counted through the publish callbacks */ });
    this.client.once('close', () => {
      if (this.ending) return;
      this.stats.disconnects[this.qos]++;
      if (Number.isNaN(this.stats.firstDisconnect[this.qos])) this.stats.firstDisconnect[this.qos] = (performance.now() - this.stats.start) / 1000;
    });
    return new Promise((resolve, reject) => {
      this.client.once('connect', () => resolve());
      this.client.once('error', reject);
    });
  }

  pump = () => {
    const { stats, qos } = this;
    while (this.running && this.budget >= 1 && this.client.connected) {
      if (qos === 1 && this.inflight >= this.window) return;
      if (qos === 0) {
        if (this.inflight >= this.window) return;
        if (this.client.stream.writableNeedDrain) {
          if (!this.waitingDrain) {
            this.waitingDrain = true;
            this.client.stream.once('drain', () => {
              this.waitingDrain = false;
              this.pump();
            });
          }
          return;
        }
      }
      this.budget--;
      const ts = nextTs(this.device);
      const sentAt = performance.now();
      this.inflight++;
      stats.attempted[qos]++;
      this.client.publish(TOPIC, payload(qos, ts), { qos }, (error) => {
        this.inflight--;
        if (error) stats.errors++;
        else {
          stats.done[qos]++;
          if (qos === 1) {
            const now = performance.now();
            stats.latencies.push(now - sentAt);
            stats.lastAck = now;
            const second = Math.floor((now - stats.start) / 1000);
            stats.perSecond[second] = (stats.perSecond[second] ?? 0) + KEYS;
            if (this.record) {
              let list = stats.acked.get(this.device.id);
              if (!list) stats.acked.set(this.device.id, (list = []));
              list.push(ts);
            }
          }
        }
        this.pump();
      });
    }
  };

  /**
   * A QoS 0 client's last message, sent QoS 1: the listener hands a client's messages to the
   * writer in order and the writer commits in order, so its PUBACK means everything this client
   * wrote before it was handled. Counted as one more QoS 0 message written.
   */
  fence(timeoutMs: number): Promise<boolean> {
    if (!this.client.connected) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.client.once('close', () => resolve(false));
      this.stats.attempted[0]++;
      this.client.publish(TOPIC, payload(0, nextTs(this.device)), { qos: 1 }, (error) => {
        clearTimeout(timer);
        if (!error) this.stats.done[0]++;
        resolve(!error);
      });
    });
  }

  async settle(timeoutMs: number) {
    for (const deadline = Date.now() + timeoutMs; this.inflight > 0 && Date.now() < deadline && this.client.connected;) await sleep(20);
  }
}

async function connectAll(publishers: Publisher[], url: string, tag: string) {
  for (let i = 0; i < publishers.length; i += 50) await Promise.all(publishers.slice(i, i + 50).map((p) => p.connect(url, tag)));
}

/** Runs `publishers` for `seconds`; with `rate` (points/s in all), paced by a token bucket every 10 ms. */
async function run(publishers: Publisher[], stats: Stats, seconds: number, rate?: number, during?: Promise<unknown>) {
  const perTick = rate ? rate / KEYS / publishers.length / 100 : Infinity;
  for (const p of publishers) {
    p.running = true;
    p.budget = rate ? perTick : Infinity;
  }
  stats.start = performance.now();
  const ticker = rate ? setInterval(() => {
    for (const p of publishers) {
      p.budget = Math.min(p.budget + perTick, perTick * 2);
      p.pump();
    }
  }, 10) : undefined;
  for (const p of publishers) p.pump();
  await Promise.race([sleep(seconds * 1000), during ?? new Promise(() => {})]);
  clearInterval(ticker);
  for (const p of publishers) p.running = false;
  return (performance.now() - stats.start) / 1000;
}

async function closeAll(publishers: Publisher[], force: boolean) {
  for (const p of publishers) p.ending = true;
  await Promise.all(publishers.map((p) => Promise.race([p.client.endAsync(force).catch(() => {}), sleep(10_000)])));
}

// ---------------------------------------------------------------------------------------------
// Checks in the database.

async function countRows(db: Sql, qos: 0 | 1): Promise<number> {
  const [{ count }] = await db.query<{ count: number }>(`SELECT count(*)::float8 AS count FROM telemetry WHERE key LIKE 'bench${qos}\\_%'`);
  return count;
}

/**
 * Looks up every PUBACKed message: found when all its keys are stored at its ts. Also counts the
 * messages stored without a PUBACK (committed, the acknowledgement lost), `besides` those sent later.
 */
async function verifyAcked(db: Sql, acked: Map<number, number[]>, besides = new Map<number, number[]>()) {
  let total = 0, found = 0, partial = 0, storedNotAcked = 0;
  const missingExamples: string[] = [];
  for (const [entity, list] of acked) {
    const rows = await db.query<{ ms: number; n: number }>(`
      SELECT round(extract(epoch FROM ts) * 1000)::float8 AS ms, count(*)::float8 AS n
      FROM telemetry WHERE entity_id = ${entity} AND key LIKE 'bench1\\_%' GROUP BY 1`);
    const stored = new Map(rows.map((row) => [Number(row.ms), Number(row.n)]));
    for (const ts of list) {
      total++;
      const n = stored.get(ts) ?? 0;
      if (n === KEYS) found++;
      else {
        if (n > 0) partial++;
        if (missingExamples.length < 5) missingExamples.push(`entity ${entity} ts ${new Date(ts).toISOString()} (${n} of ${KEYS} keys)`);
      }
      stored.delete(ts);
    }
    for (const ts of besides.get(entity) ?? []) stored.delete(ts);
    storedNotAcked += stored.size;
  }
  return { total, found, missing: total - found, partial, storedNotAcked, missingExamples };
}

// ---------------------------------------------------------------------------------------------
// Reporting.

/** Per-second PUBACKed points, whole seconds only (the last one is partial). */
const rateSpread = (perSecond: number[], seconds: number) => {
  const full = Array.from({ length: Math.floor(seconds) }, (_, i) => perSecond[i] ?? 0).slice(1).sort((a, b) => a - b);
  return full.length ? `${fmt(full[0])} / ${fmt(percentile(full, 50))} / ${fmt(full.at(-1)!)}` : '–';
};
const header = (target: Target, details: string) =>
  console.log(`\nDevice ingestion — ${mode}, ${details}, ${target.label} — ${machineLine()} · ${Math.round(totalmem() / 2 ** 30)} GB RAM`);

// ---------------------------------------------------------------------------------------------
// Modes.

async function sustained(target: Target) {
  const devices = await prepare(target, clientCount);
  const server = await startServer(target);
  const stats = new Stats();
  const publishers = devices.map((device) => new Publisher(device, 1, windowSize, stats, false));
  await connectAll(publishers, server.mqttUrl, 'sustained');
  log(`${publishers.length} clients connected; publishing for ${durationS} s`);
  const watch = watchServer(server);
  await run(publishers, stats, durationS);
  await Promise.all(publishers.map((p) => p.settle(60_000)));
  const elapsed = (stats.lastAck - stats.start) / 1000;
  const use = watch.finish();
  await closeAll(publishers, false);
  await server.stop();
  const db = await openSql(target);
  const stored = await countRows(db, 1);
  await db.close();

  header(target, `${clientCount} clients × ${windowSize} in flight, QoS 1, ${KEYS} keys a message, ${durationS} s`);
  console.log('| stored points/s | stored points | PUBACKed points | PUBACKed points/s, each second: min / median / max | PUBACK p50 / p95 / p99 ms | server RSS before → max (MB) | cores used: server / bench / other processes |');
  console.log('| ---: | ---: | ---: | --- | --- | ---: | --- |');
  console.log(`| ${fmt(stored / elapsed)} | ${fmt(stored)} | ${fmt(stats.done[1] * KEYS)} | ${rateSpread(stats.perSecond, elapsed)} | ${latencyLine(stats.latencies)} | ${fmt(use.idleRssMb)} → ${fmt(use.maxRssMb)} | ${cores(use)} |`);
  console.log(`Run time ${fmt(elapsed, 1)} s (first publish to last PUBACK); publish errors ${stats.errors}; goal ≥ 30,000 stored points/s: ${stored / elapsed >= 30_000 ? 'met' : 'NOT met'}.`);
}

/** GET /tenant every 100 ms as a signed-in user until `stop` resolves. */
async function tenantReader(base: string, stop: Promise<unknown>) {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }),
  });
  const { access_token: token } = await login.json() as { access_token: string };
  const times: { at: number; ms: number }[] = [];
  let failures = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  while (!stopped) {
    const started = performance.now();
    try {
      const response = await fetch(`${base}/tenant`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.ok) times.push({ at: started, ms: performance.now() - started });
      else failures++;
    } catch {
      failures++;
    }
    await sleep(Math.max(0, 100 - (performance.now() - started)));
  }
  return { times, failures };
}

async function flood(target: Target) {
  const devices = await prepare(target, clientCount);
  const server = await startServer(target);
  const stats = new Stats();
  const half = Math.ceil(devices.length / 2);
  const publishers = devices.map((device, i) => new Publisher(device, i < half ? 1 : 0, windowSize, stats, true));
  await connectAll(publishers, server.mqttUrl, 'flood');
  log(`${publishers.length} clients connected (${half} QoS 1, ${devices.length - half} QoS 0); offering ${fmt(floodRate)} points/s for ${durationS} s`);
  let endReads!: () => void;
  const readsEnd = new Promise<void>((resolve) => (endReads = resolve));
  const reads = tenantReader(server.base, readsEnd);
  const watch = watchServer(server);
  const serverDied = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (!server.alive()) {
        clearInterval(timer);
        resolve();
      }
    }, 200);
    void readsEnd.then(() => clearInterval(timer));
  });
  const elapsed = await run(publishers, stats, durationS, floodRate, serverDied);
  const sentQos1 = stats.done[1];
  const writtenQos0 = stats.done[0];
  log('flood over; waiting for the messages in flight');
  const floodEnd = performance.now();
  await Promise.all(publishers.map((p) => p.settle(1_800_000)));
  const fenced = await Promise.all(publishers.filter((p) => p.qos === 0).map((p) => p.fence(1_800_000)));
  const drainedS = (performance.now() - stats.start) / 1000 - elapsed;
  await closeAll(publishers, false);
  endReads();
  const { times, failures } = await reads;
  const stayedUp = server.alive();
  const use = watch.finish();
  await server.stop();
  const db = await openSql(target);
  const check = await verifyAcked(db, stats.acked);
  const stored0 = await countRows(db, 0);
  const stored1 = await countRows(db, 1);
  await db.close();

  const perS = (n: number) => fmt(n / elapsed);
  const during = times.filter((t) => t.at < floodEnd).map((t) => t.ms);
  const after = times.filter((t) => t.at >= floodEnd).map((t) => t.ms);
  header(target, `${fmt(floodRate)} points/s offered for ${durationS} s by ${half} QoS 1 clients (window ${windowSize}) and ${devices.length - half} QoS 0 clients`);
  console.log('| GET /tenant every 100 ms: p50 / p95 / p99 ms during the flood | the same while the backlog drains | /tenant failures | server RSS before → max (MB) | server stayed up | cores used: server / bench / other processes |');
  console.log('| --- | --- | ---: | --- | --- | --- |');
  console.log(`| ${latencyLine(during)} (${during.length} reads) | ${latencyLine(after)} (${after.length} reads, ${fmt(drainedS)} s) | ${failures} | ${fmt(use.idleRssMb)} → ${fmt(use.maxRssMb)} (VmHWM ${fmt(use.hwmMb)}) | ${stayedUp ? 'yes' : 'NO'} | ${cores(use)} |`);
  console.log('');
  console.log('| | offered (points/s, handed to mqtt.js) | during the flood (points/s) | in all | stored | not stored |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  console.log(`| QoS 1 | ${perS(stats.attempted[1] * KEYS)} | ${perS(sentQos1 * KEYS)} PUBACKed | ${fmt(stats.done[1] * KEYS)} PUBACKed | ${fmt(stored1)} | ${fmt(check.missing * KEYS)} of the PUBACKed |`);
  console.log(`| QoS 0 | ${perS(stats.attempted[0] * KEYS)} | ${perS(writtenQos0 * KEYS)} written to the socket | ${fmt(stats.done[0] * KEYS)} written | ${fmt(stored0)} | ${fmt(stats.done[0] * KEYS - stored0)} of the written |`);
  console.log(`Stored ${fmt((stored0 + stored1) / (elapsed + drainedS))} points/s over the flood and the drain (${fmt(elapsed + drainedS)} s). After the flood the server needed ${fmt(drainedS, 1)} s more to acknowledge the QoS 1 messages in flight and each QoS 0 client's last message, sent QoS 1 (${fenced.filter(Boolean).length} of ${fenced.length} acknowledged): the QoS 0 backlog waited in the kernel's socket buffers.`);
  const closed = (qos: 0 | 1) => `${stats.disconnects[qos]}${stats.disconnects[qos] ? ` (the first after ${fmt(stats.firstDisconnect[qos], 1)} s)` : ''}`;
  console.log(`Connections closed before the end (MQTT keep-alive ${keepalive} s): QoS 1 clients ${closed(1)}, QoS 0 clients ${closed(0)}.`);
  console.log(`PUBACK p50 / p95 / p99 ms: ${latencyLine(stats.latencies)}; publish errors ${stats.errors}; PUBACKed messages ${fmt(check.total)}, found ${fmt(check.found)}, missing ${fmt(check.missing)} (partial ${check.partial}), stored without a PUBACK ${fmt(check.storedNotAcked)}.`);
  if (check.missingExamples.length) console.log(`Missing, e.g.: ${check.missingExamples.join('; ')}`);
  const p95 = percentile(Float64Array.from(during).sort(), 95);
  console.log(`Goals: RSS < 1 GB ${Math.max(use.maxRssMb, use.hwmMb) < 1024 ? 'met' : 'NOT met'}; stayed up ${stayedUp ? 'met' : 'NOT met'}; every PUBACKed point stored ${check.missing === 0 ? 'met' : 'NOT met'}; /tenant p95 during the flood ${fmt(p95, 1)} ms.`);
}

/**
 * Connects every device, `concurrency` handshakes at a time; answers them in order. Past 50,000
 * connections the source ports of one loopback address run out: devices spread over 127.0.0.1–.8.
 */
async function connectLight(devices: Device[], mqttUrl: string, tag: string, keepaliveS = 0, concurrency = 200): Promise<LightMqttDevice[]> {
  const { hostname, port } = new URL(mqttUrl);
  const clients = devices.map((device, i) => new LightMqttDevice({
    host: hostname, port: Number(port), username: device.access_token, clientId: `bench-${tag}-${device.id}`, keepalive: keepaliveS,
    localAddress: devices.length > 50_000 ? `127.0.0.${1 + (i % 8)}` : undefined,
  }));
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < clients.length) await clients[next++].connect();
  }));
  return clients;
}

async function city(target: Target) {
  const devices = await prepare(target, clientCount);
  const server = await startServer(target);
  const connectStart = performance.now();
  const clients = await connectLight(devices, server.mqttUrl, 'city');
  log(`${fmt(clients.length)} devices connected in ${fmt((performance.now() - connectStart) / 1000, 1)} s; each sends ${KEYS} keys every ${periodS} s for ${durationS} s`);
  let disconnects = 0;
  for (const client of clients) client.onClose = () => disconnects++;
  const latencies: number[] = [];
  const perSecond: number[] = [];
  let sent = 0, acked = 0, errors = 0, lastAck = 0;
  const watch = watchServer(server);
  const start = performance.now();
  const fromTs = Date.now();
  // Each device at its own phase within the period, on 10 ms slots of one timer.
  const periodMs = periodS * 1000;
  const slots = Math.max(1, Math.round(periodMs / 10));
  const bySlot: number[][] = Array.from({ length: slots }, () => []);
  clients.forEach((_, i) => bySlot[Math.floor(Math.random() * slots)].push(i));
  const pending: Promise<void>[] = [];
  const publish = (index: number) => {
    const ts = Date.now();
    const values: Record<string, number> = {};
    for (let k = 0; k < KEYS; k++) values[`city_${k}`] = Math.round(Math.random() * 100_000) / 100;
    const sentAt = performance.now();
    sent++;
    pending.push(clients[index].publish(TOPIC, JSON.stringify({ ts, values })).then(() => {
      const now = lastAck = performance.now();
      acked++;
      latencies.push(now - sentAt);
      const second = Math.floor((now - start) / 1000);
      perSecond[second] = (perSecond[second] ?? 0) + KEYS;
    }, () => void errors++));
  };
  let slot = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      // Every slot whose time has come (a late timer catches up rather than dropping messages).
      const due = Math.floor((performance.now() - start) / 10);
      for (; slot <= due; slot++) {
        if (slot * 10 >= durationS * 1000) {
          clearInterval(timer);
          return resolve();
        }
        for (const index of bySlot[slot % slots]) publish(index);
      }
    }, 10);
  });
  const offeredS = (performance.now() - start) / 1000;
  log(`${fmt(sent)} messages sent; waiting for their PUBACKs`);
  await Promise.race([Promise.all(pending), sleep(300_000)]);
  const toTs = Date.now();
  const elapsed = (lastAck - start) / 1000;
  const use = watch.finish();
  await Promise.all(clients.map((client) => client.end()));
  await server.stop();
  const db = await openSql(target);
  const [{ count: stored }] = await db.query<{ count: number }>(`SELECT count(*)::float8 AS count FROM telemetry
    WHERE key LIKE 'city\\_%' AND ts >= to_timestamp(${fromTs / 1000}) AND ts <= to_timestamp(${toTs / 1000})`);
  await db.close();

  const sorted = Float64Array.from(latencies).sort();
  const p99 = percentile(sorted, 99);
  header(target, `${fmt(clients.length)} devices, one MQTT connection each, QoS 1, ${KEYS} keys every ${periodS} s (${fmt(clients.length * KEYS / periodS)} points/s offered), ${durationS} s`);
  console.log('| offered points/s | stored points/s | PUBACKed points / stored | PUBACK p50 / p95 / p99 ms | PUBACK max ms | PUBACKed points/s, each second: min / median / max | server RSS before → max (MB) | cores used: server / bench / other processes |');
  console.log('| ---: | ---: | --- | --- | ---: | --- | ---: | --- |');
  console.log(`| ${fmt(sent * KEYS / offeredS)} | ${fmt(stored / elapsed)} | ${fmt(acked * KEYS)} / ${fmt(stored)} | ${latencyLine(latencies)} | ${fmt(sorted.at(-1) ?? NaN)} | ${rateSpread(perSecond, elapsed)} | ${fmt(use.idleRssMb)} → ${fmt(use.maxRssMb)} | ${cores(use)} |`);
  console.log(`Run time ${fmt(elapsed, 1)} s (first publish to last PUBACK); publish errors ${errors}; connections lost ${disconnects}.`);
  console.log(`Goals: every PUBACKed point stored ${stored >= acked * KEYS ? 'met' : 'NOT met'}; PUBACK p99 ≤ 1 s ${p99 <= 1000 ? 'met' : 'NOT met'}; RSS < 1 GB ${use.maxRssMb < 1024 ? 'met' : 'NOT met'}.`);
}

/** Sends 10 keys from each of `devices` every `periodS` s, each at its own phase, until `stop` resolves; answers the PUBACK latencies. */
async function report(devices: LightMqttDevice[], periodS: number, stop: Promise<unknown>) {
  const latencies: number[] = [];
  let errors = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  await Promise.all(devices.map(async (device) => {
    await sleep(Math.random() * periodS * 1000);
    while (!stopped) {
      const values: Record<string, number> = {};
      for (let k = 0; k < KEYS; k++) values[`city_${k}`] = Math.round(Math.random() * 100_000) / 100;
      const sentAt = performance.now();
      const acked = device.publish(TOPIC, JSON.stringify({ ts: Date.now(), values })).then(() => latencies.push(performance.now() - sentAt), () => void errors++);
      await Promise.race([acked, sleep(periodS * 1000)]);
      await sleep(Math.max(0, periodS * 1000 - (performance.now() - sentAt)));
    }
  }));
  return { latencies, errors };
}

async function connected(target: Target) {
  const devices = await prepare(target, clientCount);
  // npm start's heap holds 40,960 devices: more need the heap docs/operations.md names
  const heap = clientCount > 40_000 ? [`--max-old-space-size=${heapNeededMb(clientCount)}`] : [];
  let server = await startServer(target, false, heap);
  await sleep(SETTLE_MS); // the start's own work done
  const idleRssMb = processFigures(server.pid)?.rssMb ?? NaN;
  const connectStart = performance.now();
  const clients = await connectLight(devices, server.mqttUrl, 'connected', 60);
  const connectS = (performance.now() - connectStart) / 1000;
  await sleep(SETTLE_MS);
  const connectedRssMb = processFigures(server.pid)?.rssMb ?? NaN;
  const perDeviceKb = ((connectedRssMb - idleRssMb) * 1024) / clients.length;
  log(`${fmt(clients.length)} devices connected in ${fmt(connectS, 1)} s (RSS ${fmt(idleRssMb)} → ${fmt(connectedRssMb)} MB); 1 % report every 5 s for ${durationS} s`);
  const watch = watchServer(server);
  let endSteady!: () => void;
  const steadyEnd = new Promise<void>((resolve) => (endSteady = resolve));
  const reads = tenantReader(server.base, steadyEnd);
  const reporting = report(clients.filter((_, i) => i % 100 === 0), 5, steadyEnd);
  let lost = 0;
  for (const client of clients) client.onClose = () => lost++;
  await sleep(durationS * 1000);
  endSteady();
  const [{ times, failures }, { latencies, errors }] = await Promise.all([reads, reporting]);
  const use = watch.finish();

  // The restart: every device backs off with jitter and tries again until it is accepted.
  let accepted = 0;
  let attempts = 0;
  let restartedAt = NaN;
  let allBackAt = NaN;
  const { port: oldPort } = new URL(server.mqttUrl);
  let mqttPort = Number(oldPort);
  const reconnect = async (client: LightMqttDevice) => {
    for (let backoff = 1_000; ; backoff = Math.min(backoff * 2, 30_000)) {
      await sleep(Math.random() * backoff);
      attempts++;
      client.options.port = mqttPort;
      try {
        await client.connect(10_000);
        if (++accepted === clients.length) allBackAt = performance.now();
        return;
      } catch {
        // refused (the server is down, or busy): later
      }
    }
  };
  const back = Promise.all(clients.map((client) => new Promise<void>((resolve) => {
    client.onClose = () => void reconnect(client).then(resolve);
  })));
  const stopAt = performance.now();
  await server.stop();
  server = await startServer(target, false, heap);
  restartedAt = performance.now();
  mqttPort = Number(new URL(server.mqttUrl).port);
  const afterWatch = watchServer(server);
  await Promise.race([back, sleep(300_000)]);
  const after = afterWatch.finish();
  await Promise.all(clients.map((client) => client.end(true)));
  await server.stop();

  const steady = Float64Array.from(times.map((t) => t.ms)).sort();
  // the most while reporting, with what the devices not connected here would add
  const projectedRssMb = use.maxRssMb + (Math.max(0, 100_000 - clients.length) * perDeviceKb) / 1024;
  header(target, `${fmt(clients.length)} devices connected (keep-alive 60 s), ${fmt(Math.ceil(clients.length / 100))} of them sending ${KEYS} keys every 5 s, ${durationS} s; then a restart`);
  console.log('| connect all (s) | server RSS idle → connected → most while 1 % report (MB) | a connected device (KB) | RSS at 100,000 by that (MB) | GET /tenant every 100 ms: p50 / p95 / p99 ms | reader worst ms | reader failures | PUBACK p50 / p95 / p99 ms | cores used: server / bench / other processes |');
  console.log('| ---: | --- | ---: | ---: | --- | ---: | ---: | --- | --- |');
  console.log(`| ${fmt(connectS, 1)} | ${fmt(idleRssMb)} → ${fmt(connectedRssMb)} → ${fmt(use.maxRssMb)} | ${fmt(perDeviceKb, 1)} | ${fmt(projectedRssMb)} | ${latencyLine(times.map((t) => t.ms))} | ${fmt(steady.at(-1) ?? NaN)} | ${failures} | ${latencyLine(latencies)} | ${cores(use)} |`);
  const backS = (allBackAt - restartedAt) / 1000;
  console.log(`Restart: stopped and started again in ${fmt((restartedAt - stopAt) / 1000, 1)} s; ${fmt(accepted)} of ${fmt(clients.length)} devices accepted again ${Number.isFinite(backS) ? `${fmt(backS, 1)} s after the new server answered` : 'NOT ALL within 300 s'} (${fmt(attempts)} attempts; RSS after ${fmt(after.maxRssMb)} MB).`);
  console.log(`Connections lost during the steady part: ${lost}; publish errors ${errors}.`);
  const worst = steady.at(-1) ?? Infinity;
  console.log(`Goals: RSS < 2 GB ${use.maxRssMb < 2048 ? 'met' : 'NOT met'}${clients.length < 100_000 ? ` at ${fmt(clients.length)} devices, ${projectedRssMb < 2048 ? 'met' : 'NOT met'} at 100,000 by what a device costs` : ''}; reader delayed ≤ 100 ms ${worst <= 100 ? 'met' : `NOT met (worst ${fmt(worst)} ms, p99 ${fmt(percentile(steady, 99))} ms)`}; all back within 60 s ${backS <= 60 ? 'met' : 'NOT met'}.`);
}

async function crash(target: Target) {
  const devices = await prepare(target, clientCount);
  const server = await startServer(target);
  const stats = new Stats();
  const publishers = devices.map((device) => new Publisher(device, 1, windowSize, stats, true));
  await connectAll(publishers, server.mqttUrl, 'crash');
  log(`${publishers.length} clients connected; publishing for ${durationS} s, then kill -9 of pid ${server.pid}`);
  let killed!: () => void;
  const running = run(publishers, stats, durationS + 60, undefined, new Promise<void>((resolve) => (killed = resolve)));
  await sleep(durationS * 1000);
  const inflight = publishers.reduce((sum, p) => sum + p.inflight, 0);
  await server.kill9();
  const killedAt = performance.now();
  killed();
  await running;
  const ackedAtKill = stats.done[1];
  await closeAll(publishers, true);
  log(`killed with ${inflight} messages in flight; ${fmt(ackedAtKill)} PUBACKed; restarting on the same data`);
  const lockLeft = (() => {
    try {
      return readFileSync(join(target.dataDir, 'terrasight.lock'), 'utf8');
    } catch {
      return undefined;
    }
  })();

  const restarted = await startServer(target);
  const restartS = (performance.now() - killedAt) / 1000;
  // Ingestion resumes: one device, 20 QoS 1 messages.
  const after = new Stats();
  const again = new Publisher(devices[0], 1, 4, after, true);
  await again.connect(restarted.mqttUrl, 'after-crash');
  again.budget = 20;
  again.running = true;
  again.pump();
  await again.settle(30_000);
  await closeAll([again], false);
  await restarted.stop();

  const db = await openSql(target);
  const check = await verifyAcked(db, stats.acked, after.acked);
  const resumed = await verifyAcked(db, after.acked, stats.acked);
  await db.close();

  header(target, `${clientCount} clients × ${windowSize} in flight, QoS 1, ${KEYS} keys a message, kill -9 after ${durationS} s`);
  console.log('| PUBACKed messages | found | missing | partial | stored without a PUBACK (in flight at the kill) | restart (s) | after restart: PUBACKed / found |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  console.log(`| ${fmt(check.total)} (${fmt(check.total * KEYS)} points) | ${fmt(check.found)} | ${fmt(check.missing)} | ${check.partial} | ${fmt(check.storedNotAcked)} | ${fmt(restartS, 1)} | ${after.done[1]} / ${resumed.found} |`);
  console.log(`In flight at the kill: ${inflight} messages. Lock file left by the killed server: ${lockLeft ? 'yes, taken over at restart' : 'none'}. Goal missing = 0: ${check.missing === 0 ? 'met' : 'NOT met'}.`);
  if (check.missingExamples.length) console.log(`Missing, e.g.: ${check.missingExamples.join('; ')}`);
}

const target = await makeTarget('ingest', usePostgres);
try {
  await { sustained, flood, crash, city, connected }[mode](target);
} finally {
  for (const kill of liveServers) kill();
  await sleep(500);
  await target.cleanup();
}
process.exit(0);