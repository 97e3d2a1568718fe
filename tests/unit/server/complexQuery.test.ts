// The complex-query compiler: each clause and aggregation of the Elasticsearch subset → the SQL it
// makes and its parameters; date math and time slots in the tenant's zone, worked out by hand;
// every refusal with its reason and path; and, over many generated hostile texts, that no text of
// the query ever reaches the statement's SQL — only its parameters.
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { complexQuerySql } from '../../../server/db/complexQueryQueries.ts';
import { compileComplexQuery, type ComplexQueryContext } from '../../../server/services/complexQuery/complexQueryCompile.ts';
import { ComplexQueryRefused } from '../../../server/services/complexQuery/complexQueryRefused.ts';

const dialect = new PgDialect();
const TENANT = '6f1c4a52-0d7e-4a8b-9a43-3c3e2b1d9f10';
/** A Wednesday, 14:34:56.789 in Bratislava (CEST, +02:00). */
const NOW = Date.parse('2026-06-10T12:34:56.789Z');
const CONTEXT: ComplexQueryContext = { tenantId: TENANT, timeZone: 'Europe/Bratislava', now: NOW, timeSlot: 'last-week' };
/** The last week of NOW in Bratislava: Monday 1 June to Monday 8 June 2026, local midnights. */
const LAST_WEEK = ['2026-05-31T22:00:00.000Z', '2026-06-07T22:00:00.000Z'];
const AVG = { a: { avg: { field: 'value' } } };

/** The statement of a query (an object is written as JSON) and its parameters. */
function statement(query: unknown, context: Partial<ComplexQueryContext> = {}) {
  const text = typeof query === 'string' ? query : JSON.stringify(query);
  const { sql, params } = dialect.sqlToQuery(complexQuerySql(compileComplexQuery(text, { ...CONTEXT, ...context })));
  return { sql, params };
}

/** The conditions of a query's statement (after the tenant's and the numeric values') and their parameters (after the tenant). */
function conditions(query: unknown, context: Partial<ComplexQueryContext> = {}) {
  const { sql, params } = statement(query, context);
  const points = 't.value_num IS NOT NULL AND ';
  return { where: sql.slice(sql.indexOf(points) + points.length), params: params.slice(1) };
}

/** The reason and path a query is refused with. */
function refusal(query: unknown, context: Partial<ComplexQueryContext> = {}) {
  try {
    statement(query, context);
  } catch (error) {
    if (error instanceof ComplexQueryRefused) return { reason: error.message, path: error.path };
    throw error;
  }
  throw new Error('the query was not refused');
}

const SLOT = ' AND t.ts >= $3::timestamptz AND t.ts < $4::timestamptz)';

describe('clauses → conditions', () => {
  it('term and terms on key, entity_id and entity_type_id, short or long form', () => {
    expect(conditions({ query: { term: { key: 'power' } }, aggs: AVG })).toEqual({ where: `(t.key = ANY(ARRAY[$2]::text[])${SLOT}`, params: ['power', ...LAST_WEEK] });
    expect(conditions({ query: { term: { key: { value: 'power' } } }, aggs: AVG }).params).toEqual(['power', ...LAST_WEEK]);
    expect(conditions({ query: { terms: { entity_id: [7, 8] } }, aggs: AVG })).toEqual({
      where: '(t.entity_id = ANY(ARRAY[$2, $3]::int[]) AND t.ts >= $4::timestamptz AND t.ts < $5::timestamptz)', params: [7, 8, ...LAST_WEEK],
    });
    expect(conditions({ query: { term: { entity_type_id: 3 } }, aggs: AVG })).toEqual({
      where: `(t.entity_id IN (SELECT e.id FROM entities e WHERE e.tenant_id = $2 AND e.entity_type_id = ANY(ARRAY[$3]::int[])) AND t.ts >= $4::timestamptz AND t.ts < $5::timestamptz)`,
      params: [TENANT, 3, ...LAST_WEEK],
    });
  });

  it('range on value (a point without a number is out of it, also under must_not), exists, match_all', () => {
    expect(conditions({ query: { range: { value: { gt: 5, lte: 10.5 } } }, aggs: AVG })).toEqual({
      where: '((coalesce(t.value_num > $2::float8, false) AND coalesce(t.value_num <= $3::float8, false)) AND t.ts >= $4::timestamptz AND t.ts < $5::timestamptz)',
      params: [5, 10.5, ...LAST_WEEK],
    });
    expect(conditions({ query: { exists: { field: 'value' } }, aggs: AVG }).where).toBe(`(t.value_num IS NOT NULL${SLOT.replace('$3', '$2').replace('$4', '$3')}`);
    expect(conditions({ query: { match_all: {} }, aggs: AVG }).where).toBe(`(TRUE${SLOT.replace('$3', '$2').replace('$4', '$3')}`);
  });

  it('bool: must and filter all hold, must_not none, should one when there is no must or filter or minimum_should_match is 1', () => {
    const key = (k: string) => ({ term: { key: k } });
    expect(conditions({ query: { bool: { must: key('a'), filter: [key('b')], must_not: [key('c'), key('d')] } }, aggs: AVG }).where).toBe(
      '((t.key = ANY(ARRAY[$2]::text[]) AND t.key = ANY(ARRAY[$3]::text[]) AND NOT (t.key = ANY(ARRAY[$4]::text[])) AND NOT (t.key = ANY(ARRAY[$5]::text[])))'
      + ' AND t.ts >= $6::timestamptz AND t.ts < $7::timestamptz)',
    );
    expect(conditions({ query: { bool: { should: [key('a'), key('b')] } }, aggs: AVG }).where)
      .toBe('(((t.key = ANY(ARRAY[$2]::text[]) OR t.key = ANY(ARRAY[$3]::text[]))) AND t.ts >= $4::timestamptz AND t.ts < $5::timestamptz)');
    // beside must, should only ranks hits: it narrows nothing
    expect(conditions({ query: { bool: { must: key('a'), should: key('b') } }, aggs: AVG }).params).toEqual(['a', ...LAST_WEEK]);
    expect(conditions({ query: { bool: { must: key('a'), should: key('b'), minimum_should_match: 1 } }, aggs: AVG }).where)
      .toBe('((t.key = ANY(ARRAY[$2]::text[]) AND (t.key = ANY(ARRAY[$3]::text[]))) AND t.ts >= $4::timestamptz AND t.ts < $5::timestamptz)');
    expect(conditions({ query: { bool: {} }, aggs: AVG }).where).toBe(`(TRUE${SLOT.replace('$3', '$2').replace('$4', '$3')}`);
  });

  it("the scheduler's entities, else its entity types, then its time slot, as further conditions", () => {
    const query = { query: { term: { key: 'k' } }, aggs: AVG };
    expect(conditions(query, { entityIds: [4, 5], entityTypeIds: [9] })).toEqual({
      where: '(t.key = ANY(ARRAY[$2]::text[]) AND t.entity_id = ANY(ARRAY[$3, $4]::int[]) AND t.ts >= $5::timestamptz AND t.ts < $6::timestamptz)',
      params: ['k', 4, 5, ...LAST_WEEK],
    });
    expect(conditions(query, { entityIds: [], entityTypeIds: [9] }).params).toEqual(['k', TENANT, 9, ...LAST_WEEK]);
  });
});

describe('time: slots and date math in the tenant\'s zone, by hand', () => {
  const tsParams = (bounds: Record<string, string>, context: Partial<ComplexQueryContext> = {}) => {
    const { where, params } = conditions({ query: { range: { ts: bounds } }, aggs: AVG }, { timeSlot: undefined, ...context });
    return { operators: [...where.matchAll(/t\.ts (>=|>|<=|<) /g)].map((match) => match[1]), params };
  };

  it('time slots: the previous whole week (Monday to Monday), month and year, local midnight to local midnight', () => {
    expect(conditions({ aggs: AVG }).params).toEqual(LAST_WEEK);
    expect(conditions({ aggs: AVG }, { timeSlot: 'last-month' }).params).toEqual(['2026-04-30T22:00:00.000Z', '2026-05-31T22:00:00.000Z']);
    expect(conditions({ aggs: AVG }, { timeSlot: 'last-year' }).params).toEqual(['2024-12-31T23:00:00.000Z', '2025-12-31T23:00:00.000Z']);
    expect(conditions({ aggs: AVG }, { timeSlot: 'last-week', timeZone: 'UTC' }).params).toEqual(['2026-06-01T00:00:00.000Z', '2026-06-08T00:00:00.000Z']);
  });

  it('ISO instants as they are; now with an offset', () => {
    expect(tsParams({ gte: '2026-06-01T00:00:00+02:00', lt: '2026-06-02T00:00Z' })).toEqual({ operators: ['>=', '<'], params: ['2026-05-31T22:00:00.000Z', '2026-06-02T00:00:00.000Z'] });
    expect(tsParams({ gte: 'now-7d', lte: 'now' })).toEqual({ operators: ['>=', '<='], params: ['2026-06-03T12:34:56.789Z', '2026-06-10T12:34:56.789Z'] });
    expect(tsParams({ gt: 'now-1h', lt: 'now+1d' }).params).toEqual(['2026-06-10T11:34:56.789Z', '2026-06-11T12:34:56.789Z']);
    expect(tsParams({ gte: 'now-1y' }).params).toEqual(['2025-06-10T12:34:56.789Z']);
    expect(tsParams({ gte: 'now-90s' }).params).toEqual(['2026-06-10T12:33:26.789Z']);
    // days are the zone's: a day before 14:00 on the day summer time began is 14:00 the day before, 23 hours earlier
    expect(tsParams({ gte: 'now-1d' }, { now: Date.parse('2026-03-29T12:00:00Z') }).params).toEqual(['2026-03-28T13:00:00.000Z']);
  });

  it('rounding as Elasticsearch rounds: gte and lt from the start of the period, gt and lte from its end', () => {
    expect(tsParams({ gte: 'now/d', lte: 'now/d' })).toEqual({ operators: ['>=', '<'], params: ['2026-06-09T22:00:00.000Z', '2026-06-10T22:00:00.000Z'] });
    expect(tsParams({ gt: 'now-1d/d', lt: 'now/d' })).toEqual({ operators: ['>=', '<'], params: ['2026-06-09T22:00:00.000Z', '2026-06-09T22:00:00.000Z'] });
    expect(tsParams({ gte: 'now/w' }).params).toEqual(['2026-06-07T22:00:00.000Z']);
    expect(tsParams({ gte: 'now-1M/M' }).params).toEqual(['2026-04-30T22:00:00.000Z']);
    expect(tsParams({ gte: 'now/y' }).params).toEqual(['2025-12-31T23:00:00.000Z']);
    expect(tsParams({ gte: 'now/h' }).params).toEqual(['2026-06-10T12:00:00.000Z']);
    expect(tsParams({ gte: 'now-30m/m' }).params).toEqual(['2026-06-10T12:04:00.000Z']);
    // Asia/Kolkata (+05:30): its days and hours start at half past in UTC
    expect(tsParams({ gte: 'now/d', lt: 'now/h' }, { timeZone: 'Asia/Kolkata' }).params).toEqual(['2026-06-09T18:30:00.000Z', '2026-06-10T12:30:00.000Z']);
  });
});

describe('aggregations → the statement', () => {
  const slotted = ' FROM telemetry t WHERE t.tenant_id = $1 AND t.value_num IS NOT NULL AND (TRUE AND t.ts >= $2::timestamptz AND t.ts < $3::timestamptz)';
  const metric = (kind: string, extra = {}) => ({ aggs: { m: { [kind]: { field: 'value', ...extra } } } });

  it('metrics over the numeric values: sum and value_count 0 over none', () => {
    expect(statement(metric('avg'))).toEqual({ sql: `SET LOCAL jit = off; SELECT avg(t.value_num)::float8 AS value${slotted}`, params: [TENANT, ...LAST_WEEK] });
    expect(statement(metric('sum')).sql).toBe(`SET LOCAL jit = off; SELECT coalesce(sum(t.value_num), 0)::float8 AS value${slotted}`);
    expect(statement(metric('min')).sql).toBe(`SET LOCAL jit = off; SELECT min(t.value_num)::float8 AS value${slotted}`);
    expect(statement(metric('max')).sql).toBe(`SET LOCAL jit = off; SELECT max(t.value_num)::float8 AS value${slotted}`);
    expect(statement(metric('value_count')).sql).toBe(`SET LOCAL jit = off; SELECT count(t.value_num)::float8 AS value${slotted}`);
  });

  it('percentiles: the asked percents (Elasticsearch\'s seven by default) as fractions', () => {
    const asked = statement(metric('percentiles', { percents: [50, 95, 99.5] }));
    expect(asked.sql).toBe('SET LOCAL jit = off; SELECT percentile_cont(ARRAY[$1, $2, $3]::float8[]) WITHIN GROUP (ORDER BY t.value_num) AS value'
      + slotted.replace('$1', '$4').replace('$2', '$5').replace('$3', '$6'));
    expect(asked.params).toEqual([0.5, 0.95, 0.995, TENANT, ...LAST_WEEK]);
    expect(statement({ aggregations: { p: { percentiles: { field: 'value', keyed: true } } } }).params.slice(0, 7)).toEqual([0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99]);
  });

  it("date_histogram: calendar buckets in the tenant's zone, fixed ones from the epoch, at most 1,001 rows", () => {
    const histogram = (interval: Record<string, string>, sub = { s: { sum: { field: 'value' } } }) => statement({ aggs: { h: { date_histogram: { field: 'ts', ...interval }, aggs: sub } } });
    const day = histogram({ calendar_interval: 'day' });
    expect(day.sql).toBe(`SET LOCAL jit = off;
    SELECT (extract(epoch FROM b.bucket) * 1000)::float8 AS key, b.value
    FROM (SELECT date_trunc($1, t.ts, $2::text) AS bucket, coalesce(sum(t.value_num), 0)::float8 AS value${slotted.replace('$1', '$3').replace('$2', '$4').replace('$3::', '$5::')} GROUP BY 1) b
    ORDER BY b.bucket LIMIT $6`);
    expect(day.params).toEqual(['day', 'Europe/Bratislava', TENANT, ...LAST_WEEK, 1001]);
    expect(histogram({ calendar_interval: '1M' }).params.slice(0, 2)).toEqual(['month', 'Europe/Bratislava']);
    expect(histogram({ calendar_interval: 'year' }).params.slice(0, 2)).toEqual(['year', 'Europe/Bratislava']);
    const hour = histogram({ calendar_interval: 'hour' });
    expect(hour.sql).toContain('t.ts - ((t.ts AT TIME ZONE $1::text) - date_bin($2::interval, (t.ts AT TIME ZONE $3::text), timestamp \'2000-01-01 00:00:00\')) AS bucket');
    expect(hour.params.slice(0, 3)).toEqual(['Europe/Bratislava', '3600 seconds', 'Europe/Bratislava']);
    const fixed = histogram({ fixed_interval: '1h' }, { s: { percentiles: { field: 'value', percents: [50] } } } as never);
    expect(fixed.sql).toContain("date_bin($1::interval, t.ts, timestamptz '1970-01-01 00:00:00+00') AS bucket, percentile_cont(ARRAY[$2]::float8[])");
    expect(fixed.params.slice(0, 2)).toEqual(['3600 seconds', 0.5]);
    expect(statement({ query: { range: { ts: { gte: 'now-1d' } } }, aggs: { h: { date_histogram: { field: 'ts', fixed_interval: '5m' }, aggs: AVG } } }, { timeSlot: undefined }).params[0]).toBe('300 seconds');
  });
});

describe('refusals, with the reason and the offending path', () => {
  const cases: [string, unknown, Partial<ComplexQueryContext>, { reason: string | RegExp; path?: string }][] = [
    ['script', { query: { script: { script: 'x' } }, aggs: AVG }, {}, { reason: 'query.script is not supported', path: 'query.script' }],
    ['query_string', { query: { bool: { must: [{ query_string: { query: 'a' } }] } }, aggs: AVG }, {}, { reason: 'query.bool.must.0.query_string is not supported', path: 'query.bool.must.0.query_string' }],
    ['wildcard', { query: { wildcard: { key: 'p*' } }, aggs: AVG }, {}, { reason: 'query.wildcard is not supported', path: 'query.wildcard' }],
    ['a field outside the whitelist', { query: { term: { value: 1 } }, aggs: AVG }, {}, { reason: 'query.term.value is not supported', path: 'query.term.value' }],
    ['a range on key', { query: { range: { key: { gte: 'a' } } }, aggs: AVG }, {}, { reason: 'query.range.key is not supported', path: 'query.range.key' }],
    ['a metric on ts', { aggs: { a: { max: { field: 'ts' } } } }, {}, { reason: 'aggs.a.max.field must be "value"', path: 'aggs.a.max.field' }],
    ['an unknown aggregation', { aggs: { a: { terms: { field: 'key' } } } }, {}, { reason: 'aggs.a.terms is not supported', path: 'aggs.a.terms' }],
    ['a histogram on value', { aggs: { h: { date_histogram: { field: 'value', fixed_interval: '1h' }, aggs: AVG } } }, {}, { reason: 'aggs.h.date_histogram.field must be "ts"' }],
    ['an interval outside the whitelist', { aggs: { h: { date_histogram: { field: 'ts', fixed_interval: '7m' }, aggs: AVG } } }, {}, { reason: 'aggs.h.date_histogram.fixed_interval must be "1m" or "5m" or "15m" or "1h" or "1d"' }],
    ['both intervals', { aggs: { h: { date_histogram: { field: 'ts', fixed_interval: '1h', calendar_interval: 'day' }, aggs: AVG } } }, {}, { reason: 'aggs.h.date_histogram needs either calendar_interval or fixed_interval' }],
    ['no sub-aggregation', { aggs: { h: { date_histogram: { field: 'ts', fixed_interval: '1h' } } } }, {}, { reason: 'aggs.h needs aggs with one metric aggregation of each bucket' }],
    ['a histogram in a histogram', { aggs: { h: { date_histogram: { field: 'ts', fixed_interval: '1h' }, aggs: { i: { date_histogram: { field: 'ts', fixed_interval: '1h' } } } } } }, {}, { reason: 'aggs.h.aggs.i.date_histogram is not supported' }],
    ['a sub-aggregation of a metric', { aggs: { a: { avg: { field: 'value' }, aggs: AVG } } }, {}, { reason: 'aggs.a is not a date_histogram: it holds no sub-aggregation' }],
    ['two aggregations', { aggs: { a: { avg: { field: 'value' } }, b: { avg: { field: 'value' } } } }, {}, { reason: 'aggs must hold exactly one aggregation', path: 'aggs' }],
    ['aggs and aggregations', { aggs: AVG, aggregations: AVG }, {}, { reason: 'names both aggs and aggregations: keep one' }],
    ['no aggregation', { query: { match_all: {} } }, {}, { reason: 'needs aggs with exactly one aggregation' }],
    ['a bad aggregation name', { aggs: { 'a>b': { avg: { field: 'value' } } } }, {}, { reason: 'aggs.a>b is not a name of an aggregation: 1 to 100 characters, none of them [, ] or >' }],
    ['two queries in a clause', { query: { term: { key: 'a' }, exists: { field: 'value' } }, aggs: AVG }, {}, { reason: /^query must hold exactly one query/ }],
    ['two fields in a term', { query: { term: { key: 'a', entity_id: 1 } }, aggs: AVG }, {}, { reason: /^query\.term must hold exactly one field/ }],
    ['minimum_should_match 2', { query: { bool: { should: [], minimum_should_match: 2 } }, aggs: AVG }, {}, { reason: 'query.bool.minimum_should_match must be 1' }],
    ['more than 10 percents', { aggs: { p: { percentiles: { field: 'value', percents: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] } } } }, {}, { reason: 'aggs.p.percentiles.percents has more than 10 items' }],
    ['a percent over 100', { aggs: { p: { percentiles: { field: 'value', percents: [101] } } } }, {}, { reason: 'aggs.p.percentiles.percents.0 must be <= 100' }],
    ['an id out of range', { query: { term: { entity_id: 2 ** 31 } }, aggs: AVG }, {}, { reason: 'query.term.entity_id must be <= 2147483647' }],
    ['a range without a bound', { query: { range: { value: {} } }, aggs: AVG }, {}, { reason: 'query.range.value needs at least one of gte, gt, lte and lt' }],
    ['a range with format', { query: { range: { ts: { gte: 'now-1d', format: 'epoch_millis' } } }, aggs: AVG }, {}, { reason: 'query.range.ts.format is not supported' }],
    ['a date that is no date math', { query: { range: { ts: { gte: 'now-1d-2h' } } }, aggs: AVG }, {}, { reason: /^query\.range\.ts\.gte must be an ISO 8601 instant with its offset/ }],
    ['a date without offset', { query: { range: { ts: { gte: '2026-06-01T00:00:00' } } }, aggs: AVG }, {}, { reason: /^query\.range\.ts\.gte must be an ISO 8601 instant/ }],
    ['a date that does not exist', { query: { range: { ts: { gte: '2026-02-29T00:00:00Z' } } }, aggs: AVG }, {}, { reason: 'query.range.ts.gte is not a date and time that exists' }],
    ['a date before 1900', { query: { range: { ts: { gte: '1899-12-31T00:00:00Z' } } }, aggs: AVG }, {}, { reason: 'query.range.ts.gte is outside the years 1900–8999' }],
    ['no time bound', { query: { term: { key: 'a' } }, aggs: AVG }, { timeSlot: undefined }, { reason: /^the query reads no bounded time/ }],
    ['a bound only under should', { query: { bool: { should: { range: { ts: { gte: 'now-1d' } } } } }, aggs: AVG }, { timeSlot: undefined }, { reason: /^the query reads no bounded time/ }],
    ['more than a year', { query: { range: { ts: { gte: 'now-367d' } } }, aggs: AVG }, { timeSlot: undefined }, { reason: 'the query reads 367 days; at most 366 (a year)' }],
    ['too many buckets', { aggs: { h: { date_histogram: { field: 'ts', calendar_interval: 'minute' }, aggs: AVG } } }, {}, { reason: /^aggs\.h\.date_histogram would make up to 10\d\d\d buckets/ }],
    ['a number for a date', { query: { range: { ts: { gte: 1700000000000 } } }, aggs: AVG }, {}, { reason: /^query\.range\.ts\.gte must be an ISO 8601/ }],
    ['size', { size: 10, aggs: AVG }, {}, { reason: 'size must be 0' }],
    ['an array', [], {}, { reason: /^the query must be a JSON object/ }],
    ['text', 'avg(energy)', {}, { reason: /^the query is not JSON/ }],
    ['SQL', "SELECT * FROM telemetry WHERE key = 'x'; DROP TABLE telemetry", {}, { reason: /^the query is not JSON/ }],
  ];
  for (const [what, query, context, expected] of cases) {
    it(what, () => {
      const refused = refusal(query, context);
      if (typeof expected.reason === 'string') expect(refused.reason).toBe(expected.reason);
      else expect(refused.reason).toMatch(expected.reason);
      if (expected.path) expect(refused.path).toBe(expected.path);
    });
  }

  it('bools nested more than 8 deep, more than 100 clauses, JSON nested more than 64 levels, a text over 10 kB', () => {
    const nested = (depth: number): unknown => (depth === 0 ? { match_all: {} } : { bool: { must: nested(depth - 1) } });
    expect(() => statement({ query: nested(8), aggs: AVG })).not.toThrow();
    expect(refusal({ query: nested(9), aggs: AVG })).toEqual({ reason: `query${'.bool.must'.repeat(8)}.bool nests bool queries more than 8 deep`, path: `query${'.bool.must'.repeat(8)}.bool` });
    expect(refusal({ query: nested(40), aggs: AVG })).toEqual({ reason: 'query is nested more than 64 levels deep', path: 'query' });

    const many = (count: number) => ({ query: { bool: { must: Array.from({ length: count - 1 }, () => ({ match_all: {} })) } }, aggs: AVG });
    expect(() => statement(many(100))).not.toThrow();
    expect(refusal(many(101))).toEqual({ reason: 'query.bool.must.99 is one clause too many: a query holds at most 100', path: 'query.bool.must.99' });

    const long = JSON.stringify({ query: { term: { key: 'ž'.repeat(4_990) } }, aggs: AVG }); // 2 bytes a character
    expect(long.length).toBeLessThan(10_000);
    expect(refusal(long).reason).toBe(`the query is ${Buffer.byteLength(long)} bytes long; at most 10000 bytes (10 kB) are read`);
  });
});

describe('no text of the query reaches the SQL', () => {
  /** A seeded generator, so that a failure can be replayed. */
  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }
  const HOSTILE = ["'", '"', ';', '-', '-', '/', '*', '\\', '(', ')', '$', '1', ' ', '\n', 'OR', 'DROP TABLE ', 'SELECT ', '--', '/*', '$$', 'E\'', '%', '_', 'ž', '😀'];

  it('over 300 generated queries: keys, names and dates only ever as parameters', () => {
    const next = random(20_261_110);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    // every text holds a character no statement of ours has (ASCII only), so finding it there is a leak, not chance
    const text = () => `${Array.from({ length: 3 + Math.floor(next() * 12) }, () => pick(HOSTILE)).join('')}ü`;
    /** An aggregation's name: up to 100 characters, none of [ ] > (any other may be hostile). */
    const name = () => text().replace(/[[\]>]/g, '').slice(-100);
    for (let round = 0; round < 300; round++) {
      const keys = [text(), text()];

      const query = {
        query: {
          bool: {
            filter: [{ terms: { key: keys } }, { range: { ts: { gte: `now-${1 + Math.floor(next() * 300)}d/d` } } }],
            should: [{ term: { key: { value: text() } } }, { range: { value: { gt: next() * 1e6 - 5e5 } } }],
            must_not: { term: { entity_id: 1 + Math.floor(next() * 1e6) } },
          },
        },
        aggs: { [name()]: round % 2 ? { percentiles: { field: 'value', percents: [next() * 100] } } : { date_histogram: { field: 'ts', calendar_interval: 'day' }, aggs: { [name()]: { max: { field: 'value' } } } } },
      };
      const { sql, params } = statement(query, { timeSlot: undefined });
      expect(sql).toMatch(/^[\x20-\x7e\n]*$/);
      for (const key of keys) expect(params).toContain(key);
      expect(sql).not.toMatch(/ü/);
    }
  });
});
