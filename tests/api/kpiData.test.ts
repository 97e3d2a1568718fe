// GET /kpi-data on a real database, with telemetry written by the real writer (raw points,
// roll-ups, latest values): buckets worked out by hand across DST changes (days, weeks and months
// of 23/25, 167/169 and 743/745 hours) and in +05:30 / +05:45 zones, every aggregation per entity
// and over all entities, date ranges, quick ranges, floating starts, time shifts, roll-ups
// answering exactly what the raw points answer, and hostile callers.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import { DEFAULT_DAY_ZONES } from '../../server/config.ts';
import { kpiSeriesQuery, type KpiAggregation, type SeriesRow } from '../../server/db/kpiDataQueries.ts';
import { kpis, tenants, users } from '../../server/db/schema.ts';
import { syncDayZones } from '../../server/db/dayZoneQueries.ts';
import { chooseSource, kpiRange, rangePieces, readingOf, sourcePlan, type KpiInterval, type SourceSpans, type TelemetrySource } from '../../server/time/kpiTime.ts';
import type { TelemetryPoint } from '../../server/telemetry/telemetryPoint.ts';
import { telemetryWriter } from '../../server/telemetry/telemetryWriter.ts';
import { KPI_AGGREGATIONS } from '../../src/schemas/enums.ts';
import { makeEntities } from '../support/testEntities.ts';
import { PASSWORD, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facilityAdmin: string;
let city: string;
let facility: string;
/** City test meters m[0..3] (one type), facility meter f. */
let meters: { typeId: number; ids: number[] };
let facilityMeter: { typeId: number; ids: number[] };

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

async function write(points: TelemetryPoint[]) {
  const writer = telemetryWriter(t.db);
  await writer.write(points);
  await writer.close();
}

/** Points of one entity and key: every `stepMs` from `from` (inclusive) to `to` (exclusive). */
function every(tenantId: string, entityId: number, key: string, from: string, to: string, stepMs: number, value: (ms: number) => TelemetryPoint['value'] = () => 1) {
  const points: TelemetryPoint[] = [];
  for (let ms = at(from); ms < at(to); ms += stepMs) points.push({ tenantId, entityId, key, ts: ms, value: value(ms) });
  return points;
}

interface Item { key: string; aggregation: string; label?: string; entity_ids?: number[]; entity_type_ids?: number[] }

async function createKpi(token: string, query: Item[], definition: Record<string, unknown>): Promise<number> {
  const answer = await t.send({
    method: 'POST', path: '/graphql', token,
    body: {
      query: 'mutation($name: JSON, $query: JSON, $definition: JSON) { create_kpi(name: $name, query: $query, definition: $definition) { id } }',
      variables: { name: { en: 'KPI data test' }, query, definition: { chart: 'line', ...definition } },
    },
  });
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  return Number(answer.body.data.create_kpi.id);
}

const kpiData = (token: string, id: number | string, params = '') => t.get(`/kpi-data?id=${id}${params}`, token);

async function series(token: string, id: number, params = '') {
  const answer = await kpiData(token, id, params);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { id: number; timezone: string; interval: string; from: string; to: string; series: { label: string; key: string; aggregation: string; entity_id: number | null; data: { ts: string; value: number }[] }[] };
}

/** A series' points as { ts: value }. */
const byTs = (data: { ts: string; value: number }[]) => Object.fromEntries(data.map((point) => [point.ts, point.value]));

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
  city = (await t.get('/tenant', admin)).body.id;
  facility = (await t.get('/tenant', facilityAdmin)).body.id;
  meters = await makeEntities(t, city, 'KPI test meter', 4);
  facilityMeter = await makeEntities(t, facility, 'KPI test meter', 1);
  const [m1, m2, m3, m4] = meters.ids;

  await write([
    // a point every UTC hour around both DST changes of 2026 in Bratislava
    ...every(city, m1, 'hourly', '2026-03-26T00:00:00Z', '2026-04-02T00:00:00Z', HOUR),
    ...every(city, m1, 'hourly', '2026-10-22T00:00:00Z', '2026-10-29T00:00:00Z', HOUR),
    // value 2 every UTC hour of February–April and September–November: days, weeks and months across both changes
    ...every(city, m1, 'dst', '2026-01-31T00:00:00Z', '2026-05-01T00:00:00Z', HOUR, () => 2),
    ...every(city, m1, 'dst', '2026-08-31T00:00:00Z', '2026-12-01T00:00:00Z', HOUR, () => 2),
    // every 15 minutes for two UTC days: the +05:30 and +05:45 zones
    ...every(city, m2, 'quarter', '2026-05-01T00:00:00Z', '2026-05-03T00:00:00Z', 15 * 60_000),
    // one point a day at noon UTC for half a year: months
    ...every(city, m3, 'daily', '2026-01-01T12:00:00Z', '2026-07-01T12:00:00Z', 24 * HOUR),
    // the aggregations, by hand: 2026-06-10 10:00–11:00 UTC and 11:00–12:00
    { tenantId: city, entityId: m1, key: 'agg', ts: at('2026-06-10T10:00:00Z'), value: 2 },
    { tenantId: city, entityId: m1, key: 'agg', ts: at('2026-06-10T10:30:00Z'), value: 4 },
    { tenantId: city, entityId: m1, key: 'agg', ts: at('2026-06-10T10:50:00Z'), value: 'not a number' },
    { tenantId: city, entityId: m2, key: 'agg', ts: at('2026-06-10T10:15:00Z'), value: 10 },
    { tenantId: city, entityId: m2, key: 'agg', ts: at('2026-06-10T10:45:00Z'), value: 6 },
    { tenantId: city, entityId: m3, key: 'agg', ts: at('2026-06-10T10:45:00Z'), value: 1 },
    { tenantId: city, entityId: m1, key: 'agg', ts: at('2026-06-10T11:05:00Z'), value: 7 },
    { tenantId: city, entityId: m3, key: 'agg', ts: at('2026-06-10T11:20:00Z'), value: true },
    // a point outside the ranges asked for (must not count)
    { tenantId: city, entityId: m1, key: 'agg', ts: at('2026-06-10T12:00:00Z'), value: 100 },
    { tenantId: city, entityId: m4, key: 'poison', ts: at('2026-02-10T12:00:00Z'), value: 5 },
    // the facility's meter has the same key at the same moments
    { tenantId: facility, entityId: facilityMeter.ids[0], key: 'agg', ts: at('2026-06-10T10:10:00Z'), value: 1000 },
  ]);
});
afterAll(async () => { await t?.close(); });

describe('the demo', () => {
  it("the demo KPI answers the last day of its sensors' history, hour by hour, a series per query item", async () => {
    const [demo] = (await t.get('/kpi-list', admin)).body.filter((kpi: { name: { en: string } }) => kpi.name.en === 'Temperature and humidity');
    const answer = await kpiData(admin, demo.id);
    expect(answer.status).toBe(200);
    expect(answer.body.series.map((series: { item: number; key: string }) => [series.item, series.key])).toEqual([[0, 'temperature'], [1, 'humidity']]);
    for (const series of answer.body.series) {
      expect(series.data.length).toBeGreaterThanOrEqual(20);
      for (const point of series.data) expect(point.value).toBeGreaterThan(5);
    }
  });
});

describe('buckets in a time zone, by hand', () => {
  it('daily in Europe/Bratislava across the spring change: 29 March 2026 has 23 hours', async () => {
    const id = await createKpi(admin, [{ key: 'hourly', aggregation: 'value_count', entity_ids: [meters.ids[0]] }],
      { time_interval: '1d', date_range: { from: '2026-03-28T00:00:00+01:00', to: '2026-03-31T00:00:00+02:00' } });
    const answer = await series(admin, id, '&timezone=Europe/Bratislava');
    expect(answer).toMatchObject({ id, timezone: 'Europe/Bratislava', interval: '1d', from: '2026-03-27T23:00:00.000Z', to: '2026-03-30T22:00:00.000Z' });
    expect(answer.series).toEqual([{
      item: 0, label: 'hourly', key: 'hourly', aggregation: 'value_count', entity_id: null,
      data: [{ ts: '2026-03-27T23:00:00.000Z', value: 24 }, { ts: '2026-03-28T23:00:00.000Z', value: 23 }, { ts: '2026-03-29T22:00:00.000Z', value: 24 }],
    }]);
  });

  it('daily in Europe/Bratislava across the autumn change: 25 October 2026 has 25 hours; in UTC every day has 24', async () => {
    const id = await createKpi(admin, [{ key: 'hourly', aggregation: 'value_count', entity_ids: [meters.ids[0]] }],
      { time_interval: '1d', date_range: { from: '2026-10-24T00:00:00+02:00', to: '2026-10-27T00:00:00+01:00' } });
    const local = await series(admin, id, '&timezone=Europe/Bratislava');
    expect(local.series[0].data).toEqual([
      { ts: '2026-10-23T22:00:00.000Z', value: 24 }, { ts: '2026-10-24T22:00:00.000Z', value: 25 }, { ts: '2026-10-25T23:00:00.000Z', value: 24 },
    ]);
    const utc = await series(admin, id);
    expect(utc.timezone).toBe('UTC');
    expect(utc.series[0].data.map((point) => point.value)).toEqual([24, 24, 24, 24]);
    expect(utc.series[0].data[0].ts).toBe('2026-10-23T00:00:00.000Z');
  });

  describe('days, weeks and months across both DST changes, summed by hand (2 an hour)', () => {
    const dst = () => [{ key: 'dst', aggregation: 'sum', entity_ids: [meters.ids[0]] }, { key: 'dst', aggregation: 'value_count', entity_ids: [meters.ids[0]] }];
    /** Each bucket start with its sum and its count, in Bratislava (its own local days) and Prague (the same rules, read from hourly rows). */
    async function buckets(interval: string, from: string, to: string, expected: [string, number][]) {
      const id = await createKpi(admin, dst(), { time_interval: interval, date_range: { from, to } });
      for (const zone of ['Europe/Bratislava', 'Europe/Prague']) {
        const answer = await series(admin, id, `&timezone=${zone}`);
        expect(answer.series.map((s) => s.data), zone).toEqual([
          expected.map(([ts, hours]) => ({ ts, value: 2 * hours })),
          expected.map(([ts, hours]) => ({ ts, value: hours })),
        ]);
      }
    }

    it('days: 29 March has 23 hours, 25 October 25', async () => {
      await buckets('1d', '2026-03-28T00:00:00+01:00', '2026-03-31T00:00:00+02:00',
        [['2026-03-27T23:00:00.000Z', 24], ['2026-03-28T23:00:00.000Z', 23], ['2026-03-29T22:00:00.000Z', 24]]);
      await buckets('1d', '2026-10-24T00:00:00+02:00', '2026-10-27T00:00:00+01:00',
        [['2026-10-23T22:00:00.000Z', 24], ['2026-10-24T22:00:00.000Z', 25], ['2026-10-25T23:00:00.000Z', 24]]);
    });

    it('weeks from Monday: the week of 23 March has 167 hours, the week of 19 October 169', async () => {
      await buckets('1w', '2026-03-16T00:00:00+01:00', '2026-04-06T00:00:00+02:00',
        [['2026-03-15T23:00:00.000Z', 168], ['2026-03-22T23:00:00.000Z', 167], ['2026-03-29T22:00:00.000Z', 168]]);
      await buckets('1w', '2026-10-12T00:00:00+02:00', '2026-11-02T00:00:00+01:00',
        [['2026-10-11T22:00:00.000Z', 168], ['2026-10-18T22:00:00.000Z', 169], ['2026-10-25T23:00:00.000Z', 168]]);
    });

    it('months from the 1st: March has 743 hours, October 745; in UTC both have 744', async () => {
      await buckets('1M', '2026-02-01T00:00:00+01:00', '2026-05-01T00:00:00+02:00',
        [['2026-01-31T23:00:00.000Z', 672], ['2026-02-28T23:00:00.000Z', 743], ['2026-03-31T22:00:00.000Z', 720]]);
      await buckets('1M', '2026-09-01T00:00:00+02:00', '2026-12-01T00:00:00+01:00',
        [['2026-08-31T22:00:00.000Z', 720], ['2026-09-30T22:00:00.000Z', 745], ['2026-10-31T23:00:00.000Z', 720]]);
      const utc = await createKpi(admin, dst(), { time_interval: '1M', date_range: { from: '2026-03-01T00:00:00Z', to: '2026-11-01T00:00:00Z' } });
      const counts = byTs((await series(admin, utc)).series[1].data);
      expect([counts['2026-03-01T00:00:00.000Z'], counts['2026-10-01T00:00:00.000Z']]).toEqual([744, 744]);
    });
  });

  it('hourly in Europe/Bratislava on 25 October: 25 buckets, the repeated hour twice', async () => {
    const id = await createKpi(admin, [{ key: 'hourly', aggregation: 'value_count', entity_ids: [meters.ids[0]] }],
      { time_interval: '1h', date_range: { from: '2026-10-25T00:00:00+02:00', to: '2026-10-26T00:00:00+01:00' } });
    const { series: [hours] } = await series(admin, id, '&timezone=Europe/Bratislava');
    expect(hours.data).toHaveLength(25);
    expect(hours.data.every((point) => point.value === 1)).toBe(true);
    expect(hours.data.slice(2, 4).map((point) => point.ts)).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z']);
  });

  it('hourly and daily in Asia/Kolkata (+05:30)', async () => {
    const hourly = await createKpi(admin, [{ key: 'quarter', aggregation: 'value_count', entity_ids: [meters.ids[1]] }],
      { time_interval: '1h', date_range: { from: '2026-05-01T06:00:00+05:30', to: '2026-05-01T09:00:00+05:30' } });
    expect((await series(admin, hourly, '&timezone=Asia/Kolkata')).series[0].data).toEqual([
      { ts: '2026-05-01T00:30:00.000Z', value: 4 }, { ts: '2026-05-01T01:30:00.000Z', value: 4 }, { ts: '2026-05-01T02:30:00.000Z', value: 4 },
    ]);
    const daily = await createKpi(admin, [{ key: 'quarter', aggregation: 'value_count', entity_ids: [meters.ids[1]] }],
      { time_interval: '1d', date_range: { from: '2026-05-01T00:00:00+05:30', to: '2026-05-04T00:00:00+05:30' } });
    const answer = await series(admin, daily, '&timezone=Asia/Kolkata');
    expect(answer).toMatchObject({ timezone: 'Asia/Kolkata', from: '2026-04-30T18:30:00.000Z', to: '2026-05-03T18:30:00.000Z' });
    // points from 00:00Z on 1 May to 23:45Z on 2 May: 18.5 h, 24 h and 5.5 h of them in the local days
    expect(answer.series[0].data).toEqual([
      { ts: '2026-04-30T18:30:00.000Z', value: 74 }, { ts: '2026-05-01T18:30:00.000Z', value: 96 }, { ts: '2026-05-02T18:30:00.000Z', value: 22 },
    ]);
  });

  it('hourly and daily in Asia/Kathmandu (+05:45)', async () => {
    const hourly = await createKpi(admin, [{ key: 'quarter', aggregation: 'value_count', entity_ids: [meters.ids[1]] }],
      { time_interval: '1h', date_range: { from: '2026-05-01T06:00:00+05:45', to: '2026-05-01T08:00:00+05:45' } });
    expect((await series(admin, hourly, '&timezone=Asia/Kathmandu')).series[0].data).toEqual([
      { ts: '2026-05-01T00:15:00.000Z', value: 4 }, { ts: '2026-05-01T01:15:00.000Z', value: 4 },
    ]);
    const daily = await createKpi(admin, [{ key: 'quarter', aggregation: 'value_count', entity_ids: [meters.ids[1]] }],
      { time_interval: '1d', date_range: { from: '2026-05-01T00:00:00+05:45', to: '2026-05-04T00:00:00+05:45' } });
    expect((await series(admin, daily, '&timezone=Asia/Kathmandu')).series[0].data).toEqual([
      { ts: '2026-04-30T18:15:00.000Z', value: 73 }, { ts: '2026-05-01T18:15:00.000Z', value: 96 }, { ts: '2026-05-02T18:15:00.000Z', value: 23 },
    ]);
  });

  it('monthly, in UTC and in Europe/Bratislava: one point a day counts the days of each month', async () => {
    const id = await createKpi(admin, [{ key: 'daily', aggregation: 'value_count', entity_ids: [meters.ids[2]] }],
      { time_interval: '1M', date_range: { from: '2026-01-01T00:00:00Z', to: '2026-06-30T00:00:00Z' } });
    const days = [31, 28, 31, 30, 31, 30];
    const utc = await series(admin, id);
    expect(utc.series[0].data).toEqual(['01', '02', '03', '04', '05', '06'].map((month, i) => ({ ts: `2026-${month}-01T00:00:00.000Z`, value: days[i] })));
    expect(utc.to).toBe('2026-07-01T00:00:00.000Z');
    const local = await series(admin, id, '&timezone=Europe/Bratislava');
    expect(local.series[0].data).toEqual([
      '2025-12-31T23:00:00.000Z', '2026-01-31T23:00:00.000Z', '2026-02-28T23:00:00.000Z', '2026-03-31T22:00:00.000Z', '2026-04-30T22:00:00.000Z', '2026-05-31T22:00:00.000Z',
    ].map((ts, i) => ({ ts, value: days[i] })));
  });

  it('weekly in UTC: Monday to Monday', async () => {
    const id = await createKpi(admin, [{ key: 'daily', aggregation: 'value_count', entity_ids: [meters.ids[2]] }],
      { time_interval: '1w', date_range: { from: '2026-01-01T00:00:00Z', to: '2026-01-15T00:00:00Z' } });
    // 1 January 2026 is a Thursday: its week began on Monday 29 December (points from the 1st: 4 of them)
    expect((await series(admin, id)).series[0].data).toEqual([
      { ts: '2025-12-29T00:00:00.000Z', value: 4 }, { ts: '2026-01-05T00:00:00.000Z', value: 7 }, { ts: '2026-01-12T00:00:00.000Z', value: 7 },
    ]);
  });
});

describe('aggregations', () => {
  const [h10, h11] = ['2026-06-10T10:00:00.000Z', '2026-06-10T11:00:00.000Z'];
  const range = { time_interval: '1h', date_range: { from: '2026-06-10T10:00:00Z', to: '2026-06-10T12:00:00Z' } };
  const items = () => KPI_AGGREGATIONS.map((aggregation) => ({ key: 'agg', aggregation, entity_ids: meters.ids.slice(0, 3) }));

  it('over all entities: avg is Σsum/Σcount, latest-value the latest point of any entity; text values do not count', async () => {
    const id = await createKpi(admin, items(), range);
    const answer = await series(admin, id);
    const values = Object.fromEntries(answer.series.map((s) => [s.aggregation, byTs(s.data)]));
    // 10:00–11:00: m1 2 and 4 (and a text), m2 10 and 6, m3 1 (m2 and m3 both at 10:45: the higher id wins)
    // 11:00–12:00: m1 7, m3 true (1 at 11:20)
    expect(values).toEqual({
      avg: { [h10]: 23 / 5, [h11]: 4 },
      max: { [h10]: 10, [h11]: 7 },
      min: { [h10]: 1, [h11]: 1 },
      sum: { [h10]: 23, [h11]: 8 },
      value_count: { [h10]: 5, [h11]: 2 },
      'latest-value': { [h10]: 1, [h11]: 1 },
    });
    expect(answer.series.every((s) => s.entity_id === null && s.label === 'agg' && s.key === 'agg')).toBe(true);
  });

  it('per entity: one series per query item and entity, empty buckets left out', async () => {
    const id = await createKpi(admin, items(), { ...range, series: 'per_entity' });
    const answer = await series(admin, id);
    expect(answer.series).toHaveLength(6 * 3);
    const [m1, m2, m3] = meters.ids;
    const of = (aggregation: string, entity: number) => byTs(answer.series.find((s) => s.aggregation === aggregation && s.entity_id === entity)!.data);
    expect(of('avg', m1)).toEqual({ [h10]: 3, [h11]: 7 });
    expect(of('avg', m2)).toEqual({ [h10]: 8 });
    expect(of('avg', m3)).toEqual({ [h10]: 1, [h11]: 1 });
    expect(of('max', m2)).toEqual({ [h10]: 10 });
    expect(of('min', m1)).toEqual({ [h10]: 2, [h11]: 7 });
    expect(of('sum', m2)).toEqual({ [h10]: 16 });
    expect(of('value_count', m1)).toEqual({ [h10]: 2, [h11]: 1 });
    expect(of('latest-value', m1)).toEqual({ [h10]: 4, [h11]: 7 });
    expect(of('latest-value', m2)).toEqual({ [h10]: 6 });
    // series in query order, then by entity id
    expect(answer.series.slice(0, 3).map((s) => [s.aggregation, s.entity_id])).toEqual([['avg', m1], ['avg', m2], ['avg', m3]]);
  });

  it('entity_ids in the request narrows the entities', async () => {
    const id = await createKpi(admin, items(), range);
    const answer = await series(admin, id, `&entity_ids=${meters.ids[1]}`);
    expect(byTs(answer.series.find((s) => s.aggregation === 'sum')!.data)).toEqual({ [h10]: 16 });
    const perEntity = await createKpi(admin, items(), { ...range, series: 'per_entity' });
    const narrowed = await series(admin, perEntity, `&entity_ids=${meters.ids[0]},${meters.ids[2]}`);
    expect(narrowed.series.map((s) => s.entity_id)).toEqual(KPI_AGGREGATIONS.flatMap(() => [meters.ids[0], meters.ids[2]]));
  });

  it('items of different keys and entities in one KPI each keep their own series', async () => {
    const [m1, m2, m3] = meters.ids;
    const id = await createKpi(admin, [
      { key: 'agg', aggregation: 'sum', entity_ids: [m1] },
      { key: 'agg', aggregation: 'sum', entity_ids: [m2] },
      { key: 'agg', aggregation: 'max', entity_ids: [m1, m2] },
      { key: 'daily', aggregation: 'value_count', entity_ids: [m3] },
      { key: 'agg', aggregation: 'min', entity_ids: [m1, m2] },
    ], range);
    expect((await series(admin, id)).series.map((s) => byTs(s.data))).toEqual([
      { [h10]: 6, [h11]: 7 }, { [h10]: 16 }, { [h10]: 10, [h11]: 7 }, {}, { [h10]: 2, [h11]: 7 },
    ]);
  });

  it('entity types stand for all their entities in the tenant; labels are kept', async () => {
    const id = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', label: 'Energy', entity_type_ids: [meters.typeId] }], range);
    expect((await series(admin, id)).series).toEqual([{ item: 0, label: 'Energy', key: 'agg', aggregation: 'sum', entity_id: null, data: [{ ts: h10, value: 23 }, { ts: h11, value: 8 }] }]);
  });

  it('an item naming neither entities nor types reads every entity of the tenant that reports its key', async () => {
    const id = await createKpi(admin, [{ key: 'agg', aggregation: 'sum' }], range);
    expect((await series(admin, id)).series.map((s) => byTs(s.data))).toEqual([{ [h10]: 23, [h11]: 8 }]);
    const perEntity = await createKpi(admin, [{ key: 'agg', aggregation: 'sum' }], { ...range, series: 'per_entity' });
    // the fourth meter never reported `agg`: it is none of the item's
    expect((await series(admin, perEntity)).series.map((s) => s.entity_id)).toEqual(meters.ids.slice(0, 3));
  });

  it('time_shift moves the range back by hours', async () => {
    const id = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }],
      { time_interval: '1h', date_range: { from: '2026-06-11T10:00:00Z', to: '2026-06-11T12:00:00Z' }, time_shift: 24 });
    const answer = await series(admin, id);
    expect(answer).toMatchObject({ from: h10, to: '2026-06-10T12:00:00.000Z' });
    expect(answer.series[0].data).toEqual([{ ts: h10, value: 23 }, { ts: h11, value: 8 }]);
  });

  it('one comparison series: the same query a day before, drawn over the chart\'s range, in the same answer', async () => {
    const id = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }],
      { time_interval: '1h', date_range: { from: '2026-06-11T10:00:00Z', to: '2026-06-11T12:00:00Z' }, compare: { compare_shift: 'days', compare_by: 1 } });
    const answer = await kpiData(admin, id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ from: '2026-06-11T10:00:00.000Z', compare_from: h10, compare_to: '2026-06-10T12:00:00.000Z' });
    expect(answer.body.series).toEqual([
      { item: 0, label: 'agg', key: 'agg', aggregation: 'sum', entity_id: null, data: [] },
      {
        item: 0, label: 'agg', key: 'agg', aggregation: 'sum', entity_id: null, compare: true,
        data: [{ ts: '2026-06-11T10:00:00.000Z', value: 23, source_ts: h10 }, { ts: '2026-06-11T11:00:00.000Z', value: 8, source_ts: h11 }],
      },
    ]);
    // the range just before (10:00–12:00 → 08:00–10:00 the same day) holds none of it
    const previous = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }],
      { time_interval: '1h', date_range: { from: '2026-06-10T12:00:00Z', to: '2026-06-10T14:00:00Z' }, compare: { compare_shift: 'previous' } });
    expect((await series(admin, previous)).series[1].data.map((point) => point.value)).toEqual([23, 8]);
  });

  it('a comparison needs its distance or its date, and counts against the answer\'s bounds', async () => {
    const refused = await t.send({
      method: 'POST', path: '/graphql', token: admin,
      body: { query: 'mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "x"}, query: $query, definition: $definition) { id } }',
        variables: { query: [{ key: 'agg', aggregation: 'sum' }], definition: { chart: 'line', compare: { compare_shift: 'date' } } } },
    });
    expect(refused.body.errors[0].extensions.code).toBe('VALIDATION');
    // a minute a point over 10 days is 14,400 buckets: fine alone, too many twice (with its comparison) for 10 series
    const items = Array.from({ length: 10 }, () => ({ key: 'agg', aggregation: 'sum', entity_ids: meters.ids.slice(0, 1) }));
    const tenDays = { time_interval: '1m', date_range: { from: '2026-06-01T00:00:00Z', to: '2026-06-11T00:00:00Z' } };
    expect((await kpiData(admin, await createKpi(admin, items, tenDays))).status).toBe(200);
    const many = await createKpi(admin, items, { ...tenDays, compare: { compare_shift: 'previous' } });
    const refusal = await kpiData(admin, many);
    expect(refusal.status).toBe(400);
    expect(refusal.body.errors[0]).toMatchObject({ code: 'BAD_KPI_DATA', message: 'Bad kpi_data', params: { limit: 200_000 } });
  });

  it('max_points: a series longer than the chart is wide is cut to its shape; out of bounds it is refused', async () => {
    await write(every(city, meters.ids[0], 'wave', '2026-07-01T00:00:00Z', '2026-07-02T00:00:00Z', 60_000, (ms) => (ms === at('2026-07-01T13:37:00Z') ? 500 : Math.sin(ms / 3_600_000))));
    const id = await createKpi(admin, [{ key: 'wave', aggregation: 'max', entity_ids: [meters.ids[0]] }],
      { time_interval: '1m', date_range: { from: '2026-07-01T00:00:00Z', to: '2026-07-02T00:00:00Z' } });
    const whole = (await series(admin, id)).series[0];
    expect(whole.data).toHaveLength(1440);
    expect(whole).not.toHaveProperty('downsampled');
    const cut = (await series(admin, id, '&max_points=200')).series[0] as typeof whole & { downsampled?: boolean };
    expect(cut.downsampled).toBe(true);
    expect(cut.data).toHaveLength(200);
    expect(cut.data[0]).toEqual(whole.data[0]);
    expect(cut.data.at(-1)).toEqual(whole.data.at(-1));
    expect(cut.data).toContainEqual({ ts: '2026-07-01T13:37:00.000Z', value: 500 }); // the spike survives
    for (const bad of ['2', '10001', 'many']) {
      const refused = await kpiData(admin, id, `&max_points=${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'BAD_KPI_DATA', field: 'max_points' });
    }
  });

  it('a rolling time_range ends now; a floating start begins at the start of the day', async () => {
    const now = Date.now();
    const hourStart = now - (now % HOUR);
    const dayStart = now - (now % (24 * HOUR));
    const [m4] = meters.ids.slice(3);
    await write([
      { tenantId: city, entityId: m4, key: 'recent', ts: now - 2 * HOUR, value: 3 },
      { tenantId: city, entityId: m4, key: 'recent', ts: now - 30 * HOUR, value: 5 },
      { tenantId: city, entityId: m4, key: 'today', ts: dayStart - 1, value: 7 },
      { tenantId: city, entityId: m4, key: 'today', ts: dayStart, value: 11 },
    ]);
    const rolling = await createKpi(admin, [{ key: 'recent', aggregation: 'sum', entity_ids: [m4] }], { time_interval: '1h', time_range: '24h' });
    const answer = await series(admin, rolling);
    expect([hourStart - 23 * HOUR, hourStart - 24 * HOUR].map((ms) => new Date(ms).toISOString())).toContain(answer.from); // the clock may pass an hour
    const values = answer.series[0].data.map((point) => point.value);
    expect(values).toContain(3);
    expect(values).not.toContain(5);
    const floating = await createKpi(admin, [{ key: 'today', aggregation: 'sum', entity_ids: [m4] }], { time_interval: '1h', time_range: '30d', floating_start: 'day' });
    const today = await series(admin, floating);
    if (Date.now() - dayStart < 24 * HOUR) {
      expect(today.from).toBe(new Date(dayStart).toISOString());
      expect(today.series[0].data[0]).toEqual({ ts: new Date(dayStart).toISOString(), value: 11 });
      expect(today.series[0].data.map((point) => point.value)).not.toContain(7);
    }
  });
});

describe('quick ranges', () => {
  const local = (iso: string, zone: string) => {
    const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' })
      .formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
    return { weekday: parts.weekday, year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), time: `${parts.hour}:${parts.minute}` };
  };
  const query = () => [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }];

  it('calendar ranges are whole local periods: last month, this week (from Monday), today, in the reader\'s zone', async () => {
    for (const zone of ['Europe/Bratislava', 'America/New_York', 'UTC']) {
      const lastMonth = await series(admin, await createKpi(admin, query(), { time_interval: '1d', time_range: 'last_month' }), `&timezone=${zone}`);
      const now = local(new Date().toISOString(), zone);
      const [from, to] = [local(lastMonth.from, zone), local(lastMonth.to, zone)];
      expect([from.day, from.time, to.day, to.time], zone).toEqual([1, '00:00', 1, '00:00']);
      expect(to.month, zone).toBe(now.month);
      expect(from.month, zone).toBe(now.month === 1 ? 12 : now.month - 1);
      const week = await series(admin, await createKpi(admin, query(), { time_interval: '1h', time_range: 'this_week' }), `&timezone=${zone}`);
      expect([local(week.from, zone).weekday, local(week.from, zone).time, local(week.to, zone).weekday, local(week.to, zone).time], zone).toEqual(['Mon', '00:00', 'Mon', '00:00']);
      expect([167, 168, 169]).toContain((Date.parse(week.to) - Date.parse(week.from)) / HOUR);
      const today = await series(admin, await createKpi(admin, query(), { time_interval: '1h', time_range: 'today', floating_start: 'year' }), `&timezone=${zone}`);
      expect([local(today.from, zone).day, local(today.from, zone).time], zone).toEqual([now.day, '00:00']);
      expect([23, 24, 25]).toContain((Date.parse(today.to) - Date.parse(today.from)) / HOUR);
    }
  });

  it('rolling ranges end now: the last 15 minutes in minute buckets', async () => {
    const before = Date.now();
    const answer = await series(admin, await createKpi(admin, query(), { time_interval: '1m', time_range: '15m' }));
    const minute = 60_000;
    expect(Date.parse(answer.from)).toBeGreaterThanOrEqual(before - 15 * minute - minute);
    expect(Date.parse(answer.from)).toBeLessThanOrEqual(Date.now() - 15 * minute);
    expect([15, 16]).toContain((Date.parse(answer.to) - Date.parse(answer.from)) / minute); // 16 unless now is on the minute
  });
});

describe('roll-ups', () => {
  it('answer exactly what the raw points answer, for every aggregation, bucket, zone, exact roll-up and the mix the endpoint reads', async () => {
    const [m1, m2, m3] = meters.ids;
    // pseudo-random points (halves, so every sum is exact) over a DST change and a month end
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const points: TelemetryPoint[] = [];
    for (const entityId of [m1, m2, m3]) {
      for (let ms = at('2026-03-26T00:00:00Z'); ms < at('2026-04-03T00:00:00Z'); ms += Math.floor(random() * 20 * 60_000) + 60_000) {
        const roll = random();
        const value = roll < 0.05 ? roll < 0.025 : Math.round((random() * 100 - 50) * 2) / 2;
        points.push({ tenantId: city, entityId, key: 'mixed', ts: ms - (ms % 1000), value });
      }
    }
    await write(points);
    // Bratislava's local days were folded in by the writer (the harness keeps them, as the
    // default configuration does); Kathmandu's are built now from the 15-minute roll-up.
    expect(await syncDayZones(t.db, [...DEFAULT_DAY_ZONES, 'Asia/Kathmandu'])).toEqual(['Europe/Bratislava', 'Asia/Kathmandu']);
    const order: TelemetrySource[] = ['telemetry_daily', 'telemetry_hourly', 'telemetry_quarter_hourly', 'telemetry'];
    let compared = 0;
    let tiled = 0;
    let zoned = 0;
    const readings = new Set<string>();
    for (const zone of ['UTC', 'Europe/Bratislava', 'Asia/Kolkata', 'Asia/Kathmandu']) {
      for (const interval of ['15m', '1h', '1d', '1w', '1M'] as KpiInterval[]) {
        const range = kpiRange({ time_interval: interval, date_range: { from: '2026-03-20T00:00:00Z', to: '2026-04-10T00:00:00Z' } }, zone, 0);
        const exact = order.slice(order.indexOf(chooseSource(zone, range)));
        for (const perEntity of [false, true]) {
          const answer = async (plan: SourceSpans[]) => t.db.tenantQuery<SeriesRow>(city, kpiSeriesQuery({
            tenantId: city, plan, zone, interval, perEntity,
            items: KPI_AGGREGATIONS.map((aggregation, item) => ({ item, key: 'mixed', aggregation: aggregation as KpiAggregation, entityIds: [m1, m2, m3] })),
          })!);
          const whole = (source: TelemetrySource): SourceSpans[] => [{ source, spans: [[range.from, range.to]] }];
          const raw = await answer(whole('telemetry'));
          expect(raw).toHaveLength(perEntity ? 18 : 6);
          expect(raw.every((row) => JSON.parse(row.data).length > 0)).toBe(true);
          for (const source of exact.slice(0, -1)) {
            expect(await answer(whole(source)), `${zone} ${interval} ${source} per entity ${perEntity}`).toEqual(raw);
            compared++;
          }
          // and the endpoint's own plans: coarser rows inside calendar buckets, local days first where kept
          for (const localDays of zone === 'Europe/Bratislava' || zone === 'Asia/Kathmandu' ? [false, true] : [false]) {
            const plan = sourcePlan(zone, range, localDays);
            if (plan.length > 1) tiled++;
            if (plan[0].source === 'telemetry_daily_zoned') zoned++;
            for (const level of plan) readings.add(readingOf(level).reading);
            expect(await answer(plan), `${zone} ${interval} ${JSON.stringify(plan.map((level) => [level.source, level.spans.length]))} per entity ${perEntity}`).toEqual(raw);
          }
          // and the range read in pieces (a statement each), joined in time order
          const joined = new Map<string, unknown[]>();
          for (const piece of rangePieces(range, zone, 3)) {
            for (const row of await answer(sourcePlan(zone, piece))) {
              const key = `${row.item}:${row.entity_id}`;
              joined.set(key, [...joined.get(key) ?? [], ...JSON.parse(row.data)]);
            }
          }
          expect(Object.fromEntries(joined), `${zone} ${interval} in pieces`).toEqual(Object.fromEntries(raw.map((row) => [`${row.item}:${row.entity_id}`, JSON.parse(row.data)])));
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
    expect(tiled).toBeGreaterThan(10);
    expect(zoned).toBe(2 * 3 * 2); // two zones × day, week, month × per entity or not
    expect([...readings].sort()).toEqual(['filter', 'range', 'search']); // every way of reading a level answered exactly

    // A zone taken out of the configuration loses its rows.
    expect(await syncDayZones(t.db, DEFAULT_DAY_ZONES)).toEqual(DEFAULT_DAY_ZONES);
    const left = await t.db.systemQuery<{ zone: string }>(sql`SELECT DISTINCT zone FROM telemetry_daily_zoned`);
    expect(left.map((row) => row.zone)).toEqual(['Europe/Bratislava']);
  });

  it('are what the endpoint reads: a changed daily roll-up shows in UTC days, a changed local day in that zone, neither in hours', async () => {
    const [m4] = meters.ids.slice(3);
    await t.db.systemQuery(sql`UPDATE telemetry_daily SET sum = 1000 WHERE entity_id = ${m4} AND key = 'poison'`);
    const daily = await createKpi(admin, [{ key: 'poison', aggregation: 'sum', entity_ids: [m4] }],
      { time_interval: '1d', date_range: { from: '2026-02-10T00:00:00Z', to: '2026-02-11T00:00:00Z' } });
    expect((await series(admin, daily)).series[0].data).toEqual([{ ts: '2026-02-10T00:00:00.000Z', value: 1000 }]);
    expect((await series(admin, daily, '&timezone=Europe/Bratislava')).series[0].data).toEqual([{ ts: '2026-02-09T23:00:00.000Z', value: 5 }]);
    // Bratislava's days come from its own roll-up (TELEMETRY_DAY_ZONES), Kolkata's from 15-minute rows.
    await t.db.systemQuery(sql`UPDATE telemetry_daily_zoned SET sum = 2000 WHERE entity_id = ${m4} AND key = 'poison' AND zone = 'Europe/Bratislava'`);
    expect((await series(admin, daily, '&timezone=europe/bratislava')).series[0].data).toEqual([{ ts: '2026-02-09T23:00:00.000Z', value: 2000 }]);
    expect((await series(admin, daily, '&timezone=Asia/Kolkata')).series[0].data).toEqual([{ ts: '2026-02-09T18:30:00.000Z', value: 5 }]);
    const hourly = await createKpi(admin, [{ key: 'poison', aggregation: 'sum', entity_ids: [m4] }],
      { time_interval: '1h', date_range: { from: '2026-02-10T00:00:00Z', to: '2026-02-11T00:00:00Z' } });
    expect((await series(admin, hourly)).series[0].data).toEqual([{ ts: '2026-02-10T12:00:00.000Z', value: 5 }]);
  });
});

describe('hostile callers', () => {
  let cityKpi: number;
  beforeAll(async () => {
    cityKpi = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }],
      { time_interval: '1h', date_range: { from: '2026-06-10T10:00:00Z', to: '2026-06-10T12:00:00Z' } });
  });

  const expectBad = (answer: { status: number; body: any }) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: 'BAD_KPI_DATA', message: 'Bad kpi_data' });
    expect(JSON.stringify(answer.body)).not.toMatch(/SELECT|telemetry|stack|\.ts:/i);
  };

  it('tenant B asking for tenant A\'s KPI gets 404 No KPI data found, like an id that does not exist', async () => {
    for (const id of [cityKpi, 2_000_000_000]) {
      const answer = await kpiData(facilityAdmin, id);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ errors: [{ code: 'NO_KPI_DATA', message: 'No KPI data found' }] });
    }
  });

  it('tenant B naming tenant A\'s entities, in its KPI or in the request, gets none of A\'s data', async () => {
    const range = { time_interval: '1h', date_range: { from: '2026-06-10T10:00:00Z', to: '2026-06-10T12:00:00Z' } };
    // A KPI naming another tenant's ids is refused when written; one stored before that check (as
    // here, by SQL) still reads none of their data.
    const refused = await t.send({
      method: 'POST', path: '/graphql', token: facilityAdmin,
      body: { query: 'mutation($query: JSON) { create_kpi(name: {en: "x"}, query: $query, definition: {chart: "line"}) { id } }', variables: { query: [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }] } },
    });
    expect(refused.body.errors[0].extensions.code).toBe('REFERENCE_NOT_FOUND');
    const stored = async (tenantId: string, query: Item[], definition: Record<string, unknown>) => {
      const [row] = await t.db.systemTx((tx) => tx.insert(kpis).values({ tenantId, name: { en: 'stored' }, query, definition: { chart: 'line', ...definition } }).returning({ id: kpis.id }));
      return row.id;
    };
    const foreign = await stored(facility, [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }], { ...range, series: 'per_entity' });
    expect((await series(facilityAdmin, foreign)).series).toEqual([]);
    const own = await stored(facility, [{ key: 'agg', aggregation: 'sum', entity_type_ids: [facilityMeter.typeId, meters.typeId] }], range);
    expect((await series(facilityAdmin, own)).series[0].data).toEqual([{ ts: '2026-06-10T10:00:00.000Z', value: 1000 }]);
    expect((await series(facilityAdmin, own, `&entity_ids=${meters.ids.join(',')}`)).series[0].data).toEqual([]);
    // and A does not see B's meter through its own KPI by type
    const cityByType = await stored(city, [{ key: 'agg', aggregation: 'sum', entity_type_ids: [meters.typeId, facilityMeter.typeId] }], range);
    expect((await series(admin, cityByType, `&entity_ids=${facilityMeter.ids[0]},${meters.ids[0]}`)).series[0].data)
      .toEqual([{ ts: '2026-06-10T10:00:00.000Z', value: 6 }, { ts: '2026-06-10T11:00:00.000Z', value: 7 }]);
  });

  it('a user without a KPI-reading module gets 403 from the engine, whatever the parameters; the operator (dashboard module) may read', async () => {
    await t.db.systemTx(async (tx) => {
      await tx.insert(users).values({ tenantId: city, username: 'Logs only', email: 'logs@demo.city', passwordHash: await hashPassword(PASSWORD), modules: ['logs'] });
    });
    const logsOnly = (await t.login('logs@demo.city')).access_token;
    const refused = await kpiData(logsOnly, cityKpi);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('FORBIDDEN');
    // whatever the parameters: the read rule comes before them
    for (const params of ['&timezone=Mars/Olympus', '&entity_ids=x', '&unknown=1']) {
      expect((await kpiData(logsOnly, cityKpi, params)).body.errors[0].code, params).toBe('FORBIDDEN');
    }
    expect((await kpiData(logsOnly, 'abc')).status).toBe(403);
    expect((await kpiData(operator, cityKpi)).status).toBe(200);
  });

  it('no token is 401', async () => {
    const answer = await t.send({ path: `/kpi-data?id=${cityKpi}` });
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].code).toBe('JWT100');
  });

  it('bad parameters are 400 Bad kpi_data, never a 500', async () => {
    const tooMany = Array.from({ length: 10_000 }, (_v, i) => i + 1).join(',');
    for (const params of [
      '&timezone=Mars/Olympus_Mons', '&timezone=CET', '&timezone=%2B05:30', '&timezone=Europe%2FBratislava%00', `&timezone=Europe/${'x'.repeat(70)}`,
      '&timezone=', '&entity_ids=abc', '&entity_ids=0', '&entity_ids=1,,2', `&entity_ids=${tooMany}`, '&entity_ids=99999999999', '&foo=1',
      '&id=2', '&timezone=UTC&timezone=UTC',
    ]) {
      expectBad(await kpiData(admin, cityKpi, params));
    }
    for (const id of ['abc', '0', '-1', '1.5', '2147483648', '99999999999999999999', 'Infinity', '']) expectBad(await kpiData(admin, id));
    expectBad(await t.get('/kpi-data', admin));
    expect((await t.get('/kpi-data?id=abc', admin)).body.errors[0].field).toBe('id');
    expect((await t.get(`/kpi-data?id=${cityKpi}&bogus=1`, admin)).body.errors[0].field).toBe('bogus');
  });

  it('a zone both sides know, in any spelling, is accepted and named as Intl spells it', async () => {
    expect((await series(admin, cityKpi, '&timezone=europe/bratislava')).timezone).toBe('Europe/Bratislava');
    expect((await series(admin, cityKpi, '&timezone=Etc/GMT%2B5')).timezone).toBe('Etc/GMT+5');
    expect((await series(admin, cityKpi, '&timezone=America/Argentina/Buenos_Aires')).timezone).toBe('America/Argentina/Buenos_Aires');
  });

  it('KPIs asking for too much are refused with 400: too many buckets, too many entities', async () => {
    const minutesOverAYear = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }], { time_interval: '1m', time_range: '1y' });
    expectBad(await kpiData(admin, minutesOverAYear));
    const crowd = await makeEntities(t, city, 'Crowd', 1001);
    const crowded = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', entity_type_ids: [crowd.typeId] }], { time_interval: '1h', time_range: '24h' });
    const refused = await kpiData(admin, crowded);
    expectBad(refused);
    expect(refused.body.errors[0].params).toEqual({ limit: 1000 });
    // narrowed to fewer, it answers
    expect((await kpiData(admin, crowded, `&entity_ids=${crowd.ids.slice(0, 10).join(',')}`)).status).toBe(200);
  });

  it('a stored KPI whose date range runs backwards, or with values its schema refuses, is 400 on read; saving one with a backwards or single-ended range is refused', async () => {
    const id = await createKpi(admin, [{ key: 'agg', aggregation: 'sum', entity_ids: meters.ids }], { time_interval: '1h' });
    await t.db.systemQuery(sql`UPDATE kpis SET definition = definition || ${JSON.stringify({ date_range: { from: '2026-06-11T00:00:00Z', to: '2026-06-10T00:00:00Z' } })}::jsonb WHERE id = ${id}`);
    expectBad(await kpiData(admin, id));
    const saved = await t.send({
      method: 'POST', path: '/graphql', token: admin,
      body: { query: 'mutation($id: ID!, $definition: JSON) { update_kpi(id: $id, definition: $definition) { id } }', variables: { id, definition: { chart: 'line', date_range: { from: '2026-06-11T00:00:00Z', to: '2026-06-10T00:00:00Z' } } } },
    });
    expect(saved.status).toBe(400);
    expect(saved.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', field: 'definition.date_range.to' });
    const halfOpen = await t.send({
      method: 'POST', path: '/graphql', token: admin,
      body: { query: 'mutation($id: ID!, $definition: JSON) { update_kpi(id: $id, definition: $definition) { id } }', variables: { id, definition: { chart: 'line', date_range: { from: '2026-06-11T00:00:00Z' } } } },
    });
    expect(halfOpen.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', field: 'definition.date_range.to' });
    // other stored values the schema never allowed are refused on read too, not a 500
    await t.db.systemQuery(sql`UPDATE kpis SET definition = '{"chart": "line", "time_interval": "2h"}'::jsonb WHERE id = ${id}`);
    const interval = await kpiData(admin, id);
    expectBad(interval);
    expect(interval.body.errors[0].field).toBe('definition.time_interval');
    await t.db.systemQuery(sql`UPDATE kpis SET definition = '{"chart": "line"}'::jsonb, query = '[{"key": "agg", "aggregation": "median"}]'::jsonb WHERE id = ${id}`);
    const aggregation = await kpiData(admin, id);
    expectBad(aggregation);
    expect(aggregation.body.errors[0].field).toBe('query.0.aggregation');
  });

  it('a KPI over a range without values, or with an item the schema never allowed, answers empty series', async () => {
    const id = await createKpi(admin, [{ key: 'agg', aggregation: 'avg' }], { time_interval: '1h', time_range: '1h' });
    expect((await series(admin, id)).series).toEqual([{ item: 0, label: 'agg', key: 'agg', aggregation: 'avg', entity_id: null, data: [] }]);
    // the demo seed's KPI names its entity type as entity_type_id (not in the schema): no entities
    const [demo] = await t.db.systemTx((tx) => tx.select({ id: kpis.id }).from(kpis).innerJoin(tenants, eq(tenants.id, kpis.tenantId)).where(eq(tenants.name, 'Demo City')).limit(1));
    expect((await kpiData(admin, demo.id)).status).toBe(200);
  });
});
