// What the map's grid of clusters (server/cache/mapGrid.ts) is built and kept from: a region's point
// devices with their flags (in alarm: a watch alerting or without data; not connected: `active`
// false; under maintenance: a device-maintenance window in force covers it), a page at a time;
// the ids in alarm and under maintenance now (engines change those without touching the entity);
// and the colour values and group members of the devices a viewport lists or its clusters count.
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './database.ts';
import { DEVICE_FLAGS } from '../../src/schemas/mapClusters.ts';
import { inSubtreeOf, IS_POINT, whereAll } from './entityQueries.ts';
import { coveredByMaintenance, coveredIds } from './maintenanceQueries.ts';
import { intArrayParam } from './rows.ts';
import { watchAlerting } from './watcherQueries.ts';

export interface MapIndexScope { region?: number; level?: number }

const UNDER_MAINTENANCE = coveredByMaintenance('device-maintenance', sql`e`);
const OFFLINE = sql`CASE WHEN e.attributes->'active' = 'false'::jsonb THEN ${DEVICE_FLAGS.offline} ELSE 0 END`;
const ALL_FLAGS = sql`${OFFLINE}
  | CASE WHEN EXISTS (SELECT 1 FROM watcher_states ws WHERE ws.entity_id = e.id AND ${watchAlerting}) THEN ${DEVICE_FLAGS.alarm} ELSE 0 END
  | CASE WHEN ${UNDER_MAINTENANCE} THEN ${DEVICE_FLAGS.maintenance} ELSE 0 END`;

/** Ids one statement reads while building (each is the tenant's or not: at most so many rows). */
const ID_WINDOW = 50_000;

/** Ids in (`after`, `upTo`], or the one entity `only`. */
export type IdWindow = { after: number; upTo: number } | { only: number };
const inWindow = (rows: IdWindow, id = sql`e.id`) => ('only' in rows ? sql`${id} = ${rows.only}` : sql`${id} > ${rows.after} AND ${id} <= ${rows.upTo}`);

/**
 * Runs `query` over the tenant's entities a window of ids at a time, in order, handing each answer's
 * first row to `take`. A range of ids, not a LIMIT: the planner cannot guess how many entities a
 * query keeps, and for the first page of a million map points it sorted them all (9 s).
 */
export async function inIdWindows<T>(db: Database, tenantId: string, query: (window: IdWindow) => SQL, take: (row: T) => void) {
  const [{ low, high }] = await db.tenantQuery<{ low: number | null; high: number | null }>(tenantId, sql`SELECT min(id) AS low, max(id) AS high FROM entities`);
  if (low === null || high === null) return;
  for (let after = low - 1; after < high; after += ID_WINDOW) {
    const [row] = await db.tenantQuery<T>(tenantId, query({ after, upTo: after + ID_WINDOW }));
    take(row);
  }
}

/**
 * The scope's points as text (column `rows`, null without any): `id,type,level,lng,lat,flags`
 * rows joined by `;` — text, not JSON: a third of the database's time for a million (1.7 s against
 * 3.6 s). Either those of a window of ids, their flags saying only whether they are connected
 * (alarmIdsQuery and maintenanceIdsQuery give the rest, once for all), or the one entity `only`,
 * with all its flags.
 */
export function mapIndexRowsQuery(scope: MapIndexScope, rows: IdWindow): SQL {
  const where = [inWindow(rows), IS_POINT];
  if (scope.region !== undefined) where.push(inSubtreeOf(scope.region));
  if (scope.level !== undefined) where.push(sql`e.level = ${scope.level}`);
  return sql`SELECT string_agg(concat_ws(',', e.id, e.entity_type_id, e.level, e.geom->'coordinates'->>0, e.geom->'coordinates'->>1,
      ${'only' in rows ? ALL_FLAGS : OFFLINE}), ';') AS rows
    FROM entities e ${whereAll(where)}`;
}

/** The tenant's entities in alarm now (column `ids`): their watches. */
export const alarmIdsQuery = (): SQL => sql`SELECT ARRAY(SELECT DISTINCT entity_id FROM watcher_states WHERE ${watchAlerting}) AS ids`;

/** The tenant's entities under device maintenance now (column `ids`). */
export const maintenanceIdsQuery = (): SQL => sql`SELECT ARRAY(${coveredIds('device-maintenance')}) AS ids`;

/** The value of `attribute` of the window's entities that have it, as JSON text (column `pairs`: `[[id, value], …]`, null without any). */
export const attributeColumnQuery = (attribute: string, rows: IdWindow): SQL => sql`SELECT
    json_agg(json_build_array(e.id, e.attributes -> ${attribute}))::text AS pairs
  FROM entities e WHERE ${inWindow(rows)} AND e.attributes -> ${attribute} IS NOT NULL`;

/** The members of `group` among the window's entities, each with `true`, as JSON text (column `pairs`: `[[id, true], …]`, null without any). */
export const groupColumnQuery = (group: number, rows: IdWindow): SQL => sql`SELECT
    json_agg(json_build_array(eg.entity_id, true))::text AS pairs
  FROM entity_groups eg WHERE eg.group_id = ${group} AND ${inWindow(rows, sql`eg.entity_id`)}`;

/** The value of `attribute` of each entity (columns `id`, `value`). */
export const attributeValuesQuery = (ids: readonly number[], attribute: string): SQL =>
  sql`SELECT id, attributes -> ${attribute} AS value FROM entities WHERE id = ANY(${intArrayParam(ids)})`;
