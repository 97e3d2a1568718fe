// The telemetry writer's batch (server/telemetry/telemetryWriter.ts) as one statement.
import { sql } from 'drizzle-orm';
import type { StoredValueColumns } from '../telemetry/telemetryPoint.ts';
import type { Database } from './database.ts';
import { FOLD_STATE_SHARED, foldedAlready, foldQuarters, quarterOf } from './rollupQueries.ts';

/** A latest value the batch changed, with its entity's type. */
export type LatestRow = StoredValueColumns & { tenant_id: string; entity_id: number; entity_type_id: number; key: string; ms: number };

// One statement per batch: raw points (a duplicate of (entity, key, ts) is ignored) and the latest
// value per key. The roll-ups take a point here only when it arrives behind the folder's line (a
// late point, a backfill, an import: server/db/rollupQueries.ts); the live ones are folded when
// their quarter hour has closed, many points a row at once. It answers how many points were
// stored and which latest values changed.
const batchStatement = (rows: string) => sql`
WITH input AS (
  SELECT * FROM json_to_recordset(${rows}::json) AS p(t uuid, e int, k text, ms float8, n float8, s text, b boolean, j jsonb)
), stored AS (
  INSERT INTO telemetry (tenant_id, entity_id, key, ts, value_num, value_text, value_bool, value_json)
  SELECT t, e, k, to_timestamp(ms / 1000.0), n, s, b, j FROM input
  ON CONFLICT DO NOTHING
  RETURNING tenant_id, entity_id, key, ts, value_num
), ${FOLD_STATE_SHARED}, quarters AS (
  SELECT n.tenant_id, n.entity_id, n.key, ${quarterOf(sql`n.ts`)} AS bucket, count(*) AS count,
    sum(n.value_num) AS sum, min(n.value_num) AS min, max(n.value_num) AS max, (array_agg(n.value_num ORDER BY n.ts DESC))[1] AS last_value, max(n.ts) AS last_ts
  FROM stored n CROSS JOIN fold_state f WHERE n.value_num IS NOT NULL AND ${foldedAlready(sql`n`)} GROUP BY 1, 2, 3, 4
), ${foldQuarters}, latest AS (
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

/** Writes a batch of point rows (JSON, telemetryPoint.ts's pointRow); answers how many were new and the latest values changed. */
export async function insertTelemetryBatch(db: Database, rows: string): Promise<{ stored: number; latest: LatestRow[] }> {
  const [result] = await db.systemQuery<{ stored: number; latest: LatestRow[] | string }>(batchStatement(rows));
  const latest = typeof result.latest === 'string' ? JSON.parse(result.latest) as LatestRow[] : result.latest;
  return { stored: Number(result.stored), latest };
}
