// The watcher engine's statements (server/engines/watchers): claiming due watchers across tenants
// (SKIP LOCKED, so instances share them), the entities a watcher watches, many watches' values and
// states read at once, the watches' states (changed only by the instance whose update still finds the state it read), the
// watcher's own summary (a transition's log row: logQueries.ts).
import { coveredByMaintenance } from './maintenanceQueries.ts';
import { sql } from 'drizzle-orm';
import type { LocalizedValue } from '../../src/shared/i18n/pickLocalized.ts';
import type { Watcher } from '../../src/schemas/watcher.ts';
import type { Database, Tx } from './database.ts';
import { inIdWindows, inWindow } from './idWindows.ts';
import { intArray, rows, textArray } from './rows.ts';

export interface WatcherRow {
  id: number;
  tenant_id: string;
  name: string;
  query: Watcher['query'];
  condition: Watcher['condition'];
  definition: Watcher['definition'] | null;
  entity_ids: number[] | null;
  entity_type_ids: number[] | null;
  interval: number;
  for_seconds: number;
}

const WATCHER_COLUMNS = sql`w.id, w.tenant_id, w.name, w.query, w.condition, w.definition, w.entity_ids, w.entity_type_ids, w.interval, w.for_seconds`;

/**
 * Claims the active watchers whose evaluation is due, across tenants, at most `perTenant` of one
 * tenant and `limit` in all, and moves each one's next evaluation an interval on. Another instance
 * skips the claimed rows.
 */
export function claimDueWatchers(db: Database, limit: number, perTenant: number): Promise<WatcherRow[]> {
  return db.systemQuery<WatcherRow>(sql`WITH due AS (
      SELECT id, row_number() OVER (PARTITION BY tenant_id ORDER BY next_evaluation_at) AS rank
      FROM watchers WHERE status = 'active' AND next_evaluation_at <= now()
    ), picked AS (
      SELECT w.id FROM watchers w JOIN due ON due.id = w.id WHERE due.rank <= ${perTenant}
      ORDER BY w.next_evaluation_at LIMIT ${limit} FOR UPDATE OF w SKIP LOCKED
    )
    UPDATE watchers w SET next_evaluation_at = now() + make_interval(secs => w.interval)
    FROM picked WHERE w.id = picked.id
    RETURNING ${WATCHER_COLUMNS}`);
}

/** The tenant's active watchers on any of `keys` (a device's new values). */
export function watchersOnKeys(tx: Tx, tenantId: string, keys: string[]): Promise<WatcherRow[]> {
  return rows<WatcherRow>(tx, sql`SELECT ${WATCHER_COLUMNS} FROM watchers w
    WHERE w.tenant_id = ${tenantId} AND w.status = 'active' AND w.query->>'key' = ANY(${textArray(keys)})`);
}

/** Brings the next evaluation of watchers forward to `ms` from now (their evaluation failed after their claim). */
export async function dueAgainIn(db: Database, watcherIds: number[], ms: number): Promise<void> {
  await db.systemQuery(sql`UPDATE watchers SET next_evaluation_at = least(next_evaluation_at, now() + make_interval(secs => ${ms / 1000}))
    WHERE id = ANY(${intArray(watcherIds)})`);
}

/** Brings a watcher's next evaluation forward to `at` (a pending watch whose time will be up). */
export async function evaluateWatcherBy(tx: Tx, watcherId: number, at: string): Promise<void> {
  await tx.execute(sql`UPDATE watchers SET next_evaluation_at = least(next_evaluation_at, ${at}::timestamptz) WHERE id = ${watcherId}`);
}

/** An entity a watcher watches, with its multilingual name. */
export interface WatchedEntity { id: number; name: LocalizedValue }

/**
 * The entities a watcher watches (its entity ids, else every entity of its entity types, else
 * every entity) that have its key, reported or as an attribute: one that has neither has no value
 * to judge and none that can stop, so a periodic pass leaves it out (a type of a million lamps
 * that never sent the key costs a few statements, not five hundred transactions). Read before the
 * pass's transactions, a window of ids per statement (awaiting `between` before each): at a million
 * one statement took 1.8 s, and the page reads on the embedded database waited for it.
 */
export async function watchedEntityIds(db: Database, watcher: WatcherRow, between?: () => Promise<void>): Promise<number[]> {
  const ids = watcher.entity_ids ?? [];
  const types = watcher.entity_type_ids ?? [];
  const found: number[] = [];
  await inIdWindows<{ ids: number[] }>(db, watcher.tenant_id, (window) => sql`SELECT ARRAY(SELECT e.id FROM entities e
    WHERE ${inWindow(window)} AND e.tenant_id = ${watcher.tenant_id}${ids.length || types.length ? sql` AND (e.id = ANY(${intArray(ids)}) OR e.entity_type_id = ANY(${intArray(types)}))` : sql``}
      AND (EXISTS (SELECT 1 FROM telemetry_latest l WHERE l.entity_id = e.id AND l.key = ${watcher.query.key}) OR e.attributes ? ${watcher.query.key})
    ORDER BY e.id) AS ids`, (row) => { for (const id of row.ids) found.push(id); }, { between });
  return found;
}

/** What one evaluation of a watch (watcher × entity) reads. */
export interface WatchReading {
  watcher_id: number;
  entity_id: number;
  name: LocalizedValue;
  /** The value (a number, text, boolean or null); null too when the entity has none in the window. */
  value: unknown;
  has_value: boolean;
  /** Whether the entity has ever reported the key (or has it as an attribute): only then can its data stop. */
  reports: boolean;
  /** The stored watch (none: never evaluated); `since` as the database's text (compared back exactly), `since_ms` to compute with. */
  state: string | null;
  since: string | null;
  since_ms: number | null;
  /** The stored problem began under notify-off maintenance (its alert was not sent). */
  muted: boolean | null;
  /** The entity is under device maintenance now: left out of alarms. */
  in_maintenance: boolean;
  /** A notify-off window covers the entity now: transitions are logged, nothing is sent. */
  notify_off: boolean;
}

/**
 * Of `watcherIds`, those that still exist, held until the transaction ends (FOR KEY SHARE): a
 * watcher deleted meanwhile is left out instead of failing its watches' writes (their foreign
 * key), and one deleted now waits for the evaluation to commit.
 */
export async function holdWatchers(tx: Tx, watcherIds: number[]): Promise<Set<number>> {
  const held = await rows<{ id: number }>(tx, sql`SELECT id FROM watchers WHERE id = ANY(${intArray(watcherIds)}) FOR KEY SHARE`);
  return new Set(held.map((row) => row.id));
}

/**
 * Reads many watches in one statement: for each (watcher, entity), the value of the watcher's key —
 * the latest one reported within the interval (else the attribute of that name, which never goes
 * stale), or the aggregation of the interval's values — with the entity's name and the watch's state.
 */
export function watchReadings(tx: Tx, tenantId: string, watches: { watcher: WatcherRow; entityId: number }[]): Promise<WatchReading[]> {
  if (!watches.length) return Promise.resolve([]);
  const pairs = JSON.stringify(watches.map(({ watcher, entityId }) => ({
    watcher_id: watcher.id, entity_id: entityId, key: watcher.query.key, secs: watcher.interval, aggregation: watcher.query.aggregation,
  })));
  return rows(tx, sql`WITH p AS (
      SELECT *, now() - make_interval(secs => secs) AS since, aggregation = 'latest-value' AS latest
      FROM jsonb_to_recordset(${pairs}::jsonb) AS p(watcher_id int, entity_id int, key text, secs int, aggregation text)
    )
    SELECT p.watcher_id, e.id AS entity_id, e.name,
      CASE WHEN p.latest THEN
          CASE WHEN l.ts >= p.since THEN coalesce(to_jsonb(l.value_num), to_jsonb(l.value_bool), to_jsonb(l.value_text), l.value_json) ELSE e.attributes -> p.key END
        ELSE to_jsonb(CASE p.aggregation WHEN 'avg' THEN a.avg WHEN 'max' THEN a.max WHEN 'min' THEN a.min WHEN 'sum' THEN a.sum ELSE a.count END) END AS value,
      CASE WHEN p.latest THEN (l.ts >= p.since OR (l.ts IS NULL AND e.attributes ? p.key)) IS TRUE ELSE a.count > 0 END AS has_value,
      CASE WHEN p.latest THEN (l.ts IS NOT NULL OR e.attributes ? p.key) ELSE l.ts IS NOT NULL END AS reports,
      s.state, s.since::text AS since, (extract(epoch FROM s.since) * 1000)::float8 AS since_ms, s.muted,
      ${coveredByMaintenance('device-maintenance', sql`e`)} AS in_maintenance, ${coveredByMaintenance('notify-off', sql`e`)} AS notify_off
    FROM p JOIN entities e ON e.id = p.entity_id AND e.tenant_id = ${tenantId}
    LEFT JOIN telemetry_latest l ON l.entity_id = e.id AND l.key = p.key
    LEFT JOIN LATERAL (
      SELECT avg(t.value_num) AS avg, max(t.value_num) AS max, min(t.value_num) AS min, sum(t.value_num) AS sum, count(t.value_num) AS count
      FROM telemetry t WHERE NOT p.latest AND t.tenant_id = ${tenantId} AND t.entity_id = e.id AND t.key = p.key AND t.ts >= p.since AND t.ts <= now()
    ) a ON true
    LEFT JOIN watcher_states s ON s.watcher_id = p.watcher_id AND s.entity_id = e.id`);
}

export interface WatchChange {
  tenantId: string;
  watcherId: number;
  entityId: number;
  /** The state read before the evaluation (none: never evaluated). */
  previous?: { state: string; since: string };
  state: string;
  since: string;
  value: unknown;
  /** The problem's alert was not sent (notify-off maintenance). */
  muted?: boolean;
}

/** Stores a watch's new state if it still is what the evaluation read; false when another instance got there first. */
export async function saveWatchState(tx: Tx, change: WatchChange): Promise<boolean> {
  const value = JSON.stringify(change.value ?? null);
  const { previous } = change;
  const stored = previous
    ? await rows(tx, sql`UPDATE watcher_states SET state = ${change.state}, since = ${change.since}::timestamptz, value = ${value}::jsonb, muted = ${change.muted ?? false}
        WHERE watcher_id = ${change.watcherId} AND entity_id = ${change.entityId} AND state = ${previous.state} AND since = ${previous.since}::timestamptz
        RETURNING 1`)
    : await rows(tx, sql`INSERT INTO watcher_states (tenant_id, watcher_id, entity_id, state, since, value, muted)
        VALUES (${change.tenantId}, ${change.watcherId}, ${change.entityId}, ${change.state}, ${change.since}::timestamptz, ${value}::jsonb, ${change.muted ?? false})
        ON CONFLICT (watcher_id, entity_id) DO NOTHING RETURNING 1`);
  return stored.length > 0;
}

/** A watch in one of these states counts as in alert (watchState.ts `isAlerting`): the watcher's flag, the map's alarm count. */
export const watchAlerting = sql`state IN ('alerting', 'no_data')`;

/**
 * The watcher's summary from its watches: `alert` while any is alerting (or without data),
 * `triggered_at` the last time one began to, `result` the counts and the latest value seen.
 * `changed`: the alert, its time or how many are alerting changed (a device's alarm began or
 * ended: the watcher list and the maps counting alarms are told).
 */
export async function summariseWatcher(tx: Tx, watcherId: number, lastValue: unknown): Promise<{ alert: boolean; changed: boolean }> {
  const [row] = await rows<{ alert: boolean; changed: boolean }>(tx, sql`WITH counts AS (
      SELECT count(*) FILTER (WHERE ${watchAlerting}) AS alerting, count(*) AS watched,
        max(since) FILTER (WHERE ${watchAlerting}) AS triggered
      FROM watcher_states WHERE watcher_id = ${watcherId}
    ), old AS (SELECT alert, triggered_at, result -> 'alerting' AS alerting FROM watchers WHERE id = ${watcherId})
    UPDATE watchers w SET alert = counts.alerting > 0,
      triggered_at = coalesce(counts.triggered, w.triggered_at),
      result = jsonb_build_object('alerting', counts.alerting, 'watched', counts.watched, 'value', ${JSON.stringify(lastValue ?? null)}::jsonb)
    FROM counts, old WHERE w.id = ${watcherId}
    RETURNING w.alert, (w.alert IS DISTINCT FROM old.alert OR w.triggered_at IS DISTINCT FROM old.triggered_at
      OR w.result -> 'alerting' IS DISTINCT FROM old.alerting) AS changed`);
  return row ?? { alert: false, changed: false };
}
