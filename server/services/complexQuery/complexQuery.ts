// A scheduler's complex query (aggregation `complex-query`, docs/api.md "Complex queries"): a
// JSON subset of Elasticsearch's query DSL over the tenant's telemetry, compiled to one
// parameterised statement (complexQueryCompile.ts → server/db/complexQueryQueries.ts) and run as
// the tenant under the usual statement time limit. The answer is Elasticsearch's aggregation
// value: a number, `{ "50.0": n, … }` for percentiles, `[{ key_as_string, key, value }]` for a
// date_histogram. Whatever the platform will not run or could not answer is ComplexQueryRefused.
import type { Database } from '../../db/database.ts';
import { isDataException, isStatementTimeout } from '../../db/databaseErrors.ts';
import { complexQuerySql, type BucketRow, type ComplexMetric, type MetricRow, type MetricValue } from '../../db/complexQueryQueries.ts';
import { compileComplexQuery, type ComplexQueryContext } from './complexQueryCompile.ts';
import { ComplexQueryRefused } from './complexQueryRefused.ts';
import { COMPLEX_QUERY_LIMITS } from './complexQuerySchema.ts';

export { ComplexQueryRefused } from './complexQueryRefused.ts';

export interface ComplexQueryRun extends ComplexQueryContext {
  /** The query's text, as the scheduler stores it (`definition.query`). */
  query: string;
}

export type MetricResult = number | null | Record<string, number | null>;
export interface BucketResult { key_as_string: string; key: number; value: MetricResult }
export type ComplexQueryResult = MetricResult | BucketResult[];

/** Elasticsearch's key of a percent: `50` → `"50.0"`, `99.9` → `"99.9"`. */
const percentKey = (percent: number) => (Number.isInteger(percent) ? percent.toFixed(1) : String(percent));

function metricResult(metric: ComplexMetric, value: MetricValue): MetricResult {
  if (metric.kind !== 'percentiles') return value as number | null;
  const values = Array.isArray(value) ? value : [];
  return Object.fromEntries(metric.percents.map((percent, index) => [percentKey(percent), values[index] ?? null]));
}

/** Runs the query of `run` for its tenant; ComplexQueryRefused when it may not run or the database refused it. */
export async function runComplexQuery(db: Database, run: ComplexQueryRun): Promise<ComplexQueryResult> {
  const spec = compileComplexQuery(run.query, run);
  let rows: (MetricRow | BucketRow)[];
  try {
    rows = await db.tenantQuery<MetricRow | BucketRow>(run.tenantId, complexQuerySql(spec));
  } catch (error) {
    if (isStatementTimeout(error)) throw new ComplexQueryRefused('the query took too long: the database stopped it at its time limit');
    if (isDataException(error)) throw new ComplexQueryRefused('the database could not compute the query: a value is out of its range (a sum too large, a time zone it does not know)');
    throw error;
  }
  const { aggregation } = spec;
  if (aggregation.kind !== 'date_histogram') return metricResult(aggregation, (rows[0] as MetricRow | undefined)?.value ?? null);
  if (rows.length > COMPLEX_QUERY_LIMITS.buckets) {
    throw new ComplexQueryRefused(`the date_histogram has more than ${COMPLEX_QUERY_LIMITS.buckets} buckets: choose a longer interval or a shorter time`);
  }
  return (rows as BucketRow[]).map(({ key, value }) => ({
    key_as_string: new Date(Number(key)).toISOString(), key: Number(key), value: metricResult(aggregation.metric, value),
  }));
}
