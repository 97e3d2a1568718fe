// POST /kpi-preview on a real database: an unsaved KPI answers what the same KPI answers once
// saved (GET /kpi-data, without the id); only whoever may write KPIs may ask, before the body is
// looked at; the draft is checked like a KPI being saved; another tenant's ids match nothing; and
// the answer's limits and the caller's budget of expensive reads apply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryPoint } from '../../server/telemetry/telemetryPoint.ts';
import { telemetryWriter } from '../../server/telemetry/telemetryWriter.ts';
import { makeEntities } from '../support/testEntities.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facilityAdmin: string;
let city: string;
let facility: string;
let meters: { typeId: number; ids: number[] };
let facilityMeter: { typeId: number; ids: number[] };

const HOUR = 3_600_000;
const range = { time_interval: '1h', date_range: { from: '2026-06-10T10:00:00Z', to: '2026-06-10T12:00:00Z' } };

const preview = (body: unknown, token = admin) => t.post('/kpi-preview', body, token);

async function createKpi(query: object[], definition: object): Promise<number> {
  const answer = await t.send({
    method: 'POST', path: '/graphql', token: admin,
    body: { query: 'mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "Preview test"}, query: $query, definition: $definition) { id } }', variables: { query, definition } },
  });
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  return Number(answer.body.data.create_kpi.id);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
  city = (await t.get('/tenant', admin)).body.id;
  facility = (await t.get('/tenant', facilityAdmin)).body.id;
  meters = await makeEntities(t, city, 'Preview meter', 3);
  facilityMeter = await makeEntities(t, facility, 'Preview meter', 1);
  const [m1, m2, m3] = meters.ids;
  const points: TelemetryPoint[] = [
    { tenantId: city, entityId: m1, key: 'agg', ts: Date.parse('2026-06-10T10:00:00Z'), value: 2 },
    { tenantId: city, entityId: m1, key: 'agg', ts: Date.parse('2026-06-10T10:30:00Z'), value: 4 },
    { tenantId: city, entityId: m2, key: 'agg', ts: Date.parse('2026-06-10T10:15:00Z'), value: 10 },
    { tenantId: city, entityId: m3, key: 'agg', ts: Date.parse('2026-06-10T11:20:00Z'), value: 7 },
    { tenantId: city, entityId: m1, key: 'agg', ts: Date.parse('2026-06-09T10:40:00Z'), value: 5 },
    { tenantId: facility, entityId: facilityMeter.ids[0], key: 'agg', ts: Date.parse('2026-06-10T10:10:00Z'), value: 1000 },
  ];
  // a month of hourly points for the budget's test
  for (let ts = Date.parse('2026-05-01T00:00:00Z'); ts < Date.parse('2026-06-01T00:00:00Z'); ts += HOUR) {
    for (const entityId of meters.ids) points.push({ tenantId: city, entityId, key: 'month', ts, value: ts % 7 });
  }
  const writer = telemetryWriter(t.db);
  await writer.write(points);
  await writer.close();
});
afterAll(async () => { await t?.close(); });

describe('a draft', () => {
  it('answers what the same KPI answers once saved, without an id: series, comparison, narrowing, zone and max_points alike', async () => {
    const query = [
      { key: 'agg', aggregation: 'sum', label: 'Energy', entity_type_ids: [meters.typeId] },
      { key: 'agg', aggregation: 'max', entity_ids: meters.ids.slice(0, 2) },
    ];
    const definition = { chart: 'line', ...range, compare: { compare_shift: 'days', compare_by: 1 }, series: 'per_entity' };
    const id = await createKpi(query, definition);
    for (const [params, extra] of [
      ['', {}],
      [`&entity_ids=${meters.ids[0]},${meters.ids[2]}&timezone=Europe/Bratislava&max_points=3`, { entity_ids: [meters.ids[0], meters.ids[2]], timezone: 'Europe/Bratislava', max_points: 3 }],
    ] as const) {
      const stored = await t.get(`/kpi-data?id=${id}${params}`, admin);
      expect(stored.status).toBe(200);
      const draft = await preview({ query, definition, ...extra });
      expect(draft.status, JSON.stringify(draft.body)).toBe(200);
      const { id: storedId, ...rest } = stored.body;
      expect(storedId).toBe(id);
      expect(draft.body).toEqual(rest);
    }
    const answer = (await preview({ query, definition: { chart: 'line', ...range } })).body;
    expect(answer).toEqual({
      timezone: 'UTC', interval: '1h', from: '2026-06-10T10:00:00.000Z', to: '2026-06-10T12:00:00.000Z',
      series: [
        { item: 0, label: 'Energy', key: 'agg', aggregation: 'sum', entity_id: null, data: [{ ts: '2026-06-10T10:00:00.000Z', value: 16 }, { ts: '2026-06-10T11:00:00.000Z', value: 7 }] },
        { item: 1, label: 'agg', key: 'agg', aggregation: 'max', entity_id: null, data: [{ ts: '2026-06-10T10:00:00.000Z', value: 10 }] },
      ],
    });
  });

  it('takes the quick ranges: yesterday in Bratislava is one whole local day of hourly buckets', async () => {
    const answer = await preview({ query: [{ key: 'agg', aggregation: 'sum' }], definition: { chart: 'line', time_interval: '1h', time_range: 'yesterday' }, timezone: 'Europe/Bratislava' });
    expect(answer.status).toBe(200);
    const local = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Bratislava', dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
    const today = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Bratislava', dateStyle: 'short' }).format(new Date());
    expect(local(answer.body.to)).toBe(`${today}, 00:00`);
    expect(local(answer.body.from)).toMatch(/, 00:00$/);
    expect([23, 24, 25]).toContain((Date.parse(answer.body.to) - Date.parse(answer.body.from)) / HOUR);
  });
});

describe('a floating window', () => {
  it('runs a floating start to the end of its period: today whole, in UTC', async () => {
    const answer = await preview({ query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: 'line', time_interval: '1h', floating_start: 'day', floating_window: true }, timezone: 'UTC' });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBe(200);
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    expect(answer.body.from).toBe(midnight.toISOString());
    expect(Date.parse(answer.body.to) - midnight.getTime()).toBe(24 * 3_600_000);
  });
});

describe('who may preview', () => {
  it('the operator (who reads KPIs but may not write them) gets 403 before the body is looked at', async () => {
    const bodies: unknown[] = [{ query: [{ key: 'agg', aggregation: 'sum' }], definition: { chart: 'line' } }, {}, { bogus: 1 }, 'not json', { query: 'x'.repeat(70_000) }];
    for (const body of bodies) {
      const answer = await t.send({ method: 'POST', path: '/kpi-preview', token: operator, body, headers: { 'content-type': 'application/json' } });
      expect(answer.status, JSON.stringify(body).slice(0, 40)).toBe(403);
      expect(answer.body.errors[0]).toMatchObject({ code: 'FORBIDDEN', params: { permission: 'the module factory-studio' } });
    }
    expect((await t.get(`/kpi-data?id=${await createKpi([{ key: 'agg', aggregation: 'sum' }], { chart: 'line' })}`, operator)).status).toBe(200);
  });

  it('no token is 401', async () => {
    const answer = await t.send({ method: 'POST', path: '/kpi-preview', body: { query: [{ key: 'agg', aggregation: 'sum' }], definition: { chart: 'line' } } });
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].code).toBe('JWT100');
  });
});

describe('another tenant', () => {
  it('its entity ids and entity type ids match nothing: the answer of ids that exist nowhere', async () => {
    const nowhere = 2_000_000_000;
    const answers = [];
    for (const ids of [{ entity_ids: meters.ids }, { entity_ids: [nowhere] }, { entity_type_ids: [meters.typeId] }, { entity_type_ids: [nowhere] }]) {
      const answer = await preview({ query: [{ key: 'agg', aggregation: 'sum', ...ids }], definition: { chart: 'line', ...range, series: 'per_entity' } }, facilityAdmin);
      expect(answer.status).toBe(200);
      answers.push(answer.body);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[2]).toEqual(answers[3]);
    expect(answers[0].series).toEqual([]);
    // narrowing by the other tenant's ids leaves its own entities out too, and shows none of the others'
    const own = { query: [{ key: 'agg', aggregation: 'sum', entity_type_ids: [facilityMeter.typeId, meters.typeId] }], definition: { chart: 'line', ...range } };
    expect((await preview(own, facilityAdmin)).body.series[0].data).toEqual([{ ts: '2026-06-10T10:00:00.000Z', value: 1000 }]);
    expect((await preview({ ...own, entity_ids: meters.ids }, facilityAdmin)).body.series[0].data).toEqual([]);
  });
});

describe('bad drafts', () => {
  const item = { key: 'agg', aggregation: 'sum' };
  const refused = async (body: unknown, expected: Record<string, unknown>, status = 400) => {
    const answer = await preview(body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.errors[0]).toMatchObject(expected);
    expect(JSON.stringify(answer.body)).not.toMatch(/SELECT|telemetry_|stack|\.ts:/i);
  };

  it('are refused like a KPI being saved: the schema, the date range, the field named', async () => {
    await refused({ definition: { chart: 'line' } }, { code: 'VALIDATION', field: 'query' });
    await refused({ query: [item] }, { code: 'VALIDATION', field: 'definition' });
    await refused({ query: [], definition: { chart: 'line' } }, { code: 'VALIDATION', field: 'query' });
    await refused({ query: [{ key: 'agg', aggregation: 'median' }], definition: { chart: 'line' } }, { code: 'VALIDATION', field: 'query.0.aggregation' });
    await refused({ query: [item], definition: { chart: 'line', time_interval: '2h' } }, { code: 'VALIDATION', field: 'definition.time_interval' });
    await refused({ query: [item], definition: { chart: 'line', time_range: 'next_week' } }, { code: 'VALIDATION', field: 'definition.time_range' });
    await refused({ query: [item], definition: { chart: 'line' }, tenant_id: facility }, { code: 'VALIDATION', field: 'tenant_id' });
    await refused({ query: [{ ...item, entity_ids: [0] }], definition: { chart: 'line' } }, { code: 'NUMBER_MIN', field: 'query.0.entity_ids.0' });
    await refused({ query: [item], definition: { chart: 'line' }, entity_ids: ['x'] }, { code: 'VALIDATION', field: 'entity_ids.0' });
    await refused({ query: [item], definition: { chart: 'line' }, max_points: 2 }, { code: 'NUMBER_MIN', field: 'max_points' });
    await refused({ query: [item], definition: { chart: 'line' }, timezone: 'CET' }, { code: 'VALIDATION', field: 'timezone' });
    await refused({ query: [item], definition: { chart: 'line', date_range: { from: '2026-06-11T00:00:00Z', to: '2026-06-10T00:00:00Z' } } },
      { code: 'VALIDATION', field: 'definition.date_range.to', message: 'definition.date_range.to must be after from' });
    await refused({ query: [item], definition: { chart: 'line', date_range: { from: '2026-06-11T00:00:00Z' } } }, { code: 'VALIDATION', field: 'definition.date_range.to' });
    await refused({ query: [item], definition: { chart: 'line', compare: { compare_shift: 'date' } } }, { code: 'VALIDATION', field: 'definition.compare.compare_from' });
  });

  it('a zone neither side knows, or a draft asking for too much, is 400 Bad kpi_data as on GET /kpi-data', async () => {
    await refused({ query: [item], definition: { chart: 'line' }, timezone: 'Mars/Olympus_Mons' }, { code: 'BAD_KPI_DATA', message: 'Bad kpi_data', field: 'timezone' });
    await refused({ query: [{ ...item, entity_ids: meters.ids }], definition: { chart: 'line', time_interval: '1m', time_range: 'this_year' } },
      { code: 'BAD_KPI_DATA', params: { limit: 20_000 } });
    // a date before 1970 is the schema's refusal, on its field
    await refused({ query: [item], definition: { chart: 'line', date_range: { from: '1800-01-01T00:00:00Z', to: '1800-01-02T00:00:00Z' } } }, { code: 'VALIDATION', field: 'definition.date_range.from' });
  });

  it('a body over 64 kB is 413, nothing read', async () => {
    const answer = await preview({ query: [{ ...item, label: 'x'.repeat(100) }], definition: { chart: 'line' }, padding: 'x'.repeat(70_000) });
    expect(answer.status).toBe(413);
    expect(answer.body.errors[0].code).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
  });
});

describe('the cost', () => {
  it('is one of the caller\'s budgeted expensive reads, shared with GET /kpi-data: forty at once, two run, 32 wait, the rest are told to retry', async () => {
    const query = [{ key: 'month', aggregation: 'avg', entity_ids: meters.ids }];
    const definition = { chart: 'line', time_interval: '15m', date_range: { from: '2026-05-01T00:00:00Z', to: '2026-06-01T00:00:00Z' }, series: 'per_entity', compare: { compare_shift: 'previous' } };
    const id = await createKpi(query, definition);
    const answers = await Promise.all(Array.from({ length: 40 }, (_v, i) => (i % 2
      ? t.send({ method: 'POST', path: '/kpi-preview', token: admin, body: { query, definition, timezone: 'Asia/Kolkata' } })
      : t.send({ path: `/kpi-data?id=${id}&timezone=Asia/Kolkata&max_points=${9_000 + i}`, token: admin }))));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(34);
    const tooMany = answers.filter((answer) => answer.status === 429);
    expect(tooMany).toHaveLength(6);
    for (const answer of tooMany) {
      expect(answer.body.errors[0]).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests at once. Try again in a moment.' });
      expect(answer.headers['retry-after']).toBe('1');
    }
  });
});
