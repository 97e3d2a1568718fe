// The reads behind GET /kpi-data (docs/api.md "KPI data"): the entities of each KPI query item,
// and the time series of the items, bucketed in a time zone and aggregated in one statement.
// Both run as the tenant (row-level security) and name the tenant as well.
import { sql, type SQL } from 'drizzle-orm';
import type { KPI_AGGREGATIONS } from '../../src/schemas/enums.ts';
import type { KpiInterval, SourceSpans } from '../time/kpiTime.ts';
import { calendarUnit, readingOf, subDayStep } from '../time/kpiTime.ts';
import { coveredByMaintenance } from './maintenanceQueries.ts';
import { intArray } from './rows.ts';

export interface ItemEntities {
  /** The item's own entity ids; when empty, every entity of `entityTypeIds`; with neither, every entity that reports `key`. */
  entityIds: number[];
  entityTypeIds: number[];
  key: string;
}

/** An item's entities: its own, else every entity of its types, else every entity that reports its key. */
const itemCondition = (item: ItemEntities) => {
  if (item.entityIds.length) return sql`e.id = ANY(${intArray(item.entityIds)})`;
  if (item.entityTypeIds.length) return sql`e.entity_type_id = ANY(${intArray(item.entityTypeIds)})`;
  return sql`e.id IN (SELECT l.entity_id FROM telemetry_latest l WHERE l.key = ${item.key})`;
};

/**
 * Per query item (by position), the ids of its entities in the tenant (those under device
 * maintenance left out), narrowed to `only` when given, ascending, at most `limit` + 1 (so that the
 * caller sees when there are too many). One select per item, each with its own condition: the
 * planner then reads a rare type through its index instead of walking a million entities in id
 * order (seconds), and a common one in id order until it has enough.
 */
export function itemEntitiesQuery(tenantId: string, items: ItemEntities[], only: number[] | undefined, limit: number): SQL {
  return sql.join(items.map((item, index) => sql`SELECT ${index}::int AS item, ARRAY(
      SELECT e.id FROM entities e
      WHERE e.tenant_id = ${tenantId} AND ${itemCondition(item)}
        ${only ? sql`AND e.id = ANY(${intArray(only)})` : sql``}
        AND NOT ${coveredByMaintenance('device-maintenance', sql`e`)}
      ORDER BY e.id LIMIT ${limit + 1}) AS ids`), sql` UNION ALL `);
}
export interface ItemEntitiesRow { item: number; ids: number[] }

export type KpiAggregation = (typeof KPI_AGGREGATIONS)[number];

export interface SeriesItem {
  /** Position of the item in the KPI's query (echoed in the rows). */
  item: number;
  key: string;
  aggregation: KpiAggregation;
  entityIds: number[];
}

export interface SeriesQuery {
  tenantId: string;
  /** Where the rows come from (server/time/kpiTime.ts `sourcePlan`): disjoint spans. */
  plan: SourceSpans[];
  /** A time zone name PostgreSQL knows (checked by the caller). */
  zone: string;
  interval: KpiInterval;
  /** One series per entity instead of one over all of them. */
  perEntity: boolean;
  items: SeriesItem[];
}

/** One series: `data` is the JSON text of `[[bucket start ms, value], …]` in time order. */
export interface SeriesRow { item: number; entity_id: number | null; data: string }

const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const instants = (values: number[]) => sql`ARRAY[${sql.join(values.map((ms) => sql`${new Date(ms).toISOString()}`), sql`, `)}]::timestamptz[]`;

/** Whose rows a plan reads: the tenant's entities' values of one key (local days: of `zone`). */
export interface RowScope { tenantId: string; zone: string; key: string; entityIds: number[] }

/**
 * The rows of one key in the roll-up shape (count, sum, min, max, last value and its time): a
 * roll-up table as it is, raw points as rows of one value each, so that both aggregate alike.
 * The level's spans are read as `readingOf` chose (server/time/kpiTime.ts).
 */
function sourceRows(of: RowScope, level: SourceSpans): SQL {
  const raw = level.source === 'telemetry';
  const column = raw ? sql`r.ts` : sql`r.bucket`;
  const zoned = level.source === 'telemetry_daily_zoned' ? sql` AND r.zone = ${of.zone}` : sql``;
  const scope = sql`r.tenant_id = ${of.tenantId} AND r.entity_id = ANY(${intArray(of.entityIds)}) AND r.key = ${of.key}${zoned}${raw ? sql` AND r.value_num IS NOT NULL` : sql``}`;
  const starts = instants(level.spans.map(([a]) => a));
  const ends = instants(level.spans.map(([, b]) => b));
  const first = level.spans[0][0];
  const last = level.spans[level.spans.length - 1][1];
  const within = sql`${column} >= ${instant(first)} AND ${column} < ${instant(last)}`;
  const table = sql`${sql.identifier(level.source)} r`;
  const rows = {
    range: sql`${table} WHERE ${scope} AND ${within}`,
    // width_bucket: the span whose start is the last at or before the row (0 before the first: NULL end)
    filter: sql`${table} WHERE ${scope} AND ${within} AND ${column} < (${ends})[width_bucket(${column}, ${starts})]`,
    // OFFSET 0 keeps the planner from turning the search per span back into a join with every row
    search: sql`unnest(${starts}, ${ends}) AS span(a, b)
      CROSS JOIN LATERAL (SELECT * FROM ${table} WHERE ${scope} AND ${column} >= span.a AND ${column} < span.b OFFSET 0) r`,
  }[readingOf(level).reading];
  if (raw) {
    return sql`SELECT r.entity_id, r.ts AS t, 1::bigint AS count, r.value_num AS sum, r.value_num AS min, r.value_num AS max,
        r.value_num AS last_value, r.ts AS last_ts FROM ${rows}`;
  }
  return sql`SELECT r.entity_id, r.bucket AS t, r.count, r.sum, r.min, r.max, r.last_value, r.last_ts FROM ${rows}`;
}

/** Every level of the plan, one after the other: rows `entity_id, t, count, sum, min, max, last_value, last_ts`. */
export const planSourceRows = (of: RowScope, plan: SourceSpans[]) => sql.join(plan.map((level) => sourceRows(of, level)), sql` UNION ALL `);
const planRows = (query: SeriesQuery, item: SeriesItem) => planSourceRows({ tenantId: query.tenantId, zone: query.zone, key: item.key, entityIds: item.entityIds }, query.plan);

/** A bucket of local time: a step shorter than a day (ms), or a calendar unit. */
export type ZonedBucket = { stepMs: number } | { unit: 'day' | 'week' | 'month' | 'year' };

/**
 * The start of the bucket holding the instant `t` in the zone (server/time/kpiTime.ts mirrors
 * it): a sub-day step floors the local wall time and keeps the point's own offset (the hour
 * repeated when summer time ends is two buckets); a calendar unit starts at local midnight.
 */
export function zonedBucketStart(t: SQL, zone: string, bucket: ZonedBucket): SQL {
  const zoneText = sql`${zone}::text`;
  if ('unit' in bucket) return sql`date_trunc(${bucket.unit}, ${t}, ${zoneText})`;
  const local = sql`(${t} AT TIME ZONE ${zoneText})`;
  return sql`${t} - (${local} - date_bin(${`${bucket.stepMs / 1000} seconds`}::interval, ${local}, timestamp '2000-01-01 00:00:00'))`;
}

/** The bucket start of the row time `s.t` in the KPI's zone. */
function bucketOf(query: SeriesQuery): SQL {
  const step = subDayStep(query.interval);
  return zonedBucketStart(sql`s.t`, query.zone, step ? { stepMs: step } : { unit: calendarUnit(query.interval)! });
}

/**
 * The latest value of rows `r` as the greatest [time (epoch seconds), entity id, value]: between
 * entities with values at the same instant, the higher id wins. One comparison per row, where
 * ordering each group's rows cost twice as much.
 */
const latestOf = (r: SQL) => sql`max(ARRAY[date_part('epoch', ${r}.last_ts), ${r}.entity_id, ${r}.last_value])`;

/** The aggregation over roll-up shaped rows `s` (`folded`: with `latest` instead of the last columns); exact for any grouping of the rows. */
function aggregate(aggregation: KpiAggregation, folded: boolean): SQL {
  switch (aggregation) {
    case 'avg': return sql`sum(s.sum) / sum(s.count)::float8`;
    case 'max': return sql`max(s.max)`;
    case 'min': return sql`min(s.min)`;
    case 'sum': return sql`sum(s.sum)`;
    case 'value_count': return sql`sum(s.count)::float8`;
    case 'latest-value': return folded ? sql`(max(s.latest))[3]` : sql`(${latestOf(sql`s`)})[3]`;
  }
}

type Column = 'sum' | 'count' | 'min' | 'max' | 'latest';
/** The row columns each aggregation reads. */
const COLUMNS: Record<KpiAggregation, Column[]> = {
  avg: ['sum', 'count'], max: ['max'], min: ['min'], sum: ['sum'], value_count: ['count'], 'latest-value': ['latest'],
};
/** Rows `r` of one row time folded into one row of the same shape, column by column. */
const FOLDS: Record<Column, SQL> = {
  sum: sql`sum(r.sum) AS sum`,
  count: sql`sum(r.count) AS count`,
  min: sql`min(r.min) AS min`,
  max: sql`max(r.max) AS max`,
  latest: sql`${latestOf(sql`r`)} AS latest`,
};

/**
 * Every item's series in one statement, ordered by item and entity. Items of the same key and
 * entities (min, avg and max of one signal) share one reading of the rows. Over all entities, the
 * rows of each row time (an hour of the hourly roll-up, …) are folded first, so the time zone's
 * bucket is computed once per row time rather than once per entity and row time (half the time
 * of a year of hourly rows in Europe/Bratislava).
 */
export function kpiSeriesQuery(query: SeriesQuery): SQL | undefined {
  const items = query.items.filter((item) => item.entityIds.length > 0);
  if (!items.length || !query.plan.length) return undefined;
  const signals = new Map<string, { first: SeriesItem; aggregations: KpiAggregation[] }>();
  const signalOf = (item: SeriesItem) => JSON.stringify([item.key, item.entityIds]);
  for (const item of items) {
    const signal = signals.get(signalOf(item)) ?? { first: item, aggregations: [] };
    if (!signal.aggregations.includes(item.aggregation)) signal.aggregations.push(item.aggregation);
    signals.set(signalOf(item), signal);
  }
  const names = [...signals.keys()];
  const tables = [...signals.values()].map(({ first, aggregations }, index) => {
    const columns = [...new Set(aggregations.flatMap((aggregation) => COLUMNS[aggregation]))];
    const rows = query.perEntity
      ? planRows(query, first)
      : sql`SELECT r.t, ${sql.join(columns.map((column) => FOLDS[column]), sql`, `)} FROM (${planRows(query, first)}) r GROUP BY r.t`;
    const values = aggregations.map((aggregation, column) => sql`${aggregate(aggregation, !query.perEntity)} AS ${sql.identifier(`v${column}`)}`);
    return sql`${sql.identifier(`signal${index}`)} AS (
      SELECT ${query.perEntity ? sql`s.entity_id` : sql`NULL::int`} AS entity_id, ${bucketOf(query)} AS bucket, ${sql.join(values, sql`, `)}
      FROM (${rows}) s
      GROUP BY 1, 2)`;
  });
  const parts = items.map((item) => {
    const index = names.indexOf(signalOf(item));
    const value = sql.identifier(`v${signals.get(signalOf(item))!.aggregations.indexOf(item.aggregation)}`);
    return sql`
      SELECT ${item.item}::int AS item, b.entity_id,
        json_agg(json_build_array((extract(epoch FROM b.bucket) * 1000)::bigint, b.${value}) ORDER BY b.bucket)::text AS data
      FROM ${sql.identifier(`signal${index}`)} b
      GROUP BY b.entity_id`;
  });
  // No JIT (PostgreSQL): the planner guesses millions of rows for a list of spans and spent
  // ~570 ms compiling a query that runs in 30.
  return sql`SET LOCAL jit = off;
    WITH ${sql.join(tables, sql`, `)}
    SELECT * FROM (${sql.join(parts, sql` UNION ALL `)}) series ORDER BY item, entity_id`;
}

/** Whether PostgreSQL knows a time zone name (asked once per name and database by the caller). */
export const timeZoneCheckQuery = (zone: string) => sql`SELECT now() AT TIME ZONE ${zone}::text AS at`;
