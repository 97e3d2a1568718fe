// `node bench/control-room.ts [--postgres] [--viewers 200] [--duration 60]` (`npm run bench:control-room`)
// A control room: --viewers screens (half signed in as the demo operator, half as the demo admin,
// each its own session) show one dashboard of ten KPI widgets, each polling `GET /kpi-data` every
// 10 s (the KPIs' refresh interval) at its own phase, for --duration s, while a light client reads
// `GET /tenant` every 100 ms. The KPIs read 100 devices with 31 days of 15-minute data (written
// through the real telemetry writer into a fresh demo database): hourly, daily and 15-minute
// buckets over 24 hours to 30 days, five aggregations, one with a comparison. The server runs in
// this process (app.inject: no network), so the database statements behind the answers can be
// counted: every statement of a KPI answer (an item's entities, a range's series) during the run.
// Prints /kpi-data p50/p95/p99 and max, the answers by status, the statements per KPI per refresh
// interval, and the light client's worst and p99 delay.
//
// Goals on 2 cores: /kpi-data p95 ≤ 100 ms, no 429 and no 5xx, ≤ 2 statements per KPI per refresh
// interval whatever the number of viewers, the light client delayed ≤ 100 ms.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../server/app.ts';
import { DEFAULT_DAY_ZONES } from '../server/config.ts';
import { machineLine } from './launch.ts';
import { benchDevices, DAY, log, MINUTE, openBenchDatabase, percentile, writeHistory } from './telemetryHistory.ts';

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return Number(at >= 0 ? process.argv[at + 1] : fallback);
};
const viewers = argument('--viewers', '200');
const durationS = argument('--duration', '60');
const REFRESH_S = 10;
const LIGHT_EVERY_MS = 100;

const bench = await openBenchDatabase(process.argv.includes('--postgres'), 'terrasight-bench-control-room-');
const { db, database, tenantId } = bench;
const step = 15 * MINUTE;
const end = Date.now() - (Date.now() % step);
const fleet = await benchDevices(db, tenantId, 'Control room meter', 100);
await writeHistory(db, tenantId, '100 devices × 31 days', fleet.ids, end - 31 * DAY, end, step);
await db.systemQuery(sql`ANALYZE`);

const app: FastifyInstance = await buildApp({ db, jwtSecret: 'bench-secret-that-is-long-enough-for-hs256-signing', telemetryDayZones: DEFAULT_DAY_ZONES });
await app.ready();
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
const kpis: number[] = [];
for (const [i, draft] of drafts.entries()) {
  const answer = await app.inject({
    method: 'POST', url: '/graphql', headers: { authorization: admin },
    payload: {
      query: 'mutation($name: JSON, $query: JSON, $definition: JSON) { create_kpi(name: $name, query: $query, definition: $definition) { id } }',
      variables: { name: { en: `Control room ${i + 1}` }, query: draft.query, definition: { chart: 'line', refresh_interval: REFRESH_S, ...draft.definition } },
    },
  });
  const body = answer.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  kpis.push(Number(body.data.create_kpi.id));
}
log(`signing in ${viewers} screens`);
const screens: string[] = [];
for (let i = 0; i < viewers; i++) screens.push(await signIn(i % 2 ? 'admin@demo.city' : 'operator@demo.city'));

// the statements of KPI answers: an item's entities and the series, both read telemetry tables
let statements = 0;
const tenantQuery = db.tenantQuery.bind(db);
db.tenantQuery = ((...args: Parameters<typeof db.tenantQuery>) => {
  if (JSON.stringify(args[1]).includes('telemetry')) statements++;
  return tenantQuery(...args);
}) as typeof db.tenantQuery;

log(`${viewers} screens × ${kpis.length} widgets every ${REFRESH_S} s for ${durationS} s`);
const times: number[] = [];
const statuses = new Map<number, number>();
const light: number[] = [];
const started = performance.now();
const until = started + durationS * 1000;
statements = 0;
const poll = async (token: string, kpi: number) => {
  await sleep(Math.random() * REFRESH_S * 1000);
  while (performance.now() < until) {
    const at = performance.now();
    const answer = await app.inject({ method: 'GET', url: `/kpi-data?id=${kpi}&timezone=Europe/Bratislava&max_points=800`, headers: { authorization: token } });
    times.push(performance.now() - at);
    statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
    await sleep(Math.max(0, REFRESH_S * 1000 - (performance.now() - at)));
  }
};
const lightClient = async () => {
  while (performance.now() < until) {
    const at = performance.now();
    await app.inject({ method: 'GET', url: '/tenant', headers: { authorization: admin } });
    light.push(performance.now() - at);
    await sleep(LIGHT_EVERY_MS);
  }
};
await Promise.all([...screens.flatMap((token) => kpis.map((kpi) => poll(token, kpi))), lightClient()]);
const seconds = (performance.now() - started) / 1000;

const sorted = times.sort((a, b) => a - b);
const sortedLight = light.sort((a, b) => a - b);
const ms = (value: number) => value.toFixed(1);
const perKpiInterval = statements / kpis.length / (seconds / REFRESH_S);
const refused = statuses.get(429) ?? 0;
const failed = [...statuses].filter(([status]) => status >= 500).reduce((total, [, count]) => total + count, 0);
console.log(`\nControl room: ${viewers} screens × ${kpis.length} KPI widgets every ${REFRESH_S} s, ${durationS} s — ${database} — ${machineLine()}`);
console.log('| /kpi-data answers | by status | p50 / p95 / p99 ms | max ms | statements of KPI answers | per KPI per refresh interval | GET /tenant every 100 ms: p99 / worst ms |');
console.log('| ---: | --- | --- | ---: | ---: | ---: | --- |');
console.log(`| ${times.length} | ${[...statuses].map(([status, count]) => `${status}: ${count}`).join(', ')} | ${[50, 95, 99].map((p) => ms(percentile(sorted, p))).join(' / ')} | ${ms(sorted.at(-1) ?? NaN)} | ${statements} | ${perKpiInterval.toFixed(2)} | ${ms(percentile(sortedLight, 99))} / ${ms(sortedLight.at(-1) ?? NaN)} |`);
const p95 = percentile(sorted, 95);
console.log(`Goals: p95 ≤ 100 ms ${p95 <= 100 ? 'met' : 'NOT met'}; no 429 and no 5xx ${refused + failed === 0 ? 'met' : 'NOT met'}; ≤ 2 statements per KPI per refresh interval ${perKpiInterval <= 2 ? 'met' : 'NOT met'}; light client ≤ 100 ms ${(sortedLight.at(-1) ?? Infinity) <= 100 ? 'met' : 'NOT met'}.`);
await app.close();
await bench.close();
process.exit(0);
