// The watcher engine's statements (server/engines/watchers): claiming due watchers across tenants
// (SKIP LOCKED, so instances share them), the entities a watcher watches and their values, the
// watches' states (changed only by the instance whose update still finds the state it read), the
// watcher's own summary (a transition's log row: logQueries.ts).
import { sql } from 'drizzle-orm';
import type { LocalizedValue } from '../../src/i18n/pickLocalized.ts';
import type { Watcher } from '../../src/schemas/watcher.ts';
import type { Database, Tx } from './database.ts';
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

/** Brings a watcher's next evaluation forward to `at` (a pending watch whose time will be up). */
export async function evaluateWatcherBy(tx: Tx, watcherId: number, at: string): Promise<void> {
  await tx.execute(sql`UPDATE watchers SET next_evaluation_at = least(next_evaluation_at, ${at}::timestamptz) WHERE id = ${watcherId}`);
}

/** An entity a watcher watches, with its multilingual name. */
export interface WatchedEntity { id: number; name: LocalizedValue }

/**
 * The entities a watcher watches: its entity ids, else every entity of its entity types, else
 * every entity that has reported its key; narrowed to `only` when given.
 */
export function watchedEntities(tx: Tx, watcher: WatcherRow, only?: number[]): Promise<WatchedEntity[]> {
  const ids = watcher.entity_ids ?? [];
  const types = watcher.entity_type_ids ?? [];
  const narrowed = only ? sql`AND e.id = ANY(${intArray(only)})` : sql``;
  if (ids.length || types.length) {
    return rows(tx, sql`SELECT e.id, e.name FROM entities e
      WHERE e.tenant_id = ${watcher.tenant_id} AND (e.id = ANY(${intArray(ids)}) OR e.entity_type_id = ANY(${intArray(types)})) ${narrowed}`);
  }
  return rows(tx, sql`SELECT e.id, e.name FROM entities e
    WHERE e.tenant_id = ${watcher.tenant_id} ${narrowed}
      AND (EXISTS (SELECT 1 FROM telemetry_latest l WHERE l.entity_id = e.id AND l.key = ${watcher.query.key}) OR e.attributes ? ${watcher.query.key})`);
}

export interface EntityValue {
  entity_id: number;
  /** The value (a number, text, boolean or null); null too when the entity has none in the window. */
  value: unknown;
  has_value: boolean;
  /** Whether the entity has ever reported the key (or has it as an attribute): only then can its data stop. */
  reports: boolean;
}

/**
 * Each entity's value of the watcher's key: the latest one reported within the interval (else the
 * attribute of that name, which never goes stale), or the aggregation of the interval's values.
 */
export function entityValues(tx: Tx, watcher: WatcherRow, entityIds: number[]): Promise<EntityValue[]> {
  const { key, aggregation } = watcher.query;
  const since = sql`now() - make_interval(secs => ${watcher.interval})`;
  if (aggregation === 'latest-value') {
    return rows(tx, sql`SELECT e.id AS entity_id,
        CASE WHEN l.ts >= ${since} THEN coalesce(to_jsonb(l.value_num), to_jsonb(l.value_bool), to_jsonb(l.value_text), l.value_json)
             ELSE e.attributes -> ${key} END AS value,
        (l.ts >= ${since} OR (l.ts IS NULL AND e.attributes ? ${key})) IS TRUE AS has_value,
        (l.ts IS NOT NULL OR e.attributes ? ${key}) AS reports
      FROM entities e LEFT JOIN telemetry_latest l ON l.entity_id = e.id AND l.key = ${key}
      WHERE e.id = ANY(${intArray(entityIds)})`);
  }
  const aggregate = { avg: sql`avg(t.value_num)`, max: sql`max(t.value_num)`, min: sql`min(t.value_num)`, sum: sql`sum(t.value_num)`, value_count: sql`count(t.value_num)` }[aggregation];
  return rows(tx, sql`SELECT e.id AS entity_id, to_jsonb(${aggregate}) AS value, count(t.value_num) > 0 AS has_value,
      EXISTS (SELECT 1 FROM telemetry_latest l WHERE l.entity_id = e.id AND l.key = ${key}) AS reports
    FROM entities e LEFT JOIN telemetry t ON t.tenant_id = ${watcher.tenant_id} AND t.entity_id = e.id AND t.key = ${key} AND t.ts >= ${since} AND t.ts <= now()
    WHERE e.id = ANY(${intArray(entityIds)})
    GROUP BY e.id`);
}

/** A stored watch; `since` as the database's text (compared back exactly), `since_ms` to compute with. */
export interface StoredWatch { entity_id: number; state: string; since: string; since_ms: number }

export function watchStates(tx: Tx, watcherId: number, entityIds: number[]): Promise<StoredWatch[]> {
  return rows(tx, sql`SELECT entity_id, state, since::text AS since, (extract(epoch FROM since) * 1000)::float8 AS since_ms
    FROM watcher_states WHERE watcher_id = ${watcherId} AND entity_id = ANY(${intArray(entityIds)})`);
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
}

/** Stores a watch's new state if it still is what the evaluation read; false when another instance got there first. */
export async function saveWatchState(tx: Tx, change: WatchChange): Promise<boolean> {
  const value = JSON.stringify(change.value ?? null);
  const { previous } = change;
  const stored = previous
    ? await rows(tx, sql`UPDATE watcher_states SET state = ${change.state}, since = ${change.since}::timestamptz, value = ${value}::jsonb
        WHERE watcher_id = ${change.watcherId} AND entity_id = ${change.entityId} AND state = ${previous.state} AND since = ${previous.since}::timestamptz
        RETURNING 1`)
    : await rows(tx, sql`INSERT INTO watcher_states (tenant_id, watcher_id, entity_id, state, since, value)
        VALUES (${change.tenantId}, ${change.watcherId}, ${change.entityId}, ${change.state}, ${change.since}::timestamptz, ${value}::jsonb)
        ON CONFLICT (watcher_id, entity_id) DO NOTHING RETURNING 1`);
  return stored.length > 0;
}

/**
 * The watcher's summary from its watches: `alert` while any is alerting (or without data),
 * `triggered_at` the last time one began to, `result` the counts and the latest value seen.
 */
export async function summariseWatcher(tx: Tx, watcherId: number, lastValue: unknown): Promise<{ alert: boolean; changed: boolean }> {
  const [row] = await rows<{ alert: boolean; changed: boolean }>(tx, sql`WITH counts AS (
      SELECT count(*) FILTER (WHERE state IN ('alerting', 'no_data')) AS alerting, count(*) AS watched,
        max(since) FILTER (WHERE state IN ('alerting', 'no_data')) AS triggered
      FROM watcher_states WHERE watcher_id = ${watcherId}
    ), old AS (SELECT alert, triggered_at FROM watchers WHERE id = ${watcherId})
    UPDATE watchers w SET alert = counts.alerting > 0,
      triggered_at = coalesce(counts.triggered, w.triggered_at),
      result = jsonb_build_object('alerting', counts.alerting, 'watched', counts.watched, 'value', ${JSON.stringify(lastValue ?? null)}::jsonb)
    FROM counts, old WHERE w.id = ${watcherId}
    RETURNING w.alert, (w.alert IS DISTINCT FROM old.alert OR w.triggered_at IS DISTINCT FROM old.triggered_at) AS changed`);
  return row ?? { alert: false, changed: false };
}
