// The roll-ups (15-minute, hourly, UTC daily and the local days of TELEMETRY_DAY_ZONES) and how
// far they hold the raw points (`telemetry_fold_state`, server/engines/rollups/rollupFolder.ts).
//
// What holds at every commit: each 15-minute row is the aggregate of its raw points, for every
// quarter hour before `folded_until` and, of the quarter hour starting there, for the entities up
// to `entity_done`; each hourly, daily and local-day row is the aggregate of the 15-minute rows of
// its period. A reader takes a row of a period that ended by `folded_until` and the raw points from
// there on (server/time/kpiTime.ts `foldedPlan`).
//
// The writer and the folder agree on the line through the state row: a batch reads it FOR SHARE,
// a fold takes it FOR UPDATE first, so on PostgreSQL a batch committing during a fold is either
// seen by the fold or folds its own points on the fold's side of the line.
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Tx } from './database.ts';
import { rows } from './rows.ts';

/** The start of the 15-minute bucket holding `ts` (the same origin as every roll-up). */
export const quarterOf = (ts: SQL) => sql`date_bin('15 minutes', ${ts}, timestamptz '2000-01-01 00:00:00+00')`;

/** Folds the new rows `r`/`excluded` of a roll-up into the stored ones (any order of arrival). */
const ROLLUP_MERGE = sql`count = r.count + excluded.count, sum = r.sum + excluded.sum,
    min = least(r.min, excluded.min), max = greatest(r.max, excluded.max),
    last_value = CASE WHEN excluded.last_ts >= r.last_ts THEN excluded.last_value ELSE r.last_value END,
    last_ts = greatest(r.last_ts, excluded.last_ts)`;

/**
 * Folds 15-minute groups into every roll-up, as CTEs to follow one named `quarters` (tenant_id,
 * entity_id, key, bucket, count, sum, min, max, last_value, last_ts): the 15-minute rows, and those
 * 15 minutes into the hourly and daily (UTC) rows and the local days of the zones listed in
 * `telemetry_day_zones` (each 15 minutes lies within one hour, one UTC day and one local day of
 * those zones: server/telemetry/dayZones.ts). Each coarser bucket is worked out once per distinct
 * 15 minutes, not per group: a zone's local day costs a time-zone conversion.
 */
export const foldQuarters = sql`
  quarter AS (
  INSERT INTO telemetry_quarter_hourly AS r (tenant_id, entity_id, key, bucket, count, sum, min, max, last_value, last_ts)
  SELECT * FROM quarters
  ON CONFLICT (entity_id, key, bucket) DO UPDATE SET ${ROLLUP_MERGE}
), buckets AS (
  SELECT DISTINCT bucket FROM quarters
), starts AS (
  SELECT b.bucket, date_trunc('hour', b.bucket, 'UTC') AS hour, date_trunc('day', b.bucket, 'UTC') AS day FROM buckets b
), local_days AS (
  SELECT b.bucket, z.zone, date_trunc('day', b.bucket, z.zone) AS day FROM buckets b CROSS JOIN telemetry_day_zones z
), hourly AS (${coarser('telemetry_hourly', sql`starts s`, sql`s.hour`)}
), daily AS (${coarser('telemetry_daily', sql`starts s`, sql`s.day`)}
), zoned AS (${coarser('telemetry_daily_zoned', sql`local_days s`, sql`s.day`, true)}
)`;

/**
 * Folds `quarters` into a coarser roll-up: `starts` names each group's coarser bucket
 * `s.bucket → bucket`; with `perZone`, one per zone listed in `telemetry_day_zones` (`s.zone`).
 */
function coarser(table: string, starts: SQL, bucket: SQL, perZone = false) {
  const [column, zone] = perZone ? [sql`zone, `, sql`s.zone, `] : [sql``, sql``];
  return sql`
  INSERT INTO ${sql.identifier(table)} AS r (tenant_id, entity_id, key, ${column}bucket, count, sum, min, max, last_value, last_ts)
  SELECT q.tenant_id, q.entity_id, q.key, ${zone}${bucket}, sum(q.count), sum(q.sum), min(q.min), max(q.max),
    (array_agg(q.last_value ORDER BY q.last_ts DESC))[1], max(q.last_ts)
  FROM quarters q JOIN ${starts} ON s.bucket = q.bucket
  GROUP BY ${perZone ? sql`1, 2, 3, 4, 5` : sql`1, 2, 3, 4`}
  ON CONFLICT (entity_id, key, ${column}bucket) DO UPDATE SET ${ROLLUP_MERGE}`;
}

/** The batch's side of the line (`state` CTE, locked FOR SHARE): whether a stored point `n` is folded at once. */
export const FOLD_STATE_SHARED = sql`fold_state AS (SELECT folded_until, entity_done FROM telemetry_fold_state FOR SHARE)`;
export const foldedAlready = (n: SQL) => sql`(${n}.ts < f.folded_until OR (${n}.ts < f.folded_until + interval '15 minutes' AND ${n}.entity_id <= f.entity_done))`;

export interface FoldState { foldedUntil: number; entityDone: number }

/** How far the roll-ups hold the raw points (ms). */
export async function foldedUntil(db: Database): Promise<number> {
  const [row] = await db.systemQuery<{ ms: number }>(sql`SELECT (extract(epoch FROM folded_until) * 1000)::float8 AS ms FROM telemetry_fold_state`);
  return row ? Number(row.ms) : Number.NEGATIVE_INFINITY;
}

/** The state, locked until the transaction ends (batches wait meanwhile). */
async function lockState(tx: Tx): Promise<FoldState> {
  const [row] = await rows<{ ms: number; entity_done: number }>(tx, sql`
    SELECT (extract(epoch FROM folded_until) * 1000)::float8 AS ms, entity_done FROM telemetry_fold_state FOR UPDATE`);
  return { foldedUntil: Number(row.ms), entityDone: Number(row.entity_done) };
}

const QUARTER_MS = 15 * 60_000;
const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

export type FoldStep =
  /** The next quarter hour has not closed by `closedBefore`. */
  | { kind: 'idle'; state: FoldState }
  /** Folded the entities in (from, to] (to: null, the rest) of the quarter hour at `quarter`; `pairs` device × key groups. */
  | { kind: 'folded'; quarter: number; pairs: number; done: boolean; state: FoldState };

/**
 * Folds the next part of the first quarter hour not yet folded, if it started before
 * `closedBefore` - 15 minutes: the raw points of about `pairs` device × key pairs (those of
 * `telemetry_latest`: every stored key has its latest value there), or, when the quarter hour has no
 * raw point at all, the whole of it at once. One transaction: the rows and the line move together.
 */
export async function foldNext(db: Database, closedBefore: number, pairs: number): Promise<FoldStep> {
  return db.systemTx(async (tx) => {
    const state = await lockState(tx);
    const quarter = state.foldedUntil;
    if (quarter + QUARTER_MS > closedBefore) return { kind: 'idle', state };
    const next = { foldedUntil: quarter + QUARTER_MS, entityDone: 0 };
    const [{ any }] = await rows<{ any: boolean }>(tx, sql`
      SELECT EXISTS (SELECT 1 FROM telemetry WHERE ts >= ${instant(quarter)} AND ts < ${instant(quarter + QUARTER_MS)}) AS any`);
    let folded = 0;
    let last: number | null = null;
    if (any) {
      const [boundary] = await rows<{ entity_id: number }>(tx, sql`
        SELECT entity_id FROM telemetry_latest WHERE entity_id > ${state.entityDone} ORDER BY entity_id, key OFFSET ${pairs} LIMIT 1`);
      last = boundary ? Number(boundary.entity_id) : null;
      const [{ count }] = await rows<{ count: number }>(tx, sql`
        WITH quarters AS (
          SELECT l.tenant_id, l.entity_id, l.key, ${instant(quarter)} AS bucket, a.count, a.sum, a.min, a.max, a.last_value, a.last_ts
          FROM telemetry_latest l CROSS JOIN LATERAL (
            SELECT count(*) AS count, sum(t.value_num) AS sum, min(t.value_num) AS min, max(t.value_num) AS max,
              (array_agg(t.value_num ORDER BY t.ts DESC))[1] AS last_value, max(t.ts) AS last_ts
            FROM telemetry t
            WHERE t.entity_id = l.entity_id AND t.key = l.key AND t.ts >= ${instant(quarter)} AND t.ts < ${instant(quarter + QUARTER_MS)}
              AND t.value_num IS NOT NULL
          ) a
          WHERE l.entity_id > ${state.entityDone} ${last === null ? sql`` : sql`AND l.entity_id <= ${last}`} AND a.count > 0
        ), ${foldQuarters}
        SELECT count(*)::int AS count FROM quarters`);
      folded = Number(count);
      if (last !== null) {
        next.foldedUntil = quarter;
        next.entityDone = last;
      }
    }
    await tx.execute(sql`UPDATE telemetry_fold_state SET folded_until = ${instant(next.foldedUntil)}, entity_done = ${next.entityDone}`);
    return { kind: 'folded', quarter, pairs: folded, done: last === null, state: next };
  });
}
