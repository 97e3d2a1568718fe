// The SQL of a scheduler's complex query (docs/api.md "Complex queries"): conditions on the raw
// telemetry points of the tenant and one aggregation of their numeric values, as a single
// statement run as the tenant (row-level security) that names the tenant as well. Every value is a
// parameter; columns, operators and functions come only from the fixed lists below.
import { sql, type SQL } from 'drizzle-orm';
import { zonedBucketStart, type ZonedBucket } from './kpiDataQueries.ts';
import { intArray, textArray } from './rows.ts';

export type ComparisonOp = '>=' | '>' | '<=' | '<';

/** Which points count: a tree of conditions over a point's key, entity, time and value. */
export type ComplexCondition =
  | { kind: 'all'; of: ComplexCondition[] }
  | { kind: 'any'; of: ComplexCondition[] }
  | { kind: 'not'; of: ComplexCondition }
  | { kind: 'keys'; keys: string[] }
  | { kind: 'entities'; ids: number[] }
  | { kind: 'entityTypes'; ids: number[] }
  /** `at`: milliseconds since the epoch. */
  | { kind: 'time'; op: ComparisonOp; at: number }
  | { kind: 'value'; op: ComparisonOp; value: number }
  /** The point has a numeric value (a number, or a boolean as 1/0). */
  | { kind: 'hasValue' };

export type ComplexMetric =
  | { kind: 'avg' | 'sum' | 'min' | 'max' | 'value_count' }
  /** `percents`: 0 to 100. */
  | { kind: 'percentiles'; percents: number[] };

/** A time bucket: of the tenant's calendar in its zone, or a fixed length counted from the Unix epoch. */
export type HistogramBucket = { zoned: ZonedBucket; zone: string } | { fixedMs: number };

export type ComplexAggregation = ComplexMetric | { kind: 'date_histogram'; bucket: HistogramBucket; metric: ComplexMetric; maxBuckets: number };

export interface ComplexQuerySpec {
  tenantId: string;
  where: ComplexCondition;
  aggregation: ComplexAggregation;
}

/** A metric's answer: a number (null over no value), or the percentiles' values in the order asked. */
export type MetricValue = number | null | (number | null)[];
export interface MetricRow { value: MetricValue }
/** A histogram's bucket: its start (ms) and the metric over it; only buckets holding a value. */
export interface BucketRow { key: number; value: MetricValue }

const OPERATORS: Record<ComparisonOp, SQL> = { '>=': sql.raw('>='), '>': sql.raw('>'), '<=': sql.raw('<='), '<': sql.raw('<') };

function conditionSql(condition: ComplexCondition, tenantId: string): SQL {
  switch (condition.kind) {
    case 'all':
      return condition.of.length ? sql`(${sql.join(condition.of.map((part) => conditionSql(part, tenantId)), sql` AND `)})` : sql`TRUE`;
    case 'any':
      return condition.of.length ? sql`(${sql.join(condition.of.map((part) => conditionSql(part, tenantId)), sql` OR `)})` : sql`FALSE`;
    case 'not':
      return sql`NOT (${conditionSql(condition.of, tenantId)})`;
    case 'keys':
      return sql`t.key = ANY(${textArray(condition.keys)})`;
    case 'entities':
      return sql`t.entity_id = ANY(${intArray(condition.ids)})`;
    case 'entityTypes':
      return sql`t.entity_id IN (SELECT e.id FROM entities e WHERE e.tenant_id = ${tenantId} AND e.entity_type_id = ANY(${intArray(condition.ids)}))`;
    case 'time':
      return sql`t.ts ${OPERATORS[condition.op]} ${new Date(condition.at).toISOString()}::timestamptz`;
    case 'value':
      // false, not NULL, for a point without a numeric value, so that `not` turns it true
      return sql`coalesce(t.value_num ${OPERATORS[condition.op]} ${condition.value}::float8, false)`;
    case 'hasValue':
      return sql`t.value_num IS NOT NULL`;
  }
}

/** Over no value: `sum` and `value_count` 0, the others null (as Elasticsearch answers). */
function metricSql(metric: ComplexMetric): SQL {
  switch (metric.kind) {
    case 'avg': return sql`avg(t.value_num)::float8`;
    case 'sum': return sql`coalesce(sum(t.value_num), 0)::float8`;
    case 'min': return sql`min(t.value_num)::float8`;
    case 'max': return sql`max(t.value_num)::float8`;
    case 'value_count': return sql`count(t.value_num)::float8`;
    case 'percentiles':
      // linear interpolation between the two nearest values
      return sql`percentile_cont(ARRAY[${sql.join(metric.percents.map((percent) => sql`${percent / 100}`), sql`, `)}]::float8[]) WITHIN GROUP (ORDER BY t.value_num)`;
  }
}

function bucketSql(bucket: HistogramBucket): SQL {
  if ('fixedMs' in bucket) return sql`date_bin(${`${bucket.fixedMs / 1000} seconds`}::interval, t.ts, timestamptz '1970-01-01 00:00:00+00')`;
  return zonedBucketStart(sql`t.ts`, bucket.zone, bucket.zoned);
}

/**
 * The statement: one row `{ value }` for a metric, rows `{ key, value }` in time order for a
 * histogram (at most `maxBuckets` + 1, so that the caller sees when there are too many).
 */
export function complexQuerySql({ tenantId, where, aggregation }: ComplexQuerySpec): SQL {
  const points = sql`FROM telemetry t WHERE t.tenant_id = ${tenantId} AND t.value_num IS NOT NULL AND ${conditionSql(where, tenantId)}`;
  // No JIT (PostgreSQL): a year of points is estimated big enough to compile for longer than it runs.
  if (aggregation.kind !== 'date_histogram') return sql`SET LOCAL jit = off; SELECT ${metricSql(aggregation)} AS value ${points}`;
  return sql`SET LOCAL jit = off;
    SELECT (extract(epoch FROM b.bucket) * 1000)::float8 AS key, b.value
    FROM (SELECT ${bucketSql(aggregation.bucket)} AS bucket, ${metricSql(aggregation.metric)} AS value ${points} GROUP BY 1) b
    ORDER BY b.bucket LIMIT ${aggregation.maxBuckets + 1}`;
}
