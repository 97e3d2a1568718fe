// `node bench/engines.ts [--postgres] [--devices N] [--rate P] [--duration S] [--crossings C] [--scheduler-wait S]`
// The engines that act on their own (server/engines), on a fresh server process (bench/deviceServer.ts:
// embedded PGlite by default, a throw-away PostgreSQL with --postgres, or DATABASE_URL). The demo
// database is seeded by a first start, its watchers deleted, devices added by SQL up to --devices
// 1,000 (all in the demo tenant); then one server process runs:
//
// 1. Ingestion without any watcher: one mqtt.js client per device, QoS 1 (at most 4 in flight each),
//    paced to --rate 20,000 points/s in all for --duration 30 s, 10 keys a message (t0…t9, each
//    message with its own ts), t0 below 100.
// 2. The same with a watcher per device, made through the REST API (`POST /create-watcher`: t0
//    latest-value > 1,000, interval 60 s, alerting at once). --crossings 300 times, spread over the
//    run but its last 10 s, a device that has not crossed yet sends t0 = 100,000 + the crossing's number
//    for 10 s, then below 100 again. Latency of a crossing: its alert's `logs.timestamp` (the
//    instant the engine evaluated the crossing value, the server's clock) minus the PUBACK of the
//    crossing's first message (this process's clock; the same machine). The value in the alert's
//    `message_data` names the crossing, so each is matched exactly. The row commits in the same short
//    transaction right after, so the figure is the engine's delay, without the commit's few ms. With
//    PGlite, nothing but the server may open the database while it runs: the rows are read when
//    it has stopped. A crossing without an alert (the watcher saw t0 only after the device was back
//    below the threshold, 10 s on) counts as missed, and as infinitely late in the percentiles.
//    Stored points/s of each run are counted in the database (rows of t0…t9 in the run's ts range).
// 3. 1,000 schedulers (--devices), made through the REST API (`POST /create-scheduler`), all due at
//    one minute, the 1,000 watchers still active (bench/dueSchedulers.ts: time until all have run,
//    up to --scheduler-wait 600 s, each exactly once).
//
// Goals: alert p95 ≤ 2 s; ≤ 10 % fewer stored points/s with the watchers; 1,000 scheduler runs ≤ 60 s.
import { totalmem } from 'node:os';
import { cores, ensureDevices, fmt, latencyLine, liveServers, log, makeTarget, openSql, percentile, prepare, sleep, startServer, watchServer, type Device, type Sql, type Target } from './deviceServer.ts';
import { printDueRuns, runDueSchedulers, schedulerInput, signIn, weeklyPairs, type WeeklyPair } from './dueSchedulers.ts';
import { machineLine } from './launch.ts';
import { PacedDevice, publishPaced, storedPoints, type PublishRun } from './pacedPublisher.ts';
import { numberArgument } from './arguments.ts';

const usePostgres = process.argv.includes('--postgres');
const deviceCount = numberArgument('--devices', 1000);
const rate = numberArgument('--rate', 20000);
const durationS = numberArgument('--duration', 30);
const crossingCount = numberArgument('--crossings', 300);
const schedulerWaitS = numberArgument('--scheduler-wait', 600);
const KEYS = 10;
const WINDOW = 4;
const THRESHOLD = 1_000;
const CROSSING_BASE = 100_000;
const CROSSING_HOLD_MS = 10_000;
const BENCH_KEYS = Array.from({ length: KEYS }, (_, i) => `t${i}`);

// ---------------------------------------------------------------------------------------------
// Devices publishing, paced, with crossings of the watchers' threshold.

/** A crossing: the device sends `value` from `startedAt` (ms, this clock) for CROSSING_HOLD_MS. */
interface Crossing { number: number; value: number; startedAt: number; until: number; firstPuback?: number }

/** A device whose value t0 crosses the watchers' threshold while it holds a crossing. */
class CrossingDevice extends PacedDevice {
  crossing?: Crossing;
  shape = (ts: number, values: Record<string, number>) => {
    const crossing = this.crossing && ts < this.crossing.until ? this.crossing : undefined;
    if (!crossing) return undefined;
    values.t0 = crossing.value;
    return () => { if (crossing.firstPuback === undefined) crossing.firstPuback = Date.now(); };
  };
}

/**
 * Publishes from every client, paced to `rate` points/s in all, for durationS; with `crossings`,
 * starts them evenly over the run but its last CROSSING_HOLD_MS, each on a device that has not
 * crossed yet (else one whose crossing ended 2 s ago).
 */
async function publish(clients: CrossingDevice[], crossings = 0): Promise<{ run: PublishRun; started: Crossing[] }> {
  for (const c of clients) c.crossing = undefined;
  const started: Crossing[] = [];
  const spreadMs = durationS * 1000 - CROSSING_HOLD_MS;
  const endsAt = Date.now() + durationS * 1000;
  const crosser = crossings > 0 ? setInterval(() => {
    const now = Date.now();
    if (started.length >= crossings || now >= endsAt) return; // none while the last PUBACKs come in
    // a device that has not crossed yet: the recovery of an earlier crossing may still wait in the
    // server's backlog (PUBACKs seconds late), and a watch still alerting has no alert to give
    const fresh = clients.filter((c) => !c.crossing);
    const free = fresh.length ? fresh : clients.filter((c) => c.crossing!.until + 2_000 < now);
    const chosen = free[Math.floor(Math.random() * free.length)];
    if (!chosen) return;
    const number = started.length;
    chosen.crossing = { number, value: CROSSING_BASE + number, startedAt: now, until: now + CROSSING_HOLD_MS };
    started.push(chosen.crossing);
  }, spreadMs / crossings) : undefined;
  try {
    return { run: await publishPaced(clients, rate, durationS), started };
  } finally {
    clearInterval(crosser);
  }
}

// ---------------------------------------------------------------------------------------------
// The REST and GraphQL API, as the demo's admin.

/** POSTs each input to `path`, four at a time; fails on the first answer that is not 2xx. */
async function createAll(base: string, token: string, path: string, inputs: unknown[]) {
  for (let i = 0; i < inputs.length; i += 4) {
    await Promise.all(inputs.slice(i, i + 4).map(async (input) => {
      const answer = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ input }) });
      if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    }));
  }
}

// ---------------------------------------------------------------------------------------------
// In the database (the server stopped).

/** `count` devices of the first device's tenant (the demo's admin's), made by SQL as needed; the demo's watchers deleted. */
async function prepareDatabase(target: Target): Promise<{ devices: Device[]; weekly: WeeklyPair[] }> {
  let devices = await prepare(target, deviceCount);
  const db = await openSql(target);
  try {
    const tenantId = devices[0].tenant_id;
    const others = devices.filter((d) => d.tenant_id !== tenantId).length;
    if (others) devices = (await ensureDevices(db, deviceCount + others)).filter((d) => d.tenant_id === tenantId);
    await db.query('DELETE FROM watchers');
    return { devices: devices.slice(0, deviceCount), weekly: await weeklyPairs(db, tenantId, deviceCount) };
  } finally {
    await db.close();
  }
}


/** Each crossing's alert latency (ms; Infinity when no alert names its value). */
async function alertLatencies(db: Sql, crossings: Crossing[]): Promise<number[]> {
  const alerts = await db.query<{ value: number; at: number }>(`SELECT (message_data->>'value')::float8 AS value, extract(epoch FROM timestamp) * 1000 AS at
    FROM logs WHERE source = 'watcher' AND message_data->>'transition' = 'alert' AND (message_data->>'value')::float8 >= ${CROSSING_BASE}`);
  const alertAt = new Map(alerts.map((row) => [Number(row.value), Number(row.at)]));
  return crossings.map((c) => {
    const at = alertAt.get(c.value);
    return at === undefined || c.firstPuback === undefined ? Infinity : at - c.firstPuback;
  });
}

// ---------------------------------------------------------------------------------------------
// The benchmark.

const header = (target: Target, what: string) =>
  console.log(`\n${what} — ${target.label} — ${machineLine()} · ${Math.round(totalmem() / 2 ** 30)} GB RAM`);

async function watchersAndSchedulers(target: Target) {
  const { devices, weekly } = await prepareDatabase(target);
  if (devices.length < deviceCount) throw new Error(`only ${devices.length} devices in the demo tenant`);
  const server = await startServer(target);
  const token = await signIn(server.base);
  const clients = devices.map((device) => new CrossingDevice(device, { keys: BENCH_KEYS, window: WINDOW, clientPrefix: 'bench-engines-', connectTimeoutMs: 30_000 }));
  for (let i = 0; i < clients.length; i += 50) await Promise.all(clients.slice(i, i + 50).map((c) => c.connect(server.mqttUrl)));
  log(`${clients.length} devices connected; ${fmt(rate)} points/s for ${durationS} s without watchers`);

  let watch = watchServer(server);
  const without = await publish(clients);
  const useWithout = watch.finish();

  log(`creating ${clients.length} watchers through POST /create-watcher`);
  const createdAt = performance.now();
  await createAll(server.base, token, '/create-watcher', devices.map((device, i) => ({
    name: `Bench t0 high ${i + 1}`, query: { key: 't0', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: THRESHOLD },
    entity_ids: [device.id], interval: 60, for_seconds: 0, definition: { severity: 'warning' },
  })));
  const watchersMadeS = (performance.now() - createdAt) / 1000;
  log(`watchers made in ${fmt(watchersMadeS, 1)} s; ${fmt(rate)} points/s for ${durationS} s with ${crossingCount} crossings`);
  watch = watchServer(server);
  const withWatchers = await publish(clients, crossingCount);
  const useWith = watch.finish();
  await sleep(CROSSING_HOLD_MS); // the last alerts and recoveries
  const stoppedAt = Date.now();

  log(`creating ${deviceCount} schedulers through POST /create-scheduler`);
  await createAll(server.base, token, '/create-scheduler', Array.from({ length: deviceCount }, (_, i) => schedulerInput(i, weekly)));
  await Promise.all(clients.map((c) => c.client.endAsync().catch(() => {})));
  await server.stop();

  const db = await openSql(target);
  const storedWithout = await storedPoints(db, BENCH_KEYS, without.run);
  const storedWith = await storedPoints(db, BENCH_KEYS, withWatchers.run);
  const latencies = await alertLatencies(db, withWatchers.started);
  const [overdue] = await db.query<{ overdue: number; oldest_s: number }>(`SELECT count(*)::float8 AS overdue, coalesce(extract(epoch FROM to_timestamp(${stoppedAt / 1000}) - min(next_evaluation_at)), 0)::float8 AS oldest_s
    FROM watchers WHERE status = 'active' AND next_evaluation_at < to_timestamp(${stoppedAt / 1000})`);
  await db.close();
  const schedulers = await runDueSchedulers(target, deviceCount, schedulerWaitS);

  // ---- the report
  const rateOf = (stored: number, run: PublishRun) => stored / ((run.lastAck - run.start) / 1000);
  const pointsWithout = rateOf(storedWithout, without.run);
  const pointsWith = rateOf(storedWith, withWatchers.run);
  const lostPct = (1 - pointsWith / pointsWithout) * 100;
  const sorted = Float64Array.from(latencies).sort();
  const missed = latencies.filter((ms) => ms === Infinity).length;
  const seconds = (p: number) => fmt(percentile(sorted, p) / 1000, 2);
  const p95 = percentile(sorted, 95);

  header(target, `Watchers: ${fmt(deviceCount)} (t0 > ${fmt(THRESHOLD)}, latest-value, one device each, made through POST /create-watcher in ${fmt(watchersMadeS, 1)} s), ${fmt(deviceCount)} MQTT devices, ${fmt(rate)} points/s offered for ${durationS} s`);
  console.log('| run | stored points/s | stored points a server CPU-second | stored points | PUBACK p50 / p95 / p99 ms | publish errors | server RSS before → max (MB) | cores used: server / bench / other processes |');
  console.log('| --- | ---: | ---: | ---: | --- | ---: | --- | --- |');
  for (const [name, run, stored, use] of [['without watchers', without.run, storedWithout, useWithout], [`with ${fmt(deviceCount)} watchers`, withWatchers.run, storedWith, useWith]] as const) {
    console.log(`| ${name} | ${fmt(rateOf(stored, run))} | ${fmt(rateOf(stored, run) / use.serverCores)} | ${fmt(stored)} | ${latencyLine(run.latencies)} | ${run.errors} | ${fmt(use.idleRssMb)} → ${fmt(use.maxRssMb)} | ${cores(use)} |`);
  }
  console.log('');
  console.log('| crossings | alerted | missed (no alert within 10 s) | alert latency p50 / p95 / p99 s (PUBACK → logs.timestamp) | max s |');
  console.log('| ---: | ---: | ---: | --- | ---: |');
  const finite = latencies.filter(Number.isFinite);
  console.log(`| ${latencies.length} | ${latencies.length - missed} | ${missed} | ${seconds(50)} / ${seconds(95)} / ${seconds(99)} | ${finite.length ? fmt(Math.max(...finite) / 1000, 2) : '–'} |`);
  console.log(`Watchers overdue for their periodic evaluation when the run ended: ${fmt(overdue.overdue)} of ${fmt(deviceCount)} (the longest by ${fmt(overdue.oldest_s)} s).`);
  console.log(`Goals: alert p95 ≤ 2 s ${p95 <= 2000 ? 'met' : 'NOT met'}; stored points/s with the watchers vs without ${lostPct >= 0 ? '−' : '+'}${fmt(Math.abs(lostPct), 1)} % (at most 10 % fewer) ${lostPct <= 10 ? 'met' : 'NOT met'}.`);

  header(target, `Schedulers: ${fmt(deviceCount)} single runs (avg over last-week of a demo device's key, ${weekly.length} device/key pairs), all due at ${schedulers.due}`);
  printDueRuns(schedulers, deviceCount, schedulerWaitS);
}

const target = await makeTarget('engines', usePostgres);
try {
  await watchersAndSchedulers(target);
} finally {
  for (const kill of liveServers) kill();
  await sleep(500);
  await target.cleanup();
}
process.exit(0);
