// POST /test-query-scheduler on a real database, with telemetry written by the real writer: every
// clause and aggregation of the complex-query subset against values worked out by hand (the
// tenant's calendar is Europe/Bratislava), the scheduler's entities and time slot narrowing it,
// refusals with their reasons (SQL text stays a value), who may test, tenant isolation, a year of
// data within the limit, and a query the database stops at its time limit.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import { users } from '../../server/db/schema.ts';
import { calendarRange } from '../../server/time/kpiTime.ts';
import type { TelemetryPoint } from '../../server/telemetry/telemetryPoint.ts';
import { telemetryWriter } from '../../server/telemetry/telemetryWriter.ts';
import { until } from '../support/devices.ts';
import { slowStatement, type SlowStatement } from '../support/slowStatement.ts';
import { makeEntities } from '../support/testEntities.ts';
import { PASSWORD, startTestApp, usingPostgres, type TestApp } from './harness.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);
/** March 2026, the month of the hand-computed points (Bratislava is UTC+1 until the 29th). */
const MARCH = { gte: '2026-03-01T00:00:00Z', lt: '2026-04-01T00:00:00Z' };

/** Writes points through the real writer, a few thousand a message (as devices and the CSV import send them). */
async function write(t: TestApp, points: TelemetryPoint[]) {
  const writer = telemetryWriter(t.db);
  const messages = Array.from({ length: Math.ceil(points.length / 2_000) }, (_v, i) => points.slice(i * 2_000, (i + 1) * 2_000));
  await Promise.all(messages.map((message) => writer.write(message)));
  await writer.close();
}

/** The body of a query over March 2026 (unless `range` is given) with one aggregation. */
function marchQuery(aggs: unknown, query?: unknown, range: unknown = { range: { ts: MARCH } }) {
  return JSON.stringify({ query: { bool: { filter: [range, ...query ? [query] : []] } }, aggs });
}
const metric = (kind: string, extra: Record<string, unknown> = {}) => ({ result: { [kind]: { field: 'value', ...extra } } });

describe(`POST /test-query-scheduler on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let planner: string;
  let facilityAdmin: string;
  let city: string;
  let facility: string;
  /** City meters m1, m2 (one type) and m3 (another type); the facility's meter f. */
  let meters: { typeId: number; ids: number[] };
  let m3: { typeId: number; ids: number[] };
  let f: number;

  const test = (body: Record<string, unknown>, token = admin) => t.post('/test-query-scheduler', body, token);
  /** A query that must pass: its result. */
  async function passed(body: Record<string, unknown>, token = admin) {
    const answer = await test(body, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ status: 'passed', message: 'Test of query passed' });
    return answer.body.result;
  }
  /** A query that must fail: its reason. */
  async function failed(body: Record<string, unknown>) {
    const answer = await test(body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    const [error] = answer.body.errors;
    expect(error).toMatchObject({ code: 'SCHEDULER_TEST_FAILED', field: 'query' });
    expect(answer.body).toEqual({ status: 'failed', message: error.message, errors: [error] });
    expect(error.message).toBe(`Test of query ended with error = ${error.params.reason}`);
    // (the reason may quote the query's own text, never the statement made of it)
    expect(JSON.stringify(answer.body)).not.toMatch(/telemetry t\b|t\.value_num|\$\d|::float8|stack|\.ts:\d/);
    return error.params as { reason: string; path?: string };
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await t.login('admin@demo.city')).access_token;
    operator = (await t.login('operator@demo.city')).access_token;
    facilityAdmin = (await t.login('admin@demo.facility')).access_token;
    city = (await t.get('/tenant', admin)).body.id;
    facility = (await t.get('/tenant', facilityAdmin)).body.id;
    await t.db.systemQuery(sql`UPDATE tenants SET attributes = attributes || '{"timezone": "Europe/Bratislava"}'::jsonb WHERE id = ${city}`);
    await t.db.systemTx(async (tx) => {
      await tx.insert(users).values({
        tenantId: city, username: 'Planner', email: 'planner@demo.city', passwordHash: await hashPassword(PASSWORD), modules: ['factory-studio'], modulePermissions: ['scheduler.*'],
      });
    });
    planner = (await t.login('planner@demo.city')).access_token;
    meters = await makeEntities(t, city, 'Query test meter', 2);
    m3 = await makeEntities(t, city, 'Query test pump', 1);
    f = (await makeEntities(t, facility, 'Query test meter', 1)).ids[0];
    const [m1, m2] = meters.ids;
    const point = (tenantId: string, entityId: number, key: string, iso: string, value: TelemetryPoint['value']) => ({ tenantId, entityId, key, ts: at(iso), value });
    await write(t, [
      // key `cq`, numeric values 2, 4, 10, 100, 1 (true) and 6; a text value, which no aggregation reads
      point(city, m1, 'cq', '2026-03-02T10:00:00Z', 2),
      point(city, m1, 'cq', '2026-03-02T11:00:00Z', 4),
      point(city, m2, 'cq', '2026-03-02T10:30:00Z', 10),
      point(city, m3.ids[0], 'cq', '2026-03-02T23:30:00Z', 100), // 3 March, 00:30 in Bratislava
      point(city, m1, 'cq', '2026-03-03T10:00:00Z', 'not a number'),
      point(city, m1, 'cq', '2026-03-03T12:00:00Z', true),
      point(city, m2, 'cq', '2026-03-04T09:00:00Z', 6),
      // outside March, another key, another tenant
      point(city, m1, 'cq', '2026-02-28T22:59:59Z', 1_000),
      point(city, m1, 'other', '2026-03-02T10:00:00Z', 1_000),
      point(facility, f, 'cq', '2026-03-02T10:00:00Z', 5_000),
    ]);
  });
  afterAll(async () => { await t?.close(); });

  describe('aggregations, by hand', () => {
    const cq = { term: { key: 'cq' } };
    it('avg, sum, min, max, value_count of the numeric values (true as 1, text left out)', async () => {
      expect(await passed({ query: marchQuery(metric('avg'), cq) })).toBe(20.5); // (2 + 4 + 10 + 100 + 1 + 6) / 6
      expect(await passed({ query: marchQuery(metric('sum'), cq) })).toBe(123);
      expect(await passed({ query: marchQuery(metric('min'), cq) })).toBe(1);
      expect(await passed({ query: marchQuery(metric('max'), cq) })).toBe(100);
      expect(await passed({ query: marchQuery(metric('value_count'), cq) })).toBe(6);
    });

    it('percentiles interpolate between the two nearest values, keyed as Elasticsearch keys them', async () => {
      // sorted: 1, 2, 4, 6, 10, 100 — the 50th is halfway between 4 and 6, the 25th a quarter from 2 to 4
      expect(await passed({ query: marchQuery(metric('percentiles', { percents: [0, 25, 50, 100] }), cq) }))
        .toEqual({ '0.0': 1, '25.0': 2.5, '50.0': 5, '100.0': 100 });
      const defaults = await passed({ query: marchQuery(metric('percentiles'), cq) });
      expect(Object.keys(defaults)).toEqual(['1.0', '5.0', '25.0', '50.0', '75.0', '95.0', '99.0']);
    });

    it("date_histogram by the tenant's calendar days (Bratislava), and by fixed UTC days", async () => {
      const histogram = (interval: Record<string, string>) => ({ days: { date_histogram: { field: 'ts', ...interval }, aggs: metric('sum') } });
      expect(await passed({ query: marchQuery(histogram({ calendar_interval: 'day' }), cq) })).toEqual([
        { key_as_string: '2026-03-01T23:00:00.000Z', key: at('2026-03-01T23:00:00Z'), value: 16 },
        { key_as_string: '2026-03-02T23:00:00.000Z', key: at('2026-03-02T23:00:00Z'), value: 101 },
        { key_as_string: '2026-03-03T23:00:00.000Z', key: at('2026-03-03T23:00:00Z'), value: 6 },
      ]);
      expect(await passed({ query: marchQuery(histogram({ fixed_interval: '1d' }), cq) })).toEqual([
        { key_as_string: '2026-03-02T00:00:00.000Z', key: at('2026-03-02T00:00:00Z'), value: 116 },
        { key_as_string: '2026-03-03T00:00:00.000Z', key: at('2026-03-03T00:00:00Z'), value: 1 },
        { key_as_string: '2026-03-04T00:00:00.000Z', key: at('2026-03-04T00:00:00Z'), value: 6 },
      ]);
      const weekly = await passed({ query: marchQuery({ w: { date_histogram: { field: 'ts', calendar_interval: 'week' }, aggregations: metric('percentiles', { percents: [50] }) } }, cq) });
      expect(weekly).toEqual([{ key_as_string: '2026-03-01T23:00:00.000Z', key: at('2026-03-01T23:00:00Z'), value: { '50.0': 5 } }]);
    });

    it('over no value: sum and value_count 0, the others null', async () => {
      const none = { term: { key: 'no such key' } };
      expect(await passed({ query: marchQuery(metric('sum'), none) })).toBe(0);
      expect(await passed({ query: marchQuery(metric('value_count'), none) })).toBe(0);
      expect(await passed({ query: marchQuery(metric('avg'), none) })).toBeNull();
      expect(await passed({ query: marchQuery(metric('percentiles', { percents: [50] }), none) })).toEqual({ '50.0': null });
      expect(await passed({ query: marchQuery({ h: { date_histogram: { field: 'ts', fixed_interval: '1h' }, aggs: metric('max') } }, none, { range: { ts: { gte: 'now-1d', lte: 'now' } } }) })).toEqual([]);
    });
  });

  describe('clauses', () => {
    const sumOf = (query: unknown) => passed({ query: marchQuery(metric('sum'), { bool: { must: [{ term: { key: 'cq' } }, query] } }) });
    it('term, terms and entity types', async () => {
      const [m1, m2] = meters.ids;
      expect(await sumOf({ term: { entity_id: m2 } })).toBe(16);
      expect(await sumOf({ term: { entity_id: { value: m1 } } })).toBe(7);
      expect(await sumOf({ terms: { entity_id: [m1, m2] } })).toBe(23);
      expect(await sumOf({ term: { entity_type_id: m3.typeId } })).toBe(100);
      expect(await sumOf({ terms: { entity_type_id: [meters.typeId] } })).toBe(23);
      expect(await passed({ query: marchQuery(metric('sum'), { terms: { key: ['cq', 'other'] } }) })).toBe(1_123);
    });

    it('bool: must_not, should (required without must, or with minimum_should_match 1), nested', async () => {
      const [m1, m2] = meters.ids;
      expect(await sumOf({ bool: { must_not: { term: { entity_id: m1 } } } })).toBe(116);
      expect(await sumOf({ bool: { should: [{ term: { entity_id: m2 } }, { term: { entity_id: m3.ids[0] } }] } })).toBe(116);
      // beside must, should only ranks hits in Elasticsearch: it narrows nothing unless minimum_should_match is 1
      expect(await passed({ query: marchQuery(metric('sum'), { bool: { must: { term: { key: 'cq' } }, should: { term: { entity_id: m2 } } } }) })).toBe(123);
      expect(await passed({ query: marchQuery(metric('sum'), { bool: { must: { term: { key: 'cq' } }, should: { term: { entity_id: m2 } }, minimum_should_match: 1 } }) })).toBe(16);
      expect(await sumOf({ bool: { filter: { bool: { must_not: [{ bool: { should: [{ term: { entity_id: m1 } }, { term: { entity_id: m2 } }] } }] } } } })).toBe(100);
    });

    it('range on value and on ts (ISO instants and date math), exists, match_all', async () => {
      expect(await sumOf({ range: { value: { gt: 5 } } })).toBe(116);
      expect(await sumOf({ range: { value: { gte: 2, lte: 6 } } })).toBe(12);
      expect(await sumOf({ range: { ts: { gte: '2026-03-03T00:00:00+01:00' } } })).toBe(107);
      expect(await sumOf({ range: { ts: { gt: '2026-03-02T10:00:00Z', lt: '2026-03-02T23:30:00Z' } } })).toBe(14);
      expect(await sumOf({ exists: { field: 'value' } })).toBe(123);
      expect(await sumOf({ match_all: {} })).toBe(123);
      // date math: nothing of March 2026 lies in the last day, and the range is not refused for being empty
      expect(await passed({ query: marchQuery(metric('value_count'), { term: { key: 'cq' } }, { range: { ts: { gte: 'now-1d/d', lte: 'now/d' } } }) })).toBe(0);
    });

    it('SQL text in a value stays a value', async () => {
      for (const text of ["1; DROP TABLE telemetry; --", "cq' OR '1'='1", 'cq"; DELETE FROM entities; --']) {
        expect(await passed({ query: marchQuery(metric('value_count'), { term: { key: text } }) })).toBe(0);
      }
      expect(await passed({ query: marchQuery(metric('value_count'), { term: { key: 'cq' } }) })).toBe(6);
    });
  });

  describe("the scheduler's entities and time slot", () => {
    it('entity_ids, else entity_type_ids, narrow the query', async () => {
      const [m1, m2] = meters.ids;
      const query = marchQuery(metric('sum'), { term: { key: 'cq' } });
      expect(await passed({ query, entity_ids: [m2] })).toBe(16);
      expect(await passed({ query, entity_ids: [m1, m3.ids[0]], entity_type_ids: [meters.typeId] })).toBe(107);
      expect(await passed({ query, entity_type_ids: [m3.typeId] })).toBe(100);
      expect(await passed({ query, entity_ids: [], entity_type_ids: [] })).toBe(123);
    });

    it("the time slot is the previous whole week, month or year in the tenant's zone, and the query needs no range of its own", async () => {
      const [lastWeekFrom, lastWeekTo] = calendarRange('Europe/Bratislava', 'last_week', Date.now());
      const [m1] = meters.ids;
      await write(t, [lastWeekFrom - 1, lastWeekFrom, lastWeekFrom + 3 * DAY, lastWeekTo - 1, lastWeekTo]
        .map((ms) => ({ tenantId: city, entityId: m1, key: 'slot', ts: ms, value: 1 })));
      const query = JSON.stringify({ query: { term: { key: 'slot' } }, aggs: metric('value_count') });
      expect(await passed({ query, time_slot: 'last-week' })).toBe(3);
      // a point just inside each end of the month and of the year, and one just outside each
      for (const [slot, period] of [['last-month', 'last_month'], ['last-year', 'last_year']] as const) {
        const [from, to] = calendarRange('Europe/Bratislava', period, Date.now());
        const key = `slot-${period}`;
        await write(t, [from - 1, from, to - 1, to].map((ms) => ({ tenantId: city, entityId: m1, key, ts: ms, value: 1 })));
        expect(await passed({ query: JSON.stringify({ query: { term: { key } }, aggs: metric('value_count') }), time_slot: slot }), slot).toBe(2);
      }
    });
  });

  describe('refusals, with the reason and the offending path', () => {
    const avg = { a: { avg: { field: 'value' } } };
    it('anything outside the subset', async () => {
      expect(await failed({ query: JSON.stringify({ query: { script: { script: 'doc.value * 2' } }, aggs: avg }) }))
        .toEqual({ reason: 'query.script is not supported', path: 'query.script' });
      expect((await failed({ query: JSON.stringify({ query: { bool: { must: [{ query_string: { query: 'x' } }] } }, aggs: avg }) })).path).toBe('query.bool.must.0.query_string');
      expect((await failed({ query: JSON.stringify({ query: { wildcard: { key: 'c*' } }, aggs: avg }) })).reason).toBe('query.wildcard is not supported');
      expect((await failed({ query: JSON.stringify({ query: { term: { temperature: 21 } }, aggs: avg }) })).reason).toBe('query.term.temperature is not supported');
      expect((await failed({ query: JSON.stringify({ query: { range: { ts: { gte: 'now-7d' } } }, aggs: { a: { avg: { field: 'power' } } } }) })).reason)
        .toBe('aggs.a.avg.field must be "value"');
      expect((await failed({ query: JSON.stringify({ aggs: { a: { avg: { field: 'value', script: 'x' } } } }) })).path).toBe('aggs.a.avg.script');
    });

    it('SQL or other text instead of JSON', async () => {
      expect((await failed({ query: 'SELECT * FROM telemetry; DROP TABLE telemetry' })).reason).toMatch(/^the query is not JSON/);
      expect((await failed({ query: '"1; DROP TABLE telemetry"' })).reason).toMatch(/^the query must be a JSON object/);
    });

    it('bools nested more than 8 deep, more than 100 clauses, a text over 10 kB', async () => {
      const nested = (depth: number): unknown => (depth === 0 ? { term: { key: 'cq' } } : { bool: { must: [nested(depth - 1)] } });
      const deep = (depth: number) => JSON.stringify({ query: { bool: { filter: [{ range: { ts: MARCH } }, nested(depth - 1)] } }, aggs: avg });
      expect(await passed({ query: deep(8) })).toBe(20.5);
      const ninthBool = `query.bool.filter.1${'.bool.must.0'.repeat(7)}.bool`;
      expect(await failed({ query: deep(9) })).toEqual({ reason: `${ninthBool} nests bool queries more than 8 deep`, path: ninthBool });
      expect((await failed({ query: deep(40) })).reason).toMatch(/nested more than 64 levels deep|nests bool queries more than 8 deep/);

      const clauses = (count: number) => JSON.stringify({ query: { bool: { filter: [{ range: { ts: MARCH } }, ...Array.from({ length: count - 2 }, () => ({ term: { key: 'cq' } }))] } }, aggs: avg });
      expect(await passed({ query: clauses(100) })).toBe(20.5);
      expect(await failed({ query: clauses(101) })).toEqual({ reason: 'query.bool.filter.99 is one clause too many: a query holds at most 100', path: 'query.bool.filter.99' });

      const big = JSON.stringify({ query: { terms: { key: Array.from({ length: 900 }, (_v, i) => `key-number-${i}`) } }, aggs: avg });
      expect(big.length).toBeGreaterThan(10_000);
      expect((await failed({ query: big })).reason).toBe(`the query is ${big.length} bytes long; at most 10000 bytes (10 kB) are read`);
    });

    it('no time bound without a time slot, more than a year, too many buckets, several aggregations', async () => {
      const noBound = JSON.stringify({ query: { term: { key: 'cq' } }, aggs: avg });
      expect((await failed({ query: noBound })).reason).toMatch(/^the query reads no bounded time/);
      expect(await passed({ query: noBound, time_slot: 'last-week' })).toBeNull();
      expect((await failed({ query: marchQuery(avg, undefined, { range: { ts: { gte: '2025-01-01T00:00:00Z', lt: '2026-03-01T00:00:00Z' } } }) })).reason)
        .toBe('the query reads 424 days; at most 366 (a year)');
      expect((await failed({ query: marchQuery(avg, undefined, { range: { ts: { gte: 'now-2y' } } }) })).reason).toMatch(/^the query reads 7\d\d days/);
      // a bound only in should or must_not bounds nothing
      expect((await failed({ query: JSON.stringify({ query: { bool: { must_not: { range: { ts: { lt: 'now-7d' } } } } }, aggs: avg }) })).reason).toMatch(/no bounded time/);
      expect((await failed({ query: marchQuery({ h: { date_histogram: { field: 'ts', calendar_interval: 'minute' }, aggs: avg } }) })).path).toBe('aggs.h.date_histogram');
      expect((await failed({ query: marchQuery({ a: { avg: { field: 'value' } }, b: { sum: { field: 'value' } } }) })).reason).toBe('aggs must hold exactly one aggregation');
      expect((await failed({ query: marchQuery({ a: { avg: { field: 'value' }, sum: { field: 'value' } } }) })).path).toBe('aggs.a');
      expect((await failed({ query: JSON.stringify({ query: { range: { ts: MARCH } } }) })).reason).toBe('needs aggs with exactly one aggregation');
      expect((await failed({ query: marchQuery(avg, undefined, { range: { ts: { gte: '2026-02-30T00:00:00Z' } } }) })).reason)
        .toBe('query.bool.filter.0.range.ts.gte is not a date and time that exists');
    });

    it('a body out of its schema is a 400 naming the field', async () => {
      const answer = await test({ query: 'x'.repeat(20_001) });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ code: 'VALIDATION', field: 'query' });
      expect((await test({ query: '{}', time_slot: 'yesterday' })).body.errors[0]).toMatchObject({ code: 'VALIDATION', field: 'time_slot' });
    });
  });

  describe('who may test, and whose data', () => {
    const query = marchQuery(metric('value_count'), { term: { key: 'cq' } });
    it('the operator and a user without scheduler.complex_query get 403 before the body is read', async () => {
      const operatorAnswer = await test({ query }, operator);
      expect(operatorAnswer.status).toBe(403);
      expect(operatorAnswer.body.errors[0].code).toBe('FORBIDDEN');
      for (const body of [{ query }, { nonsense: true }]) {
        const answer = await test(body, planner);
        expect(answer.status).toBe(403);
        expect(answer.body.errors[0]).toMatchObject({ code: 'FORBIDDEN', params: { permission: 'scheduler.complex_query' } });
      }
      expect((await t.send({ method: 'POST', path: '/test-query-scheduler', body: { query } })).status).toBe(401);
    });

    it("another tenant's ids match nothing; each tenant reads its own points", async () => {
      expect(await passed({ query, entity_ids: [f] })).toBe(0);
      expect(await passed({ query: marchQuery(metric('value_count'), { term: { entity_id: f } }) })).toBe(0);
      expect(await passed({ query })).toBe(6);
      expect(await passed({ query }, facilityAdmin)).toBe(1);
      expect(await passed({ query, entity_ids: meters.ids }, facilityAdmin)).toBe(0);
    });

    it('writes nothing', async () => {
      const count = async () => (await t.db.systemQuery<{ n: number }>(sql`SELECT (SELECT count(*) FROM telemetry) + (SELECT count(*) FROM schedulers) + (SELECT count(*) FROM logs) AS n`))[0].n;
      const before = await count();
      await passed({ query });
      expect(await count()).toBe(before);
    });
  });

  describe('budget', () => {
    it('a year of hourly points of four devices (35,040) answers within the limit', async () => {
      const devices = await makeEntities(t, city, 'Query test year', 4);
      const from = at('2025-03-01T00:00:00Z');
      const points: TelemetryPoint[] = [];
      for (let ms = from; ms < from + 365 * DAY; ms += HOUR) {
        for (const entityId of devices.ids) points.push({ tenantId: city, entityId, key: 'year', ts: ms, value: (ms / HOUR) % 100 });
      }
      await write(t, points);
      const year = { range: { ts: { gte: '2025-03-01T00:00:00Z', lt: '2026-03-01T00:00:00Z' } } };
      expect(await passed({ query: marchQuery(metric('value_count'), { term: { key: 'year' } }, year) })).toBe(35_040);
      const percentiles = await passed({ query: marchQuery({ d: { date_histogram: { field: 'ts', calendar_interval: 'day' }, aggs: metric('percentiles') } }, { term: { key: 'year' } }, year) });
      // the UTC year from 1 March is 366 days of Bratislava: its first hour falls on 1 March local, its last on the next 1 March
      expect(percentiles).toHaveLength(366);
      expect([percentiles[0].key_as_string, percentiles[365].key_as_string]).toEqual(['2025-02-28T23:00:00.000Z', '2026-02-28T23:00:00.000Z']);
      // Within the limit: over it the database stops the statement and the test fails with that
      // reason. How long it takes is bench/'s to measure.
    });
  });
});

describe(`a query over the statement time limit on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  let t: TestApp;
  let admin: string;
  let slow: SlowStatement;

  beforeAll(async () => {
    t = await startTestApp({ statementTimeoutMs: 400 });
    admin = (await t.login('admin@demo.city')).access_token;
    const city = (await t.get('/tenant', admin)).body.id;
    // Reading a point of the key `slow` takes three seconds.
    slow = await slowStatement(t.db, 'point_read', 3);
    await t.db.systemQuery(sql.raw(`
      CREATE FUNCTION test_slow_point(k text) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN IF k = 'slow' THEN ${slow.body} END IF; RETURN true; END $$;
      CREATE POLICY test_slow ON telemetry AS RESTRICTIVE FOR SELECT TO terrasight_app USING (test_slow_point(key))`));
    const [{ id }] = await t.db.systemQuery<{ id: number }>(sql`SELECT id FROM entities WHERE tenant_id = ${city} ORDER BY id LIMIT 1`);
    await write(t, [{ tenantId: city, entityId: id, key: 'slow', ts: Date.now() - HOUR, value: 1 }]);
  });
  afterAll(async () => { await t?.close(); });

  it('is a failed test that says it took too long, not a 500', async () => {
    const query = { bool: { filter: [{ term: { key: 'slow' } }, { range: { ts: { gte: 'now-1d' } } }] } };
    const answer = await t.post('/test-query-scheduler', { query: JSON.stringify({ query, aggs: metric('sum') }) }, admin);
    const answeredAt = Date.now();
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 'failed', message: 'Test of query ended with error = the query took too long: the database stopped it at its time limit' });
    // at the limit, not when the statement ends: PostgreSQL cancels it, the embedded database runs
    // it to its end after the answer; then the next requests are served
    await slow.expectCutOff(answeredAt, usingPostgres());
    await until(async () => (await t.get('/tenant', admin)).status === 200, 30_000);
  });
});
