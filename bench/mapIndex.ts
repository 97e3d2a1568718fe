// `node bench/mapIndex.ts [--devices 1000000] [--requests 500] [--window 60] [--gateways 100]
// [--type 'Parking sensor'] [--statement-timeout ms]` (`npm run bench:map-index`): the server side
// of the map of a large region — GET /map-clusters and its per-tenant grid
// (server/services/mapIndexService.ts, server/cache/mapGrid.ts) — against a real server on the
// embedded database. No browser.
//
// The demo database is seeded, then `--devices` devices of Demo City's type `--type` are added by
// SQL under its first region (random points over ≈ 18 × 13 km around Bratislava, each `active`,
// each behind one of `--gateways` gateways that know it by name), and the server is started on it.
// Parking sensors by default: no engine reads every device of that type, whereas the lighting
// engine reads every street lamp of the tenant each minute and the demo's lamp watcher every lamp's
// power, which with a million lamps is what would be measured (`--type 'Street lamp'` shows it).
// Printed:
// - the seeding time (information only);
// - the index built from cold: the first GET /map-clusters of the whole region at zoom 10;
// - the server process's RSS (/proc/<pid>/status) before that request and after it;
// - viewport answers: `--requests` random 1280 × 800 viewports (MapLibre's 512-pixel tiles) at
//   random zooms 10–18 around the seeded area, one at a time, 8 clients at once, and one at a
//   time colouring by `occupied`, one at a time with clusters counted by the rule `occupied ==
//   true` and by a group of every third device (each after a first request that reads the column
//   and classes the devices, timed alone):
//   p50/p95/max ms and the answers' sizes;
// - keeping it current: the devices' connectivity changing at 2 % of the devices a minute
//   (20,000 changes a minute for a million) for `--window` seconds, sent as a ThingsBoard gateway
//   sends them (`v1/gateway/disconnect` / `v1/gateway/connect` over MQTT, QoS 1, one connection per
//   gateway): the server records each device's connection, sets its `active`, logs it, and the grid
//   follows from the `entity.updated` event. Three quarters of the changes disconnect a device
//   (connected through its gateway beforehand), a quarter reconnect one of those. The server's CPU
//   (/proc/<pid>/stat) over that window against an idle window of the same length, and afterwards
//   whether the whole region's answer counts the devices now offline;
// - the grid alone, built in this process from as many points: its build time, its memory, and
//   the time of the same number of flag changes (what the server's share of the above is).
// Goals on 2 cores, per million devices: built ≤ 10 s, the index ≤ 300 MB, viewport p95 ≤ 50 ms.
// `--statement-timeout` starts the server with that STATEMENT_TIMEOUT_MS (its own default when absent).
import { sql } from 'drizzle-orm';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { freePort, startServerProcess } from '../scripts/serverProcess.ts';
import { mapGrid } from '../server/cache/mapGrid.ts';
import { openDatabase } from '../server/db/database.ts';
import { seedDemoIfEmpty } from '../server/seed/demoSeed.ts';
import { DEVICE_FLAGS, type MapClusters } from '../src/schemas/mapClusters.ts';
import { argument, numberArgument } from './arguments.ts';
import { machineLine } from './launch.ts';
import { LightMqttDevice } from './lightMqtt.ts';

const deviceCount = numberArgument('--devices', 1_000_000);
const requestCount = numberArgument('--requests', 500);
const windowSeconds = numberArgument('--window', 60);
const gatewayCount = numberArgument('--gateways', 100);
const typeName = argument('--type', 'Parking sensor');
const statementTimeout = argument('--statement-timeout', '');
/** The attribute the map colours by in one series (seeded on every device). */
const COLOUR = 'occupied';
/** The colour rules the clusters count by (`rules`): occupied or not. */
const RULES = JSON.stringify([{ operator: '==', value: true }]);
/** Connectivity changes in the window: 2 % of the devices a minute. */
const changeCount = Math.round((deviceCount / 50) * (windowSeconds / 60));
const CONCURRENT_CLIENTS = 8;
const SCREEN = { width: 1280, height: 800 };
/** The seeded area (as bench/map.ts): longitudes and latitudes. */
const AREA = { west: 17.0, east: 17.25, south: 48.08, north: 48.2 };

const log = (line: string) => console.error(`[bench ${(performance.now() / 1000).toFixed(1)} s] ${line}`);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => value.toFixed(1);
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(0);
const count = (value: number) => value.toLocaleString('en');
const perMillion = (value: number) => (value * 1_000_000) / deviceCount;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A reproducible random sequence (mulberry32). */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// ---- the server process, from /proc --------------------------------------------------------------
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
/** Resident memory of the process (bytes). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
/** CPU seconds the process (all its threads) has used, user and system. */
const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime and stime: fields 14 and 15
};

// ---- viewports: MapLibre's web mercator, 512-pixel tiles ------------------------------------------
const mercatorX = (lng: number) => (lng + 180) / 360;
const mercatorY = (lat: number) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI);
const longitudeOf = (x: number) => x * 360 - 180;
const latitudeOf = (y: number) => (360 / Math.PI) * Math.atan(Math.exp((0.5 - y) * 2 * Math.PI)) - 90;
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** The bounds a 1280 × 800 screen shows at `zoom` around (lng, lat). */
function viewport(zoom: number, lng: number, lat: number) {
  const worldPx = 512 * 2 ** zoom;
  const x = mercatorX(lng);
  const y = mercatorY(lat);
  const dx = SCREEN.width / 2 / worldPx;
  const dy = SCREEN.height / 2 / worldPx;
  return {
    zoom: round6(zoom), west: round6(longitudeOf(x - dx)), east: round6(longitudeOf(x + dx)),
    north: round6(latitudeOf(y - dy)), south: round6(latitudeOf(y + dy)),
  };
}

// ---- the data ------------------------------------------------------------------------------------
const dataDir = mkdtempSync(join(tmpdir(), 'terrasight-bench-map-index-'));
const seedStarted = performance.now();
const db = await openDatabase({ dataDir, statementTimeoutMs: 600_000 });
await seedDemoIfEmpty(db);
const [target] = await db.systemQuery<{ tenant: string; region: number; path: string; type: number; gatewayType: number }>(sql`
  SELECT t.id AS tenant, r.id AS region, r.tree_path AS path, kind.id AS type, gw.id AS "gatewayType"
  FROM tenants t
  JOIN entity_types rt ON rt.tenant_id = t.id AND rt.attributes->>'system_name' = 'region'
  JOIN entities r ON r.entity_type_id = rt.id
  JOIN entity_types kind ON kind.tenant_id = t.id AND kind.name = ${typeName}
  JOIN entity_types gw ON gw.tenant_id = t.id AND gw.category = 'gateway'
  WHERE t.name = 'Demo City' ORDER BY r.tree_path, r.id LIMIT 1`);
const demoSeeded = performance.now();
// the gateways (no position: not on the map), each with a random access token
await db.systemQuery(sql`
  INSERT INTO entities (tenant_id, entity_type_id, parent_id, name, attributes, is_gateway, thingsboard_name, tree_path)
  SELECT ${target.tenant}, ${target.gatewayType}, ${target.region}, jsonb_build_object('en', 'Bench gateway ' || g), '{}'::jsonb, true, 'bench-gw-' || g, ''
  FROM generate_series(0, ${gatewayCount - 1}) g`);
await db.systemQuery(sql`UPDATE entities SET tree_path = ${target.path} || '.' || id WHERE tree_path = ''`);
const gateways = await db.systemQuery<{ id: number; token: string }>(sql`
  SELECT id, access_token AS token FROM entities WHERE tenant_id = ${target.tenant} AND thingsboard_name LIKE 'bench-gw-%' ORDER BY id`);
// the devices, 100,000 a statement; device g is `bench-device-g` behind gateway g % gateways
const gatewayIds = `{${gateways.map((gateway) => gateway.id).join(',')}}`;
for (let from = 1; from <= deviceCount; from += 100_000) {
  const to = Math.min(deviceCount, from + 99_999);
  await db.systemQuery(sql`
    INSERT INTO entities (id, tenant_id, entity_type_id, parent_id, name, attributes, geom, level, fk_gateway_id, thingsboard_name, tree_path)
    OVERRIDING SYSTEM VALUE
    SELECT s.id, ${target.tenant}, ${target.type}, ${target.region}, jsonb_build_object('en', 'Bench device ' || s.g),
      jsonb_build_object(${COLOUR}::text, s.g % 2 = 0, 'active', true),
      jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(round((${AREA.west} + random() * ${AREA.east - AREA.west})::numeric, 6),
        round((${AREA.south} + random() * ${AREA.north - AREA.south})::numeric, 6))),
      0, (${gatewayIds}::int[])[1 + s.g % ${gatewayCount}], 'bench-device-' || s.g, ${target.path} || '.' || s.id
    FROM (SELECT g, nextval('entities_id_seq') AS id FROM generate_series(${from}::int, ${to}::int) g) s`);
}
// every third device in a group of its own (what the map colours when the group is chosen)
const [group] = await db.systemQuery<{ id: number }>(sql`INSERT INTO groups (tenant_id, name, attributes) VALUES (${target.tenant}, 'Bench third', '{}') RETURNING id`);
await db.systemQuery(sql`INSERT INTO entity_groups (tenant_id, entity_id, group_id)
  SELECT tenant_id, id, ${group.id}::int FROM entities WHERE tenant_id = ${target.tenant} AND thingsboard_name LIKE 'bench-device-%' AND id % 3 = 0`);
await db.systemQuery(sql`ANALYZE`);
await db.close();
const seedSeconds = (performance.now() - demoSeeded) / 1000;
log(`demo seeded in ${((demoSeeded - seedStarted) / 1000).toFixed(1)} s, ${count(deviceCount)} devices (${typeName}) and ${gatewayCount} gateways added in ${seedSeconds.toFixed(1)} s`);

// ---- the server ----------------------------------------------------------------------------------
const mqttPort = await freePort();
const server = await startServerProcess({
  ...process.env, DATA_DIR: dataDir, SEED: 'demo', SIMULATE: 'off', MQTT_PORT: String(mqttPort), ...(statementTimeout ? { STATEMENT_TIMEOUT_MS: statementTimeout } : {}),
});
const gatewayClients: LightMqttDevice[] = [];
try {
  const signIn = async () => {
    for (let attempt = 1; ; attempt++) {
      const login = await fetch(`${server.base}/auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.city', password: 'demo1234' }),
      });
      const answer = await login.text();
      if (login.ok) return (JSON.parse(answer) as { access_token: string }).access_token;
      log(`signing in answered ${login.status}: ${answer.slice(0, 200)}`);
      if (attempt === 5) throw new Error('could not sign in');
      await sleep(2_000);
    }
  };
  let token = await signIn();
  const statuses = new Map<number, number>();
  /** GET /map-clusters of a viewport: its time, its answer (uncompressed bytes) and its status. */
  const ask = async (view: ReturnType<typeof viewport>, attribute?: string, rules?: string, groups?: string) => {
    const query = new URLSearchParams({ region: String(target.region), ...Object.fromEntries(Object.entries(view).map(([key, value]) => [key, String(value)])) });
    if (attribute) query.set('attribute', attribute);
    if (rules) query.set('rules', rules);
    if (groups) query.set('groups', groups);
    const from = performance.now();
    const response = await fetch(`${server.base}/map-clusters?${query}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    const time = performance.now() - from;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status !== 200) log(`GET /map-clusters answered ${response.status}: ${text.slice(0, 200)}`);
    return { time, bytes: Buffer.byteLength(text), status: response.status, body: response.status === 200 ? JSON.parse(text) as MapClusters : undefined, encoding: response.headers.get('content-encoding') };
  };
  /** The whole region at zoom 10: devices, offline devices. */
  const wholeRegion = viewport(10, (AREA.west + AREA.east) / 2, (AREA.south + AREA.north) / 2);
  const totals = (answer: MapClusters) => {
    let devices = 0;
    let offline = 0;
    for (const cluster of answer.clusters) {
      devices += cluster[2];
      offline += cluster[4];
    }
    for (const point of answer.points) {
      devices += 1;
      if (point[5] & DEVICE_FLAGS.offline) offline += 1;
    }
    return { devices, offline };
  };

  // ---- 2, 3: the index built from cold, and its memory ----
  await sleep(5_000); // the server's start-up work settles
  const rssBefore = rssOf(server.pid);
  const cold = await ask(wholeRegion);
  const rssBuilt = rssOf(server.pid);
  if (!cold.body) throw new Error(`the first GET /map-clusters answered ${cold.status} after ${ms(cold.time)} ms (the server's own lines above say why)`);
  const before = totals(cold.body);
  const warm = await ask(wholeRegion);
  await sleep(5_000);
  const rssSettled = rssOf(server.pid);
  log(`cold ${ms(cold.time)} ms, warm ${ms(warm.time)} ms; ${count(before.devices)} devices in the region (${before.offline} offline); RSS ${mb(rssBefore)} → ${mb(rssBuilt)} → ${mb(rssSettled)} MB`);

  // ---- 4: viewports ----
  const random = randomFrom(20261128);
  const views = Array.from({ length: requestCount }, () => viewport(10 + random() * 8,
    AREA.west + random() * (AREA.east - AREA.west), AREA.south + random() * (AREA.north - AREA.south)));
  const series = async (clients: number, attribute?: string, rules?: string, groups?: string) => {
    const times: number[] = [];
    const bytes: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: clients }, async () => {
      while (next < views.length) {
        const answer = await ask(views[next++], attribute, rules, groups);
        times.push(answer.time);
        bytes.push(answer.bytes);
      }
    }));
    return { times, bytes, perSecond: (times.length / (performance.now() - started)) * 1000 };
  };
  token = await signIn();
  await series(1); // warm-up of the route and the client, not counted
  const sequential = await series(1);
  const concurrent = await series(CONCURRENT_CLIENTS);
  const coloured = await series(1, COLOUR);
  // the first rules on the attribute read its column and class every device of the grid
  const ruledFirst = await ask(wholeRegion, COLOUR, RULES);
  const ruled = await series(1, COLOUR, RULES);
  const groupedFirst = await ask(wholeRegion, undefined, undefined, String(group.id));
  const grouped = await series(1, undefined, undefined, String(group.id));
  const rssRuled = rssOf(server.pid);
  log('viewports done');

  // ---- 5: an idle window, then the changes ----
  const idleFrom = cpuOf(server.pid);
  const idleStarted = performance.now();
  await sleep(windowSeconds * 1000);
  const idleCpu = (cpuOf(server.pid) - idleFrom) / ((performance.now() - idleStarted) / 1000);
  log(`idle: ${(idleCpu * 100).toFixed(1)} % of a core`);

  for (const [number, gateway] of gateways.entries()) {
    const client = new LightMqttDevice({ host: '127.0.0.1', port: mqttPort, username: gateway.token, clientId: `bench-gw-${number}`, keepalive: 60 });
    await client.connect();
    gatewayClients.push(client);
  }
  // three quarters disconnect a device, a quarter reconnect one disconnected before
  const disconnects = Math.ceil((changeCount * 3) / 4);
  const reconnects = changeCount - disconnects;
  const chosen = new Set<number>();
  while (chosen.size < disconnects) chosen.add(1 + Math.floor(random() * deviceCount));
  const devices = [...chosen];
  const send = (device: number, topic: 'connect' | 'disconnect') =>
    gatewayClients[device % gatewayCount].publish(`v1/gateway/${topic}`, JSON.stringify({ device: `bench-device-${device}` }));
  // beforehand, those devices connect through their gateways (already `active`: nothing changes but their connection is counted)
  const connectStarted = performance.now();
  await Promise.all(devices.map((device) => send(device, 'connect')));
  log(`${count(devices.length)} devices connected through their gateways in ${((performance.now() - connectStarted) / 1000).toFixed(1)} s`);
  await sleep(5_000);

  const plan: { device: number; topic: 'connect' | 'disconnect' }[] = [];
  for (let d = 0, r = 0; plan.length < changeCount;) {
    if (plan.length % 4 === 3 && r < reconnects) plan.push({ device: devices[r++], topic: 'connect' });
    else plan.push({ device: devices[d++], topic: 'disconnect' });
  }
  const acked: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const changeFrom = cpuOf(server.pid);
  const changeStarted = performance.now();
  for (let sent = 0; sent < plan.length;) {
    const due = Math.min(plan.length, Math.floor(((performance.now() - changeStarted) / (windowSeconds * 1000)) * plan.length) + 1);
    for (; sent < due; sent++) {
      const { device, topic } = plan[sent];
      const at = performance.now();
      pending.push(send(device, topic).then(() => void acked.push(performance.now() - at), () => void failed++));
    }
    await sleep(20);
  }
  const lastSent = performance.now();
  const remaining = windowSeconds * 1000 - (lastSent - changeStarted);
  if (remaining > 0) await sleep(remaining);
  const windowCpu = (cpuOf(server.pid) - changeFrom) / ((performance.now() - changeStarted) / 1000);
  await Promise.all(pending);
  const allAcked = performance.now() - changeStarted;
  await sleep(1_000); // the post-commit events of the last changes
  const after = await ask(wholeRegion);
  const afterTotals = after.body ? totals(after.body) : { devices: NaN, offline: NaN };
  const expectedOffline = before.offline + disconnects - reconnects;
  log(`changes: ${count(acked.length)} acknowledged, ${failed} failed, the last ${((allAcked - windowSeconds * 1000) / 1000).toFixed(1)} s after the window`);

  // ---- the grid alone, in this process (the server's share of the above) ----
  await Promise.all(gatewayClients.map((client) => client.end()));
  await server.stop();
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const points = new Float64Array(deviceCount * 2);
  for (let i = 0; i < deviceCount; i++) {
    points[2 * i] = round6(AREA.west + random() * (AREA.east - AREA.west));
    points[2 * i + 1] = round6(AREA.south + random() * (AREA.north - AREA.south));
  }
  gc();
  const memoryBefore = process.memoryUsage();
  const gridStarted = performance.now();
  const grid = mapGrid();
  for (let i = 0; i < deviceCount; i++) grid.put({ id: i + 1, type: target.type, level: 0, lng: points[2 * i], lat: points[2 * i + 1], flags: 0 });
  const gridBuild = performance.now() - gridStarted;
  gc();
  const memoryAfter = process.memoryUsage();
  const gridMemory = memoryAfter.heapUsed - memoryBefore.heapUsed + memoryAfter.arrayBuffers - memoryBefore.arrayBuffers;
  const flagsStarted = performance.now();
  for (const { device, topic } of plan) grid.setFlags(device, topic === 'disconnect' ? DEVICE_FLAGS.offline : 0);
  const gridFlags = performance.now() - flagsStarted;

  // ---- the figures ----
  const index = rssSettled - rssBefore;
  const line = (name: string, run: Awaited<ReturnType<typeof series>>) =>
    `| ${name} | ${run.times.length} | ${run.perSecond.toFixed(0)} | ${ms(percentile(run.times, 50))} / ${ms(percentile(run.times, 95))} / ${ms(Math.max(...run.times))} | ${count(percentile(run.bytes, 50))} / ${count(Math.max(...run.bytes))} |`;
  console.log(`\nGET /map-clusters over ${count(deviceCount)} devices, embedded (PGlite)${statementTimeout ? `, STATEMENT_TIMEOUT_MS=${statementTimeout}` : ''} — ${machineLine()} · ${new Date().toISOString()}`);
  console.log(`Seeding (information): demo ${((demoSeeded - seedStarted) / 1000).toFixed(1)} s, ${count(deviceCount)} devices (${typeName}) by SQL ${seedSeconds.toFixed(1)} s.`);
  console.log(`Index built from cold (the first GET /map-clusters, whole region at zoom 10: ${count(before.devices)} devices, ${cold.body.clusters.length} clusters, ${count(cold.bytes)} bytes): ${ms(cold.time)} ms (${ms(perMillion(cold.time) / 1000)} s per million); the next ${ms(warm.time)} ms.`);
  console.log(`Server RSS: ${mb(rssBefore)} MB before, ${mb(rssBuilt)} MB just after the build, ${mb(rssSettled)} MB 5 s later: +${mb(index)} MB (${mb(perMillion(index))} MB per million).`);
  console.log(`The grid alone (built in the bench process from ${count(deviceCount)} random points of the same area): ${ms(gridBuild)} ms, ${mb(gridMemory)} MB (heap + typed arrays after GC), ${mb(grid.bytes())} MB by its own estimate; ${count(plan.length)} flag changes ${ms(gridFlags)} ms.`);
  console.log(`\nViewports: ${requestCount} random ${SCREEN.width} × ${SCREEN.height} screens at zooms 10–18 (answers: ${cold.encoding ?? 'uncompressed'} on the wire; sizes uncompressed)`);
  console.log('| case | requests | requests/s | p50 / p95 / max ms | bytes p50 / max |');
  console.log('| --- | ---: | ---: | --- | --- |');
  console.log(line('one at a time', sequential));
  console.log(line(`${CONCURRENT_CLIENTS} clients at once`, concurrent));
  console.log(line(`one at a time, coloured by ${COLOUR}`, coloured));
  console.log(line(`one at a time, clusters counted by the rule ${COLOUR} == true (the first, whole region: ${ms(ruledFirst.time)} ms)`, ruled));
  console.log(line(`one at a time, clusters counted by a group of a third of the devices (the first, whole region: ${ms(groupedFirst.time)} ms)`, grouped));
  console.log(`Server RSS after the rule's and the group's columns and classings: ${mb(rssRuled)} MB (+${mb(rssRuled - rssSettled)} MB over the grid's).`);
  console.log(`Answers by status: ${[...statuses].map(([status, n]) => `${status} × ${n}`).join(', ')}.`);
  console.log(`\nKeeping it current: ${count(plan.length)} connectivity changes in ${windowSeconds} s (${count(disconnects)} disconnects, ${count(reconnects)} reconnects), through ${gatewayCount} gateways over MQTT (v1/gateway/disconnect|connect, QoS 1).`);
  console.log(`PUBACK (the change committed) p50 / p95 / max: ${ms(percentile(acked, 50))} / ${ms(percentile(acked, 95))} / ${ms(Math.max(...acked))} ms; ${failed} failed; the last acknowledged ${((allAcked) / 1000).toFixed(1)} s after the first was sent.`);
  console.log(`Server CPU: idle ${(idleCpu * 100).toFixed(1)} % of a core, during the changes ${(windowCpu * 100).toFixed(1)} %: +${((windowCpu - idleCpu) * 100).toFixed(1)} % of a core.`);
  console.log(`After: the whole region counts ${count(afterTotals.devices)} devices, ${count(afterTotals.offline)} offline; expected ${count(expectedOffline)} (${before.offline} before + ${disconnects} − ${reconnects}): ${afterTotals.offline === expectedOffline && afterTotals.devices === before.devices ? 'correct' : 'WRONG'}.`);
  const goal = (met: boolean) => (met ? 'met' : 'NOT met');
  console.log(`\nGoals per million: built ≤ 10 s ${goal(perMillion(cold.time) <= 10_000)}; index ≤ 300 MB ${goal(perMillion(index) <= 300 * 1_048_576)}; viewport p95 ≤ 50 ms ${goal(percentile(sequential.times, 95) <= 50)} one at a time, ${goal(percentile(concurrent.times, 95) <= 50)} with ${CONCURRENT_CLIENTS} clients.`);
} finally {
  for (const client of gatewayClients) await client.end(true);
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
