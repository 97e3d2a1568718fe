// The telemetry writer's batch (server/telemetry/telemetryWriter.ts) as one statement.
import { sql } from 'drizzle-orm';
import type { StoredValueColumns } from '../telemetry/telemetryPoint.ts';
import type { Database } from './database.ts';

/** A latest value the batch changed, with its entity's type. */
export type LatestRow = StoredValueColumns & { tenant_id: string; entity_id: number; entity_type_id: number; key: string; ms: number };

// One statement per batch: raw points (a duplicate of (entity, key, ts) is ignored), the numeric
// ones folded into the 15-minute roll-up, and those 15 minutes into the hourly and daily (UTC)
// roll-ups and the local days of the zones in TELEMETRY_DAY_ZONES (each 15 minutes lies within one
// hour, one UTC day and one local day of those zones: server/telemetry/dayZones.ts), so the points
// are sorted and grouped once rather than four times; and the latest value per key.
// It answers which points were stored and which latest values changed.
const batchStatement = (rows: string) => sql`
WITH input AS (
  SELECT * FROM json_to_recordset(${rows}::json) AS p(t uuid, e int, k text, ms float8, n float8, s text, b boolean, j jsonb)
), stored AS (
  INSERT INTO telemetry (tenant_id, entity_id, key, ts, value_num, value_text, value_bool, value_json)
  SELECT t, e, k, to_timestamp(ms / 1000.0), n, s, b, j FROM input
  ON CONFLICT DO NOTHING
  RETURNING tenant_id, entity_id, key, ts, value_num
), quarters AS (
  SELECT n.tenant_id, n.entity_id, n.key, date_bin('15 minutes', n.ts, timestamptz '2000-01-01 00:00:00+00') AS bucket, count(*) AS count,
    sum(n.value_num) AS sum, min(n.value_num) AS min, max(n.value_num) AS max, (array_agg(n.value_num ORDER BY n.ts DESC))[1] AS last_value, max(n.ts) AS last_ts
  FROM stored n WHERE n.value_num IS NOT NULL GROUP BY 1, 2, 3, 4
), quarter AS (
  INSERT INTO telemetry_quarter_hourly AS r (tenant_id, entity_id, key, bucket, count, sum, min, max, last_value, last_ts)
  SELECT * FROM quarters
  ON CONFLICT (entity_id, key, bucket) DO UPDATE SET ${ROLLUP_MERGE}
), buckets AS (
  SELECT DISTINCT bucket FROM quarters
), starts AS (
  SELECT b.bucket, date_trunc('hour', b.bucket, 'UTC') AS hour, date_trunc('day', b.bucket, 'UTC') AS day FROM buckets b
), local_days AS (
  SELECT b.bucket, z.zone, date_trunc('day', b.bucket, z.zone) AS day FROM buckets b CROSS JOIN telemetry_day_zones z
), hourly AS (${rollup('telemetry_hourly', sql`starts s`, sql`s.hour`)}
), daily AS (${rollup('telemetry_daily', sql`starts s`, sql`s.day`)}
), zoned AS (${rollup('telemetry_daily_zoned', sql`local_days s`, sql`s.day`, true)}
), latest AS (
  INSERT INTO telemetry_latest AS l (tenant_id, entity_id, key, ts, value_num, value_text, value_bool, value_json)
  SELECT DISTINCT ON (e, k) t, e, k, to_timestamp(ms / 1000.0), n, s, b, j FROM input ORDER BY e, k, ms DESC
  ON CONFLICT (entity_id, key) DO UPDATE SET ts = excluded.ts, value_num = excluded.value_num, value_text = excluded.value_text,
    value_bool = excluded.value_bool, value_json = excluded.value_json
  WHERE excluded.ts > l.ts
  RETURNING tenant_id, entity_id, key, ts, value_num, value_text, value_bool, value_json
)
SELECT (SELECT count(*) FROM stored)::int AS stored,
  (SELECT coalesce(json_agg(json_build_object('tenant_id', latest.tenant_id, 'entity_id', latest.entity_id, 'entity_type_id', entities.entity_type_id,
     'key', latest.key, 'ms', (extract(epoch FROM latest.ts) * 1000)::float8, 'value_num', latest.value_num, 'value_text', latest.value_text,
     'value_bool', latest.value_bool, 'value_json', latest.value_json)), '[]'::json)
   FROM latest JOIN entities ON entities.id = latest.entity_id) AS latest`;

/** Folds the new rows `r`/`excluded` of a roll-up into the stored ones (any order of arrival). */
const ROLLUP_MERGE = sql`count = r.count + excluded.count, sum = r.sum + excluded.sum,
    min = least(r.min, excluded.min), max = greatest(r.max, excluded.max),
    last_value = CASE WHEN excluded.last_ts >= r.last_ts THEN excluded.last_value ELSE r.last_value END,
    last_ts = greatest(r.last_ts, excluded.last_ts)`;

/**
 * Folds the batch's 15-minute groups `q` into a coarser roll-up: `starts` names each group's coarser
 * bucket `s.bucket → bucket` (worked out once per distinct 15 minutes, not per group: a zone's
 * local day costs a time-zone conversion); with `perZone`, one per zone listed in
 * `telemetry_day_zones` (`s.zone`; none listed: nothing).
 */
function rollup(table: string, starts: ReturnType<typeof sql>, bucket: ReturnType<typeof sql>, perZone = false) {
  const [column, zone] = perZone ? [sql`zone, `, sql`s.zone, `] : [sql``, sql``];
  return sql`
  INSERT INTO ${sql.identifier(table)} AS r (tenant_id, entity_id, key, ${column}bucket, count, sum, min, max, last_value, last_ts)
  SELECT q.tenant_id, q.entity_id, q.key, ${zone}${bucket}, sum(q.count), sum(q.sum), min(q.min), max(q.max),
    (array_agg(q.last_value ORDER BY q.last_ts DESC))[1], max(q.last_ts)
  FROM quarters q JOIN ${starts} ON s.bucket = q.bucket
  GROUP BY ${perZone ? sql`1, 2, 3, 4, 5` : sql`1, 2, 3, 4`}
  ON CONFLICT (entity_id, key, ${column}bucket) DO UPDATE SET ${ROLLUP_MERGE}`;
}

/** Writes a batch of point rows (JSON, telemetryPoint.ts's pointRow); answers how many were new and the latest values changed. */
export async function insertTelemetryBatch(db: Database, rows: string): Promise<{ stored: number; latest: LatestRow[] }> {
  const [result] = await db.systemQuery<{ stored: number; latest: LatestRow[] | string }>(batchStatement(rows));
  const latest = typeof result.latest === 'string' ? JSON.parse(result.latest) as LatestRow[] : result.latest;
  return { stored: Number(result.stored), latest };
}
