// `node bench/control-room.ts [--postgres] [--viewers 200] [--duration 60] [--ingest 20000] [--devices 1000] [--board 50]` (`npm run bench:control-room`)
// A control room: --viewers screens (half signed in as the demo operator, half as the demo admin,
// each its own session) show one dashboard of ten KPI widgets, each polling `GET /kpi-data` every
// 10 s (the KPIs' refresh interval) at its own phase, for --duration s, while a light client reads
// `GET /tenant` every 100 ms and --devices devices publish --ingest points/s over MQTT (the city
// ingest's 20,000; 0: none). The KPIs read 100 devices with 31 days of 15-minute data (written
// through the real telemetry writer into a fresh demo database): hourly, daily and 15-minute
// buckets over 24 hours to 30 days, five aggregations, one with a comparison. The server runs in
// this process, listening on HTTP and MQTT ports, so the database statements behind the answers
// can be counted (every statement of a KPI answer: an item's entities, a range's series); the
// clients run in another (bench/controlRoomLoad.ts), over the network stack.
// With --board N the viewers are API users instead, each reading a public-API board of N KPI
// components (N KPIs like the ten, over again) every 30 s through `GET /public-api-component-list`.
// Prints the answers' p50/p95/p99 and max, the answers by status, the statements per KPI per refresh
// interval, the light client's p99 and worst delay, and the points PUBACKed per second.
//
// Goals on 2 cores: /kpi-data p95 ≤ 100 ms, no 429 and no 5xx, ≤ 2 statements per KPI per refresh
// interval whatever the number of viewers, the light client delayed ≤ 100 ms.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../server/app.ts';
import { DEFAULT_DAY_ZONES } from '../server/config.ts';
import { startMqttListener } from '../server/ingest/mqttListener.ts';
import type { LoadOrders, LoadResult } from './controlRoomLoad.ts';
import { machineLine } from './launch.ts';
import { benchDevices, DAY, log, MINUTE, openBenchDatabase, percentile, writeHistory } from './telemetryHistory.ts';
import { numberArgument } from './arguments.ts';

const viewers = numberArgument('--viewers', 200);
const durationS = numberArgument('--duration', 60);
const ingestRate = numberArgument('--ingest', 20000);
const deviceCount = numberArgument('--devices', 1000);
const boardComponents = numberArgument('--board', 0);
/** How often an API user reads the board (s). */
const BOARD_EVERY_S = 30;
/** The city ingest's message: ten values. */
const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9'];
const REFRESH_S = 10;
const LIGHT_EVERY_MS = 100;

const bench = await openBenchDatabase(process.argv.includes('--postgres'), 'terrasight-bench-control-room-');
const { db, database, tenantId } = bench;
const step = 15 * MINUTE;
const end = Date.now() - (Date.now() % step);
const fleet = await benchDevices(db, tenantId, 'Control room meter', 100);
await writeHistory(db, tenantId, '100 devices × 31 days', fleet.ids, end - 31 * DAY, end, step);
await db.systemQuery(sql`ANALYZE`);

const reporting = ingestRate > 0 ? await benchDevices(db, tenantId, 'Control room sender', deviceCount) : { ids: [] };
const devices = reporting.ids.length
  ? await db.systemQuery<{ id: number; access_token: string }>(sql`SELECT id, access_token FROM entities WHERE id = ANY(${`{${reporting.ids.join(',')}}`}::int[]) ORDER BY id`)
  : [];

const app: FastifyInstance = await buildApp({ db, jwtSecret: 'bench-secret-that-is-long-enough-for-hs256-signing', telemetryDayZones: DEFAULT_DAY_ZONES });
await app.ready();
const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
const mqtt = await startMqttListener(app.ingestion.broker, { host: '127.0.0.1', port: 0 });
const signIn = async (email: string) => {
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'demo1234' } });
  return `Bearer ${login.json().access_token as string}`;
};
const admin = await signIn('admin@demo.city');

// the dashboard's ten KPIs
const item = (aggregation: string) => [{ key: 'temperature', aggregation, entity_type_ids: [fleet.typeId] }];
const drafts = [
  { query: item('avg'), definition: { time_interval: '1h', time_range: '24h' } },
  { query: item('max'), definition: { time_interval: '1h', time_range: '24h' } },
  { query: item('min'), definition: { time_interval: '15m', time_range: '24h' } },
  { query: item('sum'), definition: { time_interval: '1d', time_range: '30d' } },
  { query: item('value_count'), definition: { time_interval: '1h', time_range: '7d' } },
  { query: item('avg'), definition: { time_interval: '1h', time_range: '30d', compare: { compare_shift: 'previous' } } },
  { query: item('max'), definition: { time_interval: '1d', time_range: '7d' } },
  { query: item('avg'), definition: { time_interval: '15m', time_range: '12h', series: 'per_entity' } },
  { query: item('min'), definition: { time_interval: '1h', time_range: '7d' } },
  { query: item('latest-value'), definition: { time_interval: '1h', time_range: '24h' } },
];
/** A GraphQL operation as the admin: its data. */
async function graphql(query: string, variables: Record<string, unknown>) {
  const body = (await app.inject({ method: 'POST', url: '/graphql', headers: { authorization: admin }, payload: { query, variables } })).json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}
const kpis: number[] = [];
for (let i = 0; i < (boardComponents || drafts.length); i++) {
  const draft = drafts[i % drafts.length];
  const { create_kpi: made } = await graphql('mutation($name: JSON, $query: JSON, $definition: JSON) { create_kpi(name: $name, query: $query, definition: $definition) { id } }',
    { name: { en: `Control room ${i + 1}` }, query: draft.query, definition: { chart: 'line', refresh_interval: REFRESH_S, ...draft.definition } });
  kpis.push(Number(made.id));
}
let paths = kpis.map((kpi) => `/kpi-data?id=${kpi}&timezone=Europe/Bratislava&max_points=800`);
let everyS = REFRESH_S;
const screens: string[] = [];
if (boardComponents) {
  log(`a public-API board of ${kpis.length} KPI components, shared with ${viewers} API users`);
  const { public_api_create_board: board } = await graphql('mutation { public_api_create_board(name: { en: "Town hall" }) { id resource_uuid } }', {});
  for (const kpi of kpis) {
    await graphql('mutation($b: [Int!], $d: JSON) { public_api_create_component(name: "Chart", type: "kpi", definition: $d, board_ids: $b) { id } }', { b: [Number(board.id)], d: { kpi_id: kpi } });
  }
  for (let i = 0; i < viewers; i++) {
    const made = await app.inject({ method: 'POST', url: '/api/users', headers: { authorization: admin }, payload: { username: `board-reader-${i}.bot`, password: 'long-secret-pass-1', permissions: ['public-api.board.*'] } });
    if (made.statusCode !== 200) throw new Error(`API user: ${made.statusCode} ${made.body}`);
    await graphql('mutation($r: String, $q: String) { public_api_share_board(resource: $r, requester: $q, scopeName: "view") { id } }', { r: board.resource_uuid, q: made.json().id });
    screens.push(`Bearer ${made.json().access_token as string}`);
  }
  paths = [`/public-api-component-list?board_id=${board.id}`];
  everyS = BOARD_EVERY_S;
} else {
  log(`signing in ${viewers} screens`);
  for (let i = 0; i < viewers; i++) screens.push(await signIn(i % 2 ? 'admin@demo.city' : 'operator@demo.city'));
}

// the statements of KPI answers: an item's entities and the series, both read telemetry tables
let statements = 0;
const tenantQuery = db.tenantQuery.bind(db);
db.tenantQuery = ((...args: Parameters<typeof db.tenantQuery>) => {
  if (JSON.stringify(args[1]).includes('telemetry')) statements++;
  return tenantQuery(...args);
}) as typeof db.tenantQuery;

const what = boardComponents
  ? `${viewers} API users reading a board of ${kpis.length} KPI components every ${everyS} s`
  : `${viewers} screens × ${kpis.length} KPI widgets every ${everyS} s`;
log(`${what} for ${durationS} s${ingestRate ? `, ${ingestRate} points/s from ${devices.length} MQTT devices` : ''}`);
const ordersDir = mkdtempSync(join(tmpdir(), 'terrasight-control-room-'));
const ordersFile = join(ordersDir, 'orders.json');
const orders: LoadOrders = {
  baseUrl, mqttUrl: `mqtt://127.0.0.1:${mqtt.port}`, screens, paths, everyS, durationS, lightToken: admin, lightEveryMs: LIGHT_EVERY_MS,
  ingestRate, devices, keys: KEYS,
};
writeFileSync(ordersFile, JSON.stringify(orders));
const load = promisify(execFile)(process.execPath, [join(import.meta.dirname, 'controlRoomLoad.ts'), ordersFile], { maxBuffer: 256 * 1024 * 1024 });
// counted from when the clients are connected: the statements of the run only
statements = 0;
const { stdout } = await load;
rmSync(ordersDir, { recursive: true, force: true });
const { times, bytes, statuses: byStatus, light, acked, errors, seconds } = JSON.parse(stdout) as LoadResult;
const statuses = new Map(Object.entries(byStatus).map(([status, count]) => [Number(status), count]));

const sorted = times.sort((a, b) => a - b);
const sortedLight = light.sort((a, b) => a - b);
const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(1));
const perKpiInterval = statements / kpis.length / (seconds / REFRESH_S);
const refused = statuses.get(429) ?? 0;
const failed = [...statuses].filter(([status]) => status >= 500).reduce((total, [, count]) => total + count, 0);
console.log(`\nControl room: ${what} over HTTP, ${durationS} s${ingestRate ? `, ${ingestRate} points/s asked over MQTT` : ''} — ${database} — ${machineLine()}`);
console.log('| answers (kB each) | by status | p50 / p95 / p99 ms | max ms | statements of KPI answers | per KPI per refresh interval | GET /tenant every 100 ms: p99 / worst ms | points PUBACKed /s (errors) |');
console.log('| ---: | --- | --- | ---: | ---: | ---: | --- | --- |');
console.log(`| ${times.length} (${Math.round(bytes / Math.max(1, times.length) / 1024).toLocaleString('en')}) | ${[...statuses].map(([status, count]) => `${status}: ${count}`).join(', ')} | ${[50, 95, 99].map((p) => ms(percentile(sorted, p))).join(' / ')} | ${ms(sorted.at(-1) ?? NaN)} | ${statements} | ${perKpiInterval.toFixed(2)} | ${ms(percentile(sortedLight, 99))} / ${ms(sortedLight.at(-1) ?? NaN)} | ${Math.round(acked * KEYS.length / seconds).toLocaleString('en')} (${errors}) |`);
const p95 = percentile(sorted, 95);
console.log(`Goals: p95 ≤ 100 ms ${p95 <= 100 ? 'met' : 'NOT met'}; no 429 and no 5xx ${refused + failed === 0 ? 'met' : 'NOT met'}; ≤ 2 statements per KPI per refresh interval ${perKpiInterval <= 2 ? 'met' : 'NOT met'}; light client ≤ 100 ms ${(sortedLight.at(-1) ?? Infinity) <= 100 ? 'met' : 'NOT met'}.`);
await mqtt.close();
await app.close();
await bench.close();
process.exit(0);
