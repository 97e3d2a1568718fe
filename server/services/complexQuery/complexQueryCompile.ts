// Compiles a complex query's text into what server/db/complexQueryQueries.ts runs (docs/api.md
// "Complex queries"): the conditions on the tenant's points — the query's own, narrowed by the
// scheduler's entities and time slot — and its one aggregation. Beyond the schema
// (complexQueryParse.ts) it holds the limits a schema cannot state: one query per clause, one
// aggregation, bools nested at most 8 deep, at most 100 clauses, a time range of at most a year,
// at most 1,000 buckets.
import type { ComplexAggregation, ComplexCondition, ComplexMetric, ComplexQuerySpec } from '../../db/complexQueryQueries.ts';
import type { ZonedBucket } from '../../db/kpiDataQueries.ts';
import { joinPath, parseComplexQuery } from './complexQueryParse.ts';
import { ComplexQueryRefused } from './complexQueryRefused.ts';
import {
  COMPLEX_QUERY_LIMITS, DEFAULT_PERCENTS, METRIC_AGGREGATIONS,
  type Aggregation, type BoolQuery, type CALENDAR_INTERVALS, type Clause, type FIXED_INTERVALS, type MetricAggregation, type MetricKind,
} from './complexQuerySchema.ts';
import { RANGE_OPERATORS, timeCondition, timeSlotRange, type RangeBound, type TimeSlot } from './complexQueryTime.ts';

/** What a query is run for: the tenant and its zone, and what the scheduler narrows it to. */
export interface ComplexQueryContext {
  tenantId: string;
  /** The tenant's time zone: date math, time slots and calendar buckets follow it. */
  timeZone: string;
  /** The scheduler's entities; when empty, every entity of `entityTypeIds`; with neither, every entity. */
  entityIds?: readonly number[];
  entityTypeIds?: readonly number[];
  timeSlot?: TimeSlot;
  /** Milliseconds since the epoch (the clock's time by default). */
  now?: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type CalendarInterval = (typeof CALENDAR_INTERVALS)[number];
/** Calendar buckets in the tenant's zone, and their shortest length (for the estimate of buckets). */
const CALENDAR_BUCKETS: Record<CalendarInterval, { bucket: ZonedBucket; ms: number }> = {
  minute: { bucket: { stepMs: MINUTE }, ms: MINUTE }, '1m': { bucket: { stepMs: MINUTE }, ms: MINUTE },
  hour: { bucket: { stepMs: HOUR }, ms: HOUR }, '1h': { bucket: { stepMs: HOUR }, ms: HOUR },
  day: { bucket: { unit: 'day' }, ms: DAY - HOUR }, '1d': { bucket: { unit: 'day' }, ms: DAY - HOUR },
  week: { bucket: { unit: 'week' }, ms: 7 * DAY - HOUR }, '1w': { bucket: { unit: 'week' }, ms: 7 * DAY - HOUR },
  month: { bucket: { unit: 'month' }, ms: 28 * DAY - HOUR }, '1M': { bucket: { unit: 'month' }, ms: 28 * DAY - HOUR },
  year: { bucket: { unit: 'year' }, ms: 365 * DAY - HOUR }, '1y': { bucket: { unit: 'year' }, ms: 365 * DAY - HOUR },
};
const FIXED_MS: Record<(typeof FIXED_INTERVALS)[number], number> = { '1m': MINUTE, '5m': 5 * MINUTE, '15m': 15 * MINUTE, '1h': HOUR, '1d': DAY };

const ALL: ComplexCondition = { kind: 'all', of: [] };
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The one key of an object that must hold exactly one, else a refusal naming `what`. */
function onlyKey(object: object, path: string, what: string): string {
  const keys = Object.keys(object);
  if (keys.length !== 1) throw new ComplexQueryRefused(`must hold exactly one ${what}`, path);
  return keys[0];
}

/** Compiles the query part, counting clauses and the nesting of bools. */
function queryCompiler(zone: string, now: number) {
  let clauses = 0;

  function clause(value: Clause, path: string, bools: number): ComplexCondition {
    clauses += 1;
    if (clauses > COMPLEX_QUERY_LIMITS.clauses) throw new ComplexQueryRefused(`is one clause too many: a query holds at most ${COMPLEX_QUERY_LIMITS.clauses}`, path);
    const kind = onlyKey(value, path, 'query (match_all, bool, term, terms, range or exists)') as keyof Clause;
    const at = joinPath(path, kind);
    switch (kind) {
      case 'match_all':
        return ALL;
      case 'bool':
        if (bools + 1 > COMPLEX_QUERY_LIMITS.boolDepth) throw new ComplexQueryRefused(`nests bool queries more than ${COMPLEX_QUERY_LIMITS.boolDepth} deep`, at);
        return bool(value.bool!, at, bools + 1);
      case 'term': {
        const field = onlyKey(value.term!, at, 'field (key, entity_id or entity_type_id)') as keyof NonNullable<Clause['term']>;
        const term = value.term![field]!;
        return termsOf(field, [typeof term === 'object' ? term.value : term]);
      }
      case 'terms': {
        const field = onlyKey(value.terms!, at, 'field (key, entity_id or entity_type_id)') as keyof NonNullable<Clause['terms']>;
        return termsOf(field, value.terms![field]!);
      }
      case 'range': {
        const field = onlyKey(value.range!, at, 'field (ts or value)') as keyof NonNullable<Clause['range']>;
        const bounds = Object.entries(value.range![field]!) as [RangeBound, string | number][];
        return {
          kind: 'all',
          of: bounds.map(([bound, limit]): ComplexCondition => (field === 'ts'
            ? { kind: 'time', ...timeCondition(bound, limit as string, zone, now, joinPath(at, field, bound)) }
            : { kind: 'value', op: RANGE_OPERATORS[bound], value: limit as number })),
        };
      }
      case 'exists':
        return { kind: 'hasValue' };
    }
  }

  /**
   * Elasticsearch's bool: every `must` and `filter`, no `must_not`, and — when there is neither
   * `must` nor `filter`, or `minimum_should_match` is 1 — at least one `should` (otherwise `should`
   * only ranks hits, which changes no aggregation).
   */
  function bool(value: BoolQuery, path: string, bools: number): ComplexCondition {
    const part = (name: keyof Omit<BoolQuery, 'minimum_should_match'>) =>
      list(value[name]).map((item, index) => clause(item, joinPath(path, name, Array.isArray(value[name]) ? index : undefined), bools));
    const must = [...part('must'), ...part('filter')];
    const mustNot = part('must_not').map((condition): ComplexCondition => ({ kind: 'not', of: condition }));
    const should = part('should');
    const shouldCounts = should.length > 0 && (value.minimum_should_match === 1 || must.length === 0);
    return { kind: 'all', of: [...must, ...mustNot, ...shouldCounts ? [{ kind: 'any', of: should } as const] : []] };
  }

  return (value: Clause | undefined) => (value ? clause(value, 'query', 0) : ALL);
}

function termsOf(field: 'key' | 'entity_id' | 'entity_type_id', values: (string | number)[]): ComplexCondition {
  if (field === 'key') return { kind: 'keys', keys: values as string[] };
  return { kind: field === 'entity_id' ? 'entities' : 'entityTypes', ids: values as number[] };
}

/** The one aggregation of a map of named aggregations that may be called `aggs` or `aggregations`. */
function namedOnce<T>(holder: { aggs?: Record<string, T>; aggregations?: Record<string, T> }, path: string, what: string): { name: string; value: T; path: string } {
  if (holder.aggs && holder.aggregations) throw new ComplexQueryRefused('names both aggs and aggregations: keep one', path || undefined);
  const key = holder.aggregations ? 'aggregations' : 'aggs';
  const named = holder[key];
  if (!named) throw new ComplexQueryRefused(`needs aggs with ${what}`, path || undefined);
  const at = joinPath(path, key);
  const name = onlyKey(named, at, 'aggregation');
  return { name, value: named[name], path: joinPath(at, name) };
}

function metricOf(aggregation: MetricAggregation, path: string): ComplexMetric {
  const kind = onlyKey(aggregation, path, `aggregation (${METRIC_AGGREGATIONS.join(', ')})`) as MetricKind;
  if (kind !== 'percentiles') return { kind };
  return { kind, percents: aggregation.percentiles!.percents ?? DEFAULT_PERCENTS };
}

/** The earliest and latest instant the conditions allow, where they say (only what all points must meet bounds them). */
function timeSpan(condition: ComplexCondition): { from?: number; to?: number } {
  if (condition.kind === 'time') return condition.op.startsWith('>') ? { from: condition.at } : { to: condition.at };
  if (condition.kind !== 'all') return {};
  const spans = condition.of.map(timeSpan);
  const froms = spans.flatMap((span) => (span.from === undefined ? [] : [span.from]));
  const tos = spans.flatMap((span) => (span.to === undefined ? [] : [span.to]));
  return { from: froms.length ? Math.max(...froms) : undefined, to: tos.length ? Math.min(...tos) : undefined };
}

/** The one aggregation, its buckets (if a date_histogram) estimated over the time [from, to) the query reads. */
function aggregationOf(query: { aggs?: Record<string, Aggregation>; aggregations?: Record<string, Aggregation> }, from: number, to: number, zone: string): ComplexAggregation {
  const top = namedOnce(query, '', 'exactly one aggregation');
  const { date_histogram: histogram, aggs: _aggs, aggregations: _aggregations, ...metrics } = top.value;
  if (!histogram) {
    if (top.value.aggs || top.value.aggregations) throw new ComplexQueryRefused('is not a date_histogram: it holds no sub-aggregation', top.path);
    return metricOf(metrics, top.path);
  }
  if (Object.keys(metrics).length) throw new ComplexQueryRefused('must hold exactly one aggregation', top.path);
  const at = joinPath(top.path, 'date_histogram');
  if (!histogram.calendar_interval === !histogram.fixed_interval) throw new ComplexQueryRefused('needs either calendar_interval or fixed_interval', at);
  const sub = namedOnce(top.value, top.path, 'one metric aggregation of each bucket');
  const calendar = histogram.calendar_interval && CALENDAR_BUCKETS[histogram.calendar_interval];
  const bucketMs = calendar ? calendar.ms : FIXED_MS[histogram.fixed_interval!];
  const buckets = Math.ceil((to - from) / bucketMs) + 1;
  if (buckets > COMPLEX_QUERY_LIMITS.buckets) {
    throw new ComplexQueryRefused(`would make up to ${buckets} buckets over the time the query reads; at most ${COMPLEX_QUERY_LIMITS.buckets}: choose a longer interval or a shorter time`, at);
  }
  return {
    kind: 'date_histogram',
    bucket: calendar ? { zoned: calendar.bucket, zone } : { fixedMs: bucketMs },
    metric: metricOf(sub.value, sub.path),
    maxBuckets: COMPLEX_QUERY_LIMITS.buckets,
  };
}

/** The statement's spec of `text` for this context, or ComplexQueryRefused saying why not. */
export function compileComplexQuery(text: string, context: ComplexQueryContext): ComplexQuerySpec {
  const now = context.now ?? Date.now();
  const zone = context.timeZone;
  const query = parseComplexQuery(text);
  const conditions = [queryCompiler(zone, now)(query.query)];
  if (context.entityIds?.length) conditions.push({ kind: 'entities', ids: [...context.entityIds] });
  else if (context.entityTypeIds?.length) conditions.push({ kind: 'entityTypes', ids: [...context.entityTypeIds] });
  if (context.timeSlot) {
    const [slotFrom, slotTo] = timeSlotRange(context.timeSlot, zone, now);
    conditions.push({ kind: 'time', op: '>=', at: slotFrom }, { kind: 'time', op: '<', at: slotTo });
  }
  const where: ComplexCondition = { kind: 'all', of: conditions };

  const span = timeSpan(where);
  if (span.from === undefined) {
    throw new ComplexQueryRefused('the query reads no bounded time: give it a time slot, or a range on ts with gte or gt in must or filter');
  }
  const to = span.to ?? now;
  if (to - span.from > COMPLEX_QUERY_LIMITS.rangeDays * DAY) {
    throw new ComplexQueryRefused(`the query reads ${Math.ceil((to - span.from) / DAY)} days; at most ${COMPLEX_QUERY_LIMITS.rangeDays} (a year)`);
  }
  return { tenantId: context.tenantId, where, aggregation: aggregationOf(query, span.from, to, zone) };
}

