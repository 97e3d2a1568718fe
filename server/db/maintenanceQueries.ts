// Maintenance windows as the engines and the doors ask about them: which are in force now (their
// current occurrence holds now), which entities they cover (the tenant's, a region's subtree, a
// group's), and the windows whose start or end is due to be logged.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { rows } from './rows.ts';

/** In force now. */
export const inForce = (window: SQL) => sql`${window}.current_start <= now() AND now() < ${window}.current_end`;

/** Whether the entity `entity` is the region `region` (an id) or lies in it: its tree_path holds the region's id. */
const inRegion = (entity: SQL, region: SQL) => sql`('.' || ${entity}.tree_path || '.') LIKE ('%.' || ${region} || '.%')`;

/** Whether the window `window` covers the entity `entity`: the whole tenant, the region named and what lies in it, or a group the entity belongs to. */
const covers = (window: SQL, entity: SQL) => sql`${window}.tenant_id = ${entity}.tenant_id AND (${window}.scope = 'tenant'
  OR (${window}.scope = 'region' AND ${inRegion(entity, sql`${window}.region_id`)})
  OR (${window}.scope = 'group' AND EXISTS (SELECT 1 FROM entity_groups eg WHERE eg.entity_id = ${entity}.id AND eg.group_id = ${window}.group_id)))`;

/**
 * The ids of the entities the windows of `mode` in force cover, as a set (covers, from the windows'
 * side: the whole tenant, a region's subtree, a group's members through its own index), for when
 * every covered entity is wanted: checking each of a million entities against the windows took
 * 1.5 s, a group's members are read in a fraction of that.
 */
export const coveredIds = (mode: string) => sql`WITH w AS MATERIALIZED (
    SELECT mw.scope, mw.region_id, mw.group_id FROM maintenance_windows mw WHERE mw.mode = ${mode} AND ${inForce(sql`mw`)})
  SELECT e.id FROM entities e WHERE EXISTS (SELECT 1 FROM w WHERE w.scope = 'tenant')
  UNION SELECT e.id FROM w JOIN entities e ON w.scope = 'region' AND ${inRegion(sql`e`, sql`w.region_id`)}
  UNION SELECT eg.entity_id FROM w JOIN entity_groups eg ON w.scope = 'group' AND eg.group_id = w.group_id`;

/** Whether a window of `mode` in force covers the entity `entity` (an alias of `entities`). */
export const coveredByMaintenance = (mode: string, entity: SQL) => sql`EXISTS (
  SELECT 1 FROM maintenance_windows mw WHERE mw.mode = ${mode} AND ${inForce(sql`mw`)} AND ${covers(sql`mw`, entity)})`;

/** The most entities a window's answer lists as covered (the map marks them). */
export const MAX_COVERED_ENTITIES = 10_000;

/**
 * The entities a device-maintenance window in force covers (ids, at most MAX_COVERED_ENTITIES);
 * none otherwise. A group's members are read through the group's own index: checking every
 * entity for membership took 0.8 s at a million.
 */
export const coveredEntityIds = (window: SQL) => sql`CASE WHEN ${window}.mode = 'device-maintenance' AND ${inForce(window)}
  THEN CASE WHEN ${window}.scope = 'group'
    THEN ARRAY(SELECT eg.entity_id FROM entity_groups eg WHERE eg.group_id = ${window}.group_id AND eg.tenant_id = ${window}.tenant_id ORDER BY eg.entity_id LIMIT ${MAX_COVERED_ENTITIES})
    ELSE ARRAY(SELECT e.id FROM entities e WHERE ${covers(window, sql`e`)} ORDER BY e.id LIMIT ${MAX_COVERED_ENTITIES}) END
  ELSE '{}'::int[] END`;

/** The end of the tenant's read-only window in force (the latest, when several), or null. */
export async function readOnlyUntil(tx: Tx): Promise<string | null> {
  const [row] = await rows<{ until: string | null }>(tx, sql`SELECT max(mw.current_end)::text AS until FROM maintenance_windows mw
    WHERE mw.mode = 'read-only' AND ${inForce(sql`mw`)}`);
  return row?.until ? new Date(row.until).toISOString() : null;
}

export interface DueMaintenanceWindow {
  id: number;
  tenant_id: string;
  name: string;
  mode: string;
  scope: string;
  region_id: number | null;
  schedule: Record<string, unknown>;
  current_start: string;
  current_end: string;
  start_logged: boolean;
  /** The tenant's time zone attribute (null: UTC). */
  time_zone: string | null;
}

/** Windows across tenants whose start is not logged yet although it has come, or whose end has come: locked until the transaction ends. */
export function dueMaintenanceWindows(tx: Tx, limit: number): Promise<DueMaintenanceWindow[]> {
  return rows(tx, sql`SELECT id, tenant_id, name, mode, scope, region_id, schedule,
      to_char(current_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS current_start,
      to_char(current_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS current_end, start_logged,
      (SELECT t.attributes ->> 'timezone' FROM tenants t WHERE t.id = maintenance_windows.tenant_id) AS time_zone
    FROM maintenance_windows
    WHERE current_end <= now() OR (NOT start_logged AND current_start <= now())
    ORDER BY current_start LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
}

/** The window moved to its next occurrence (or none), or its start marked as logged. */
export async function saveMaintenanceProgress(tx: Tx, id: number, progress: { start: Date | null; end: Date | null; startLogged: boolean }): Promise<void> {
  await tx.execute(sql`UPDATE maintenance_windows SET current_start = ${progress.start?.toISOString() ?? null}::timestamptz,
    current_end = ${progress.end?.toISOString() ?? null}::timestamptz, start_logged = ${progress.startLogged} WHERE id = ${id}`);
}

