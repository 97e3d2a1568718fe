// The reads behind GET /kpi-data (docs/api.md "KPI data"): the entities of each KPI query item,
// and the time series of the items, bucketed in a time zone and aggregated in one statement.
// Both run as the tenant (row-level security) and name the tenant as well.
import { sql, type SQL } from 'drizzle-orm';
import type { KPI_AGGREGATIONS } from '../../src/schemas/enums.ts';
import type { KpiInterval, TelemetrySource } from '../telemetry/kpiTime.ts';
import { calendarUnit, subDayStep } from '../telemetry/kpiTime.ts';
import { intList } from './rows.ts';

const intArray = (values: number[]) => sql`ARRAY[${intList(values.map(checkedInt))}]::int[]`;

function checkedInt(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error('Not an integer id');
  return value;
}

export interface ItemEntities {
  /** The item's own entity ids; when empty, every entity of `entityTypeIds`. */
  entityIds: number[];
  entityTypeIds: number[];
}

/**
 * Per query item (by position), the ids of its entities in the tenant, narrowed to `only` when
 * given, ascending, at most `limit` + 1 (so that the caller sees when there are too many).
 */
export function itemEntitiesQuery(tenantId: string, items: ItemEntities[], only: number[] | undefined, limit: number): SQL {
  const rows = items.map((item, index) => sql`(${index}, ${intArray(item.entityIds)}, ${intArray(item.entityTypeIds)})`);
  return sql`
    SELECT i.item, ARRAY(
      SELECT e.id FROM entities e
      WHERE e.tenant_id = ${tenantId}
        AND (e.id = ANY(i.ids) OR (cardinality(i.ids) = 0 AND e.entity_type_id = ANY(i.types)))
        ${only ? sql`AND e.id = ANY(${intArray(only)})` : sql``}
      ORDER BY e.id LIMIT ${limit + 1}) AS ids
    FROM (VALUES ${sql.join(rows, sql`, `)}) AS i(item, ids, types)
    ORDER BY i.item`;
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
  source: TelemetrySource;
  /** A time zone name PostgreSQL knows (checked by the caller). */
  zone: string;
  interval: KpiInterval;
  from: Date;
  to: Date;
  /** One series per entity instead of one over all of them. */
  perEntity: boolean;
  items: SeriesItem[];
}

/** One series: `data` is the JSON text of `[[bucket start ms, value], …]` in time order. */
export interface SeriesRow { item: number; entity_id: number | null; data: string }

/**
 * The rows of one item in the roll-up shape (count, sum, min, max, last value and its time): a
 * roll-up table as it is, raw points as rows of one value each, so that both aggregate alike.
 */
function sourceRows(query: SeriesQuery, item: SeriesItem): SQL {
  const range = (column: SQL) => sql`${column} >= ${query.from.toISOString()}::timestamptz AND ${column} < ${query.to.toISOString()}::timestamptz`;
  const scope = sql`tenant_id = ${query.tenantId} AND entity_id = ANY(${intArray(item.entityIds)}) AND key = ${item.key}`;
  if (query.source === 'telemetry') {
    return sql`SELECT entity_id, ts AS t, 1::bigint AS count, value_num AS sum, value_num AS min, value_num AS max,
        value_num AS last_value, ts AS last_ts
      FROM telemetry WHERE ${scope} AND ${range(sql`ts`)} AND value_num IS NOT NULL`;
  }
  return sql`SELECT entity_id, bucket AS t, count, sum, min, max, last_value, last_ts
    FROM ${sql.identifier(query.source)} WHERE ${scope} AND ${range(sql`bucket`)}`;
}

/** The bucket start of the row time `t` in the zone (server/telemetry/kpiTime.ts mirrors it). */
function bucketOf(query: SeriesQuery): SQL {
  const zone = sql`${query.zone}::text`;
  const step = subDayStep(query.interval);
  if (step) {
    const local = sql`(s.t AT TIME ZONE ${zone})`;
    return sql`s.t - (${local} - date_bin(${`${step / 1000} seconds`}::interval, ${local}, timestamp '2000-01-01 00:00:00'))`;
  }
  return sql`date_trunc(${calendarUnit(query.interval)!}, s.t, ${zone})`;
}

/** The aggregation over roll-up shaped rows `s`: exact for any grouping of the rows. */
function aggregate(aggregation: KpiAggregation): SQL {
  switch (aggregation) {
    case 'avg': return sql`sum(s.sum) / sum(s.count)::float8`;
    case 'max': return sql`max(s.max)`;
    case 'min': return sql`min(s.min)`;
    case 'sum': return sql`sum(s.sum)`;
    case 'value_count': return sql`sum(s.count)::float8`;
    // the value of the latest point; between entities with points at the same instant, the higher id
    case 'latest-value': return sql`(array_agg(s.last_value ORDER BY s.last_ts DESC, s.entity_id DESC))[1]`;
  }
}

/** Rows `r` of one row time folded into one row of the same shape (what `aggregate` needs of it). */
function fold(aggregation: KpiAggregation): SQL {
  switch (aggregation) {
    case 'avg': return sql`sum(r.sum) AS sum, sum(r.count) AS count`;
    case 'max': return sql`max(r.max) AS max`;
    case 'min': return sql`min(r.min) AS min`;
    case 'sum': return sql`sum(r.sum) AS sum`;
    case 'value_count': return sql`sum(r.count) AS count`;
    case 'latest-value': return sql`(array_agg(r.last_value ORDER BY r.last_ts DESC, r.entity_id DESC))[1] AS last_value,
      max(r.last_ts) AS last_ts, (array_agg(r.entity_id ORDER BY r.last_ts DESC, r.entity_id DESC))[1] AS entity_id`;
  }
}

/**
 * Every item's series in one statement, ordered by item and entity. Over all entities, the rows
 * of each row time (an hour of the hourly roll-up, …) are folded first, so the time zone's bucket
 * is computed once per row time rather than once per entity and row time (half the time of a
 * year of hourly rows in Europe/Bratislava).
 */
export function kpiSeriesQuery(query: SeriesQuery): SQL | undefined {
  const items = query.items.filter((item) => item.entityIds.length > 0);
  if (!items.length) return undefined;
  const parts = items.map((item) => {
    const rows = query.perEntity
      ? sourceRows(query, item)
      : sql`SELECT r.t, ${fold(item.aggregation)} FROM (${sourceRows(query, item)}) r GROUP BY r.t`;
    return sql`
      SELECT ${item.item}::int AS item, b.entity_id,
        json_agg(json_build_array((extract(epoch FROM b.bucket) * 1000)::bigint, b.value) ORDER BY b.bucket)::text AS data
      FROM (
        SELECT ${query.perEntity ? sql`s.entity_id` : sql`NULL::int`} AS entity_id, ${bucketOf(query)} AS bucket, ${aggregate(item.aggregation)} AS value
        FROM (${rows}) s
        GROUP BY 1, 2
      ) b
      GROUP BY b.entity_id`;
  });
  return sql`SELECT * FROM (${sql.join(parts, sql` UNION ALL `)}) series ORDER BY item, entity_id`;
}

/** Whether PostgreSQL knows a time zone name (asked once per name and database by the caller). */
export const timeZoneCheckQuery = (zone: string) => sql`SELECT now() AT TIME ZONE ${zone}::text AS at`;
