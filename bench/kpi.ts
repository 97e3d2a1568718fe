// `node bench/kpi.ts [--postgres] [--days 365] [--requests 200]` (`npm run bench:kpi`): GET /kpi-data
// on a year of minute data. A fresh demo database (embedded PGlite in a temporary directory, or a
// throw-away PostgreSQL with --postgres / DATABASE_URL) gets, through the real telemetry writer
// (raw points, roll-ups, latest values), one year of minute data for 10 devices (one key) and one
// day of minute data for 1,000 devices; then KPIs over them are asked through the real app
// (app.inject, one request at a time, as admin@demo.city) and p50/p95/p99 printed per case.
// Goal on 2 cores: p95 < 50 ms for daily buckets over a year (UTC and Europe/Bratislava), monthly
// buckets over a year and hourly buckets over a day for the 1,000 devices.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { DEFAULT_DAY_ZONES } from '../server/config.ts';
import { machineLine } from './launch.ts';
import { benchDevices, DAY, log, MINUTE, openBenchDatabase, percentile, writeHistory } from './telemetryHistory.ts';
import { argument } from './arguments.ts';

const days = Number(argument('--days', '365'));
const requests = Number(argument('--requests', '200'));

const bench = await openBenchDatabase(process.argv.includes('--postgres'), 'terrasight-bench-kpi-');
const { db, database, tenantId } = bench;

const now = Date.now();
const end = now - (now % MINUTE);
const meters = await benchDevices(db, tenantId, 'Bench meter', 10);
const lamps = await benchDevices(db, tenantId, 'Bench lamp', 1000);
log(`writing ${days} days of minute data for 10 devices and one day for 1,000 devices into ${database}`);
const year = await writeHistory(db, tenantId, `10 devices × ${days} days`, meters.ids, end - days * DAY, end);
const crowd = await writeHistory(db, tenantId, '1,000 devices × 1 day', lamps.ids, end - DAY, end);
await db.systemQuery(sql`ANALYZE`);
const [sizes] = await db.systemQuery<Record<string, string>>(sql`SELECT
  (SELECT count(*) FROM telemetry)::text AS raw, (SELECT count(*) FROM telemetry_quarter_hourly)::text AS quarter,
  (SELECT count(*) FROM telemetry_hourly)::text AS hourly, (SELECT count(*) FROM telemetry_daily)::text AS daily`);
log(`rows: raw ${sizes.raw}, 15-minute ${sizes.quarter}, hourly ${sizes.hourly}, daily ${sizes.daily}`);

// The default configuration's TELEMETRY_DAY_ZONES: the app builds their local days from the
// 15-minute roll-up as it starts (the history was written before), as a server does for a zone added.
const building = performance.now();
const app: FastifyInstance = await buildApp({ db, jwtSecret: 'bench-secret-that-is-long-enough-for-hs256-signing', telemetryDayZones: DEFAULT_DAY_ZONES });
await app.ready();
const [{ zoned }] = await db.systemQuery<{ zoned: string }>(sql`SELECT count(*)::text AS zoned FROM telemetry_daily_zoned`);
log(`app started in ${((performance.now() - building) / 1000).toFixed(1)} s, building ${zoned} rows of local days (${DEFAULT_DAY_ZONES.join(', ')})`);
const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'admin@demo.city', password: 'demo1234' } });
const token = login.json().access_token as string;
const headers = { authorization: `Bearer ${token}` };

async function kpi(query: object[], definition: object): Promise<number> {
  const answer = await app.inject({
    method: 'POST', url: '/graphql', headers,
    payload: {
      query: 'mutation($name: JSON, $query: JSON, $definition: JSON) { create_kpi(name: $name, query: $query, definition: $definition) { id } }',
      variables: { name: { en: 'Bench' }, query, definition: { chart: 'line', ...definition } },
    },
  });
  const body = answer.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return Number(body.data.create_kpi.id);
}

const meterAvg = [{ key: 'temperature', aggregation: 'avg', entity_ids: meters.ids }];
const meterAll = ['avg', 'max', 'min', 'sum', 'value_count', 'latest-value'].map((aggregation) => ({ key: 'temperature', aggregation, entity_ids: meters.ids }));
const lampAvg = [{ key: 'temperature', aggregation: 'avg', entity_type_ids: [lamps.typeId] }];
const dailyYear = await kpi(meterAvg, { time_interval: '1d', time_range: '1y' });
const dailyYearPerEntity = await kpi(meterAvg, { time_interval: '1d', time_range: '1y', series: 'per_entity' });
const dailyYearAll = await kpi(meterAll, { time_interval: '1d', time_range: '1y' });
const monthlyYear = await kpi(meterAvg, { time_interval: '1M', time_range: '1y' });
const hourlyYear = await kpi(meterAvg, { time_interval: '1h', time_range: '1y' });
const hourlyDayCrowd = await kpi(lampAvg, { time_interval: '1h', time_range: '24h' });
const hourlyDayCrowdPerEntity = await kpi(lampAvg, { time_interval: '1h', time_range: '24h', series: 'per_entity' });
const minutesDay = await kpi(meterAvg, { time_interval: '1m', time_range: '24h' });

const cases: [string, number, string, boolean][] = [
  ['daily buckets over a year, 10 devices, UTC', dailyYear, 'UTC', true],
  ['daily buckets over a year, 10 devices, Europe/Bratislava', dailyYear, 'Europe/Bratislava', true],
  ['daily buckets over a year, 10 devices, Asia/Kolkata', dailyYear, 'Asia/Kolkata', false],
  ['daily buckets over a year, per device (10 series), UTC', dailyYearPerEntity, 'UTC', false],
  ['daily buckets over a year, 6 aggregations, Europe/Bratislava', dailyYearAll, 'Europe/Bratislava', false],
  ['monthly buckets over a year, 10 devices, UTC', monthlyYear, 'UTC', true],
  ['monthly buckets over a year, 10 devices, Europe/Bratislava', monthlyYear, 'Europe/Bratislava', true],
  ['hourly buckets over a year, 10 devices, UTC', hourlyYear, 'UTC', false],
  ['hourly buckets over a day, 1,000 devices, UTC', hourlyDayCrowd, 'UTC', true],
  ['hourly buckets over a day, 1,000 devices, Europe/Bratislava', hourlyDayCrowd, 'Europe/Bratislava', true],
  ['hourly buckets over a day, per device (1,000 series), UTC', hourlyDayCrowdPerEntity, 'UTC', false],
  ['minute buckets over a day, 10 devices (raw points), UTC', minutesDay, 'UTC', false],
];

const rows: string[] = [];
let missed = 0;
for (const [name, id, zone, goal] of cases) {
  const url = `/kpi-data?id=${id}&timezone=${encodeURIComponent(zone)}`;
  const times: number[] = [];
  let points = 0;
  let bytes = 0;
  for (let i = 0; i < requests + 10; i++) {
    const started = performance.now();
    const answer = await app.inject({ method: 'GET', url, headers });
    const elapsed = performance.now() - started;
    if (answer.statusCode !== 200) throw new Error(`${name}: ${answer.statusCode} ${answer.body.slice(0, 300)}`);
    if (i < 10) { // warm-up
      const body = answer.json() as { series: { data: unknown[] }[] };
      points = body.series.reduce((total, series) => total + series.data.length, 0);
      bytes = answer.body.length;
      continue;
    }
    times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p).toFixed(1));
  if (goal && Number(p95) >= 50) missed++;
  rows.push(`| ${name} | ${points.toLocaleString('en')} | ${Math.round(bytes / 1024)} | ${p50} | ${p95} | ${p99} |${goal ? ' goal' : ''}`);
  log(`${name}: p50 ${p50} ms, p95 ${p95} ms`);
}

await app.close();
await bench.close();

console.log(`GET /kpi-data, ${requests} requests per case one at a time after 10 warm-up, ${database} — ${machineLine()}`);
console.log(`Data: ${year.points.toLocaleString('en')} points (10 devices × ${days} days, ${Math.round(year.points / year.seconds).toLocaleString('en')} points/s through the writer) + ${crowd.points.toLocaleString('en')} (1,000 devices × 1 day); rows: raw ${sizes.raw}, 15-minute ${sizes.quarter}, hourly ${sizes.hourly}, daily ${sizes.daily}`);
console.log('| case | points | kB | p50 ms | p95 ms | p99 ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(row);
console.log(missed ? `Goal (p95 < 50 ms on the cases marked goal) missed by ${missed} case(s).` : 'Goal (p95 < 50 ms on the cases marked goal): met.');
