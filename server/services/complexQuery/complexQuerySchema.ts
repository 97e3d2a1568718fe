// The JSON Schema of the Elasticsearch query DSL subset a scheduler's complex query may use
// (docs/api.md "Complex queries"), and its limits. Anything the schema does not name — `script`,
// `query_string`, `wildcard`, a field outside the whitelist — is refused before anything is compiled.
// What a schema cannot say (exactly one query per clause, one aggregation, how deeply bools nest,
// how many clauses) the compiler checks (complexQueryCompile.ts).
import { idSchema, NO_NUL } from '../../../src/schemas/bounds.ts';

export const COMPLEX_QUERY_LIMITS = {
  /** The query text, in bytes of UTF-8. */
  bytes: 10_000,
  /** bool queries nested in one another. */
  boolDepth: 8,
  /** Query clauses in all (bools included). */
  clauses: 100,
  /** Values of one `terms`. */
  terms: 1_000,
  /** Percents of one `percentiles`. */
  percents: 10,
  /** Buckets of a `date_histogram`. */
  buckets: 1_000,
  /** The time the query reads (a leap year of days). */
  rangeDays: 366,
} as const;

/** Elasticsearch date math: `now`, one offset (`-7d`, `+1h`) and one rounding (`/d`) at most. */
export const DATE_MATH = /^now(?:([+-])([1-9]\d{0,3})([yMwdhHms]))?(?:\/([yMwdhHm]))?$/;
/** An ISO 8601 instant with its offset, to the millisecond at most. */
export const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export const CALENDAR_INTERVALS = ['minute', '1m', 'hour', '1h', 'day', '1d', 'week', '1w', 'month', '1M', 'year', '1y'] as const;
export const FIXED_INTERVALS = ['1m', '5m', '15m', '1h', '1d'] as const;
export const METRIC_AGGREGATIONS = ['avg', 'sum', 'min', 'max', 'value_count', 'percentiles'] as const;
export type MetricKind = (typeof METRIC_AGGREGATIONS)[number];

/** The percents of a `percentiles` that names none (Elasticsearch's). */
export const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];

const telemetryKey = { type: 'string', minLength: 1, maxLength: 255, pattern: NO_NUL } as const;
/** The fields `term` and `terms` may name, with their values. */
const TERM_FIELDS = { key: telemetryKey, entity_id: idSchema, entity_type_id: idSchema } as const;

/** A term's value in its short form (`"power"`) or Elasticsearch's long form (`{ "value": "power" }`). */
const termValue = (schema: object) => ({
  if: { type: 'object' },
  then: { type: 'object', additionalProperties: false, required: ['value'], properties: { value: schema } },
  else: schema,
});

const mapValues = (fields: Record<string, object>, to: (schema: object) => object) =>
  Object.fromEntries(Object.entries(fields).map(([field, schema]) => [field, to(schema)]));

const dateBound = { type: 'string', maxLength: 40, pattern: `${DATE_MATH.source}|${ISO_INSTANT.source}`, 'x-errors': { pattern: 'DATE' } };
const bounds = (bound: object) => ({
  type: 'object', additionalProperties: false, minProperties: 1,
  properties: { gte: bound, gt: bound, lte: bound, lt: bound },
});

/** One clause or a list of them (Elasticsearch takes both). */
const clauses = {
  if: { type: 'array' },
  then: { type: 'array', maxItems: COMPLEX_QUERY_LIMITS.clauses, items: { $ref: '#/$defs/clause' } },
  else: { $ref: '#/$defs/clause' },
};

const valueField = { type: 'string', enum: ['value'] };
const metric = { type: 'object', additionalProperties: false, required: ['field'], properties: { field: valueField } };
const metricAggregations = {
  avg: metric, sum: metric, min: metric, max: metric, value_count: metric,
  percentiles: {
    type: 'object', additionalProperties: false, required: ['field'],
    properties: {
      field: valueField,
      percents: { type: 'array', minItems: 1, maxItems: COMPLEX_QUERY_LIMITS.percents, items: { type: 'number', minimum: 0, maximum: 100 } },
      keyed: { type: 'boolean', enum: [true] },
    },
  },
};
/** Aggregations by their own names (Elasticsearch forbids `[`, `]` and `>` in them). */
const namedAggregations = (ref: string) => ({
  type: 'object',
  propertyNames: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\[\\]>\\u0000]+$', 'x-errors': { pattern: 'NAME', minLength: 'NAME', maxLength: 'NAME' } },
  additionalProperties: { $ref: ref },
});

export const complexQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    query: { $ref: '#/$defs/clause' },
    aggs: namedAggregations('#/$defs/aggregation'),
    aggregations: namedAggregations('#/$defs/aggregation'),
    size: { type: 'integer', enum: [0] },
  },
  $defs: {
    clause: {
      type: 'object',
      additionalProperties: false,
      properties: {
        match_all: { type: 'object', additionalProperties: false, properties: {} },
        bool: {
          type: 'object', additionalProperties: false,
          properties: { must: clauses, filter: clauses, should: clauses, must_not: clauses, minimum_should_match: { type: 'integer', enum: [1] } },
        },
        term: { type: 'object', additionalProperties: false, properties: mapValues(TERM_FIELDS, termValue) },
        terms: {
          type: 'object', additionalProperties: false,
          properties: mapValues(TERM_FIELDS, (schema) => ({ type: 'array', minItems: 1, maxItems: COMPLEX_QUERY_LIMITS.terms, items: schema })),
        },
        range: { type: 'object', additionalProperties: false, properties: { ts: bounds(dateBound), value: bounds({ type: 'number' }) } },
        exists: { type: 'object', additionalProperties: false, required: ['field'], properties: { field: valueField } },
      },
    },
    aggregation: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...metricAggregations,
        date_histogram: {
          type: 'object', additionalProperties: false, required: ['field'],
          properties: {
            field: { type: 'string', enum: ['ts'] },
            calendar_interval: { type: 'string', enum: CALENDAR_INTERVALS },
            fixed_interval: { type: 'string', enum: FIXED_INTERVALS },
          },
        },
        aggs: namedAggregations('#/$defs/metricAggregation'),
        aggregations: namedAggregations('#/$defs/metricAggregation'),
      },
    },
    metricAggregation: { type: 'object', additionalProperties: false, properties: metricAggregations },
  },
} as const;

// ---- the shape the schema lets through ----------------------------------------------------------

type OneOrMany<T> = T | T[];
type TermValue<T> = T | { value: T };
export interface RangeBounds<T> { gte?: T; gt?: T; lte?: T; lt?: T }
export interface BoolQuery {
  must?: OneOrMany<Clause>;
  filter?: OneOrMany<Clause>;
  should?: OneOrMany<Clause>;
  must_not?: OneOrMany<Clause>;
  minimum_should_match?: 1;
}
export interface Clause {
  match_all?: Record<string, never>;
  bool?: BoolQuery;
  term?: { key?: TermValue<string>; entity_id?: TermValue<number>; entity_type_id?: TermValue<number> };
  terms?: { key?: string[]; entity_id?: number[]; entity_type_id?: number[] };
  range?: { ts?: RangeBounds<string>; value?: RangeBounds<number> };
  exists?: { field: 'value' };
}
export interface MetricBody { field: 'value'; percents?: number[]; keyed?: true }
export type MetricAggregation = Partial<Record<MetricKind, MetricBody>>;
export interface Aggregation extends MetricAggregation {
  date_histogram?: { field: 'ts'; calendar_interval?: (typeof CALENDAR_INTERVALS)[number]; fixed_interval?: (typeof FIXED_INTERVALS)[number] };
  aggs?: Record<string, MetricAggregation>;
  aggregations?: Record<string, MetricAggregation>;
}
export interface ComplexQuery {
  query?: Clause;
  aggs?: Record<string, Aggregation>;
  aggregations?: Record<string, Aggregation>;
  size?: 0;
}
