// The roll-ups folded when a quarter hour closes (server/engines/rollups/rollupFolder.ts): whatever
// the folder's progress — a quarter hour half folded, days behind, done — and whatever arrives
// late or out of order meanwhile, GET /kpi-data and the schedulers' slot aggregates answer what
// the raw points answer: random device sets, ranges, zones (Bratislava's summer time starts on
// 2026-03-29), buckets and aggregations, on the embedded database and on PostgreSQL. At the end
// every roll-up row equals its aggregate made again from the raw points.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kpiSeriesQuery, type KpiAggregation, type SeriesRow } from '../../server/db/kpiDataQueries.ts';
import { aggregateOverSlot, type RunAggregation } from '../../server/db/schedulerQueries.ts';
import { foldStep } from '../../server/engines/rollups/rollupFolder.ts';
import type { TelemetryPoint } from '../../server/telemetry/telemetryPoint.ts';
import { telemetryWriter } from '../../server/telemetry/telemetryWriter.ts';
import { foldedPlan, kpiRange, type KpiInterval } from '../../server/time/kpiTime.ts';
import { foldedUntil } from '../../server/db/rollupQueries.ts';
import { KPI_AGGREGATIONS } from '../../src/schemas/enums.ts';
import { makeEntities } from '../support/testEntities.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let city: string;
let devices: number[];

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const START = at('2026-03-28T12:00:00Z');
const END = at('2026-03-30T12:00:00Z');
const ZONES = ['UTC', 'Europe/Bratislava', 'Asia/Kolkata', 'Asia/Kathmandu'];
const INTERVALS: KpiInterval[] = ['15m', '1h', '1d'];

let seed = 20_261_128;
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];

async function write(points: TelemetryPoint[]) {
  const writer = telemetryWriter(t.db, { limits: { maxBatchPoints: 200 } });
  await writer.write(points);
  await writer.close();
}

async function foldState() {
  const [row] = await t.db.systemQuery<{ folded_until: string; entity_done: number }>(sql`SELECT folded_until::text, entity_done FROM telemetry_fold_state`);
  return row;
}

/** What the raw points answer for the KPI's items: `item:entity` → [ms, value][]. */
async function rawAnswer(zone: string, interval: KpiInterval, from: number, to: number, entityIds: number[], perEntity: boolean) {
  const range = kpiRange({ time_interval: interval, date_range: { from: new Date(from).toISOString(), to: new Date(to).toISOString() } }, zone, 0);
  const rows = await t.db.tenantQuery<SeriesRow>(city, kpiSeriesQuery({
    tenantId: city, plan: [{ source: 'telemetry', spans: [[range.from, range.to]] }], zone, interval, perEntity,
    items: KPI_AGGREGATIONS.map((aggregation, item) => ({ item, key: 'prop', aggregation: aggregation as KpiAggregation, entityIds })),
  })!);
  return Object.fromEntries(rows.map((row) => [`${row.item}:${row.entity_id ?? ''}`, JSON.parse(row.data).map(([ms, value]: [number, number]) => [Number(ms), value])]));
}

/** The same through GET /kpi-data, as a client reads it. */
async function endpointAnswer(zone: string, interval: KpiInterval, from: number, to: number, entityIds: number[], perEntity: boolean) {
  const created = await t.send({
    method: 'POST', path: '/graphql', token: admin,
    body: {
      query: 'mutation($name: JSON, $query: JSON, $definition: JSON) { create_kpi(name: $name, query: $query, definition: $definition) { id } }',
      variables: {
        name: { en: 'Fold check' },
        query: KPI_AGGREGATIONS.map((aggregation) => ({ key: 'prop', aggregation, entity_ids: entityIds })),
        definition: { chart: 'line', time_interval: interval, date_range: { from: new Date(from).toISOString(), to: new Date(to).toISOString() }, ...perEntity ? { series: 'per_entity' } : {} },
      },
    },
  });
  expect(created.body.errors, JSON.stringify(created.body.errors)).toBeUndefined();
  const answer = await t.get(`/kpi-data?id=${created.body.data.create_kpi.id}&timezone=${encodeURIComponent(zone)}`, admin);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const series = answer.body.series as { item: number; entity_id: number | null; data: { ts: string; value: number }[] }[];
  return Object.fromEntries(series.filter((one) => one.data.length > 0)
    .map((one) => [`${one.item}:${one.entity_id ?? ''}`, one.data.map((point) => [at(point.ts), point.value])]));
}

/** A random KPI over the test's days: the endpoint answers what the raw points do. */
async function checkKpi(label: string) {
  const zone = pick(ZONES);
  const interval = pick(INTERVALS);
  const from = START - 6 * 60 * MINUTE + Math.floor(random() * 40) * 90 * MINUTE;
  const to = Math.min(from + (1 + Math.floor(random() * 48)) * 60 * MINUTE, END + 6 * 60 * MINUTE);
  const entityIds = devices.filter(() => random() < 0.6);
  if (!entityIds.length) entityIds.push(devices[0]);
  const perEntity = random() < 0.5;
  const what = `${label}: ${zone} ${interval} ${new Date(from).toISOString()}–${new Date(to).toISOString()} entities ${entityIds.length} per entity ${perEntity}, fold state ${JSON.stringify(await foldState())}`;
  expect(await endpointAnswer(zone, interval, from, to, entityIds, perEntity), what).toEqual(await rawAnswer(zone, interval, from, to, entityIds, perEntity));
}

/** A scheduler's slot aggregate (whole hours, or quarter hours) equals the raw points'. */
async function checkSlot(label: string) {
  const quarterHours = random() < 0.5;
  const from = START + Math.floor(random() * 40) * 60 * MINUTE;
  const to = from + (1 + Math.floor(random() * 10)) * 60 * MINUTE;
  const aggregation = pick(['avg', 'max', 'min', 'sum', 'latest-value'] as RunAggregation[]);
  const plan = foldedPlan([{ source: quarterHours ? 'telemetry_quarter_hourly' : 'telemetry_hourly', spans: [[from, to]] }], 'UTC', await foldedUntil(t.db));
  const slot = { tenantId: city, zone: 'UTC', entityIds: devices, key: 'prop', aggregation, plan, from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  const answer = await t.db.tenantTx(city, (tx) => aggregateOverSlot(tx, slot));
  const truth = await t.db.systemQuery<{ entity_id: number; value: number }>(sql`
    SELECT entity_id, ${sql.raw({ avg: 'avg(value_num)', max: 'max(value_num)', min: 'min(value_num)', sum: 'sum(value_num)', 'latest-value': '(array_agg(value_num ORDER BY ts DESC))[1]' }[aggregation])} AS value
    FROM telemetry WHERE entity_id = ANY(${`{${devices.join(',')}}`}::int[]) AND key = 'prop' AND ts >= ${slot.from}::timestamptz AND ts < ${slot.to}::timestamptz
    GROUP BY entity_id`);
  const byEntity = (rows: { entity_id: number; value: number | null }[]) => Object.fromEntries(rows.map((row) => [row.entity_id, Number(row.value)]));
  expect(byEntity(answer), `${label}: slot ${slot.from}–${slot.to} ${aggregation} quarter hours ${quarterHours} plan ${JSON.stringify(plan)}`).toEqual(byEntity(truth));
}

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  city = (await t.get('/tenant', admin)).body.id;
  devices = (await makeEntities(t, city, 'Fold test device', 6)).ids;
  // The folder's line as a data directory would have it that stopped folding on the 28th at noon.
  await t.db.systemQuery(sql`UPDATE telemetry_fold_state SET folded_until = ${new Date(START).toISOString()}::timestamptz, entity_done = 0`);
});

afterAll(() => t?.close());

describe('roll-ups folded when a quarter hour closes', () => {
  it('answer what the raw points answer whatever the folder has done and whatever arrives late', async () => {
    // Points (halves, so every sum is exact) every 1–9 minutes, from six hours before the line to
    // six after the end; some at the same minute as another device's.
    const points: TelemetryPoint[] = [];
    for (const entityId of devices) {
      for (let ms = START - 6 * 60 * MINUTE; ms < END + 6 * 60 * MINUTE; ms += (1 + Math.floor(random() * 9)) * MINUTE) {
        points.push({ tenantId: city, entityId, key: 'prop', ts: ms + Math.floor(random() * 59) * 1000, value: Math.round((random() * 200 - 100) * 2) / 2 });
      }
    }
    // Shuffled: most arrive now in any order; the rest arrive later, between the folder's steps.
    for (let i = points.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [points[i], points[j]] = [points[j], points[i]];
    }
    const later = points.splice(0, Math.floor(points.length * 0.3));
    await write(points);
    await checkKpi('before any fold');

    let closedBefore = START;
    let steps = 0;
    let partial = 0;
    let straddled = 0;
    for (let round = 0; round < 24; round++) {
      closedBefore += Math.floor(random() * 4 * 60) * MINUTE;
      // a few parts of a fold, each of a random size: quarter hours left half folded
      for (let part = Math.floor(random() * 6); part >= 0; part--) {
        const step = await foldStep(t.db, closedBefore, 1 + Math.floor(random() * 400));
        if (!step.more) break;
        steps++;
      }
      if (random() < 0.5) {
        // a quarter hour folded up to one of the test's devices, then a point for each device in it
        const k = Math.floor(random() * (devices.length - 1));
        const { entity_done: done } = await foldState();
        const [{ n }] = await t.db.systemQuery<{ n: number }>(sql`SELECT count(*)::int AS n FROM telemetry_latest WHERE entity_id > ${done} AND entity_id < ${devices[k]}`);
        const step = await foldStep(t.db, closedBefore, Number(n));
        const state = await foldState();
        if (step.more && state.entity_done === devices[k]) {
          straddled++;
          const quarter = at(state.folded_until);
          await write(devices.map((entityId) => ({ tenantId: city, entityId, key: 'prop', ts: quarter + Math.floor(random() * 15 * MINUTE / 1000) * 1000 + 1, value: Math.round(random() * 100) / 2 })));
        }
      }
      if ((await foldState()).entity_done > 0) partial++;
      await write(later.splice(0, Math.ceil(later.length / (24 - round))));
      await checkKpi(`round ${round}`);
      if (round % 3 === 0) await checkSlot(`round ${round}`);
    }
    expect(later).toHaveLength(0);
    expect(steps).toBeGreaterThan(50);
    expect(partial).toBeGreaterThan(2); // the checks met quarter hours folded for some devices only
    expect(straddled).toBeGreaterThan(2); // and points arrived in such a quarter hour on both sides of the line

    // Everything folded: the answers still agree, and every roll-up row is its raw points' aggregate.
    for (let more = true; more;) ({ more } = await foldStep(t.db, END + 12 * 60 * MINUTE, 5_000));
    expect(new Date((await foldState()).folded_until).getTime()).toBeGreaterThan(END);
    for (let check = 0; check < 6; check++) await checkKpi(`all folded ${check}`);
    await checkSlot('all folded');
    const [{ quarters, hours, days, zoned }] = await t.db.systemQuery<{ quarters: number; hours: number; days: number; zoned: number }>(sql`
      WITH raw AS (
        SELECT entity_id, key, date_bin('15 minutes', ts, timestamptz '2000-01-01 00:00:00+00') AS bucket, count(*) AS count, sum(value_num) AS sum,
          min(value_num) AS min, max(value_num) AS max, (array_agg(value_num ORDER BY ts DESC))[1] AS last_value, max(ts) AS last_ts
        FROM telemetry WHERE key = 'prop' GROUP BY 1, 2, 3
      ), differ AS (
        SELECT 'quarter' AS level FROM (
          (SELECT * FROM raw EXCEPT SELECT entity_id, key, bucket, count, sum, min, max, last_value, last_ts FROM telemetry_quarter_hourly WHERE key = 'prop')
          UNION ALL (SELECT entity_id, key, bucket, count, sum, min, max, last_value, last_ts FROM telemetry_quarter_hourly WHERE key = 'prop' EXCEPT SELECT * FROM raw)) d
        UNION ALL SELECT 'hour' FROM (
          (SELECT entity_id, date_trunc('hour', bucket, 'UTC'), sum(count), sum(sum), min(min), max(max) FROM raw GROUP BY 1, 2
           EXCEPT SELECT entity_id, bucket, count, sum, min, max FROM telemetry_hourly WHERE key = 'prop')) d
        UNION ALL SELECT 'day' FROM (
          (SELECT entity_id, date_trunc('day', bucket, 'UTC'), sum(count), sum(sum), min(min), max(max) FROM raw GROUP BY 1, 2
           EXCEPT SELECT entity_id, bucket, count, sum, min, max FROM telemetry_daily WHERE key = 'prop')) d
        UNION ALL SELECT 'zoned' FROM (
          (SELECT entity_id, z.zone, date_trunc('day', bucket, z.zone), sum(count), sum(sum), min(min), max(max) FROM raw CROSS JOIN telemetry_day_zones z GROUP BY 1, 2, 3
           EXCEPT SELECT entity_id, zone, bucket, count, sum, min, max FROM telemetry_daily_zoned WHERE key = 'prop')) d
      )
      SELECT count(*) FILTER (WHERE level = 'quarter')::int AS quarters, count(*) FILTER (WHERE level = 'hour')::int AS hours,
        count(*) FILTER (WHERE level = 'day')::int AS days, count(*) FILTER (WHERE level = 'zoned')::int AS zoned FROM differ`);
    expect({ quarters, hours, days, zoned }).toEqual({ quarters: 0, hours: 0, days: 0, zoned: 0 });
  });

  it('lose and double nothing when batches commit while a quarter hour is folded in parts', async () => {
    // Four writers send points into two hours while the folder folds them a device at a time
    // (the demo's devices, with nothing in those hours, passed in one part): on PostgreSQL the
    // batches commit between and during its parts.
    const from = at('2026-04-02T10:00:00Z');
    await t.db.systemQuery(sql`UPDATE telemetry_fold_state SET folded_until = ${new Date(from).toISOString()}::timestamptz, entity_done = 0`);
    let writing = 4;
    // Batches of a few hundred points each, so that they take a while and overlap the fold's parts.
    const writers = devices.slice(0, 4).map(async (entityId, w) => {
      for (let round = 0; round < 12; round++) {
        const batch: TelemetryPoint[] = [];
        for (let i = 0; i < 300; i++) {
          const ts = from + Math.floor(random() * 120 * MINUTE) + w;
          batch.push({ tenantId: city, entityId: i % 2 ? entityId : devices[5 - (w % 2)], key: `race${i % 3}`, ts, value: round });
        }
        await write(batch);
      }
      writing--;
    });
    const folder = (async () => {
      while (writing > 0) {
        const { entity_done: done } = await foldState();
        const [{ n }] = await t.db.systemQuery<{ n: number }>(sql`SELECT count(*)::int AS n FROM telemetry_latest WHERE entity_id > ${done} AND entity_id < ${devices[0]}`);
        const step = await foldStep(t.db, from + 135 * MINUTE, n > 0 ? Number(n) : 1);
        if (!step.more) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await Promise.all([...writers, folder]);
    for (let more = true; more;) ({ more } = await foldStep(t.db, from + 180 * MINUTE, 5_000));
    const [{ differ, rows }] = await t.db.systemQuery<{ differ: number; rows: number }>(sql`
      WITH raw AS (
        SELECT entity_id, date_bin('15 minutes', ts, timestamptz '2000-01-01 00:00:00+00') AS bucket, count(*)::bigint AS count, sum(value_num) AS sum
        FROM telemetry WHERE key LIKE 'race_' GROUP BY 1, 2
      ), folded AS (SELECT entity_id, bucket, sum(count)::bigint, sum(sum) FROM telemetry_quarter_hourly WHERE key LIKE 'race_' GROUP BY 1, 2)
      SELECT (SELECT count(*) FROM ((SELECT * FROM raw EXCEPT SELECT * FROM folded) UNION ALL (SELECT * FROM folded EXCEPT SELECT * FROM raw)) d)::int AS differ,
        (SELECT count(*) FROM raw)::int AS rows`);
    expect(rows).toBeGreaterThan(4);
    expect(differ).toBe(0);
  });
});
