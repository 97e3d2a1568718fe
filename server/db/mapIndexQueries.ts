// What the map's grid of clusters (server/cache/mapGrid.ts) is built and kept from: a region's point
// devices with their flags (in alarm: a watch alerting or without data; not connected: `active`
// false; under maintenance: a device-maintenance window in force covers it), a page at a time;
// the ids in alarm and under maintenance now (engines change those without touching the entity);
// and the colour values and group members of the devices a viewport lists or its clusters count.
import { sql, type SQL } from 'drizzle-orm';
import { DEVICE_FLAGS } from '../../src/schemas/mapClusters.ts';
import { atOrUnderPath, inSubtreeOf, IS_POINT, whereAll } from './entityQueries.ts';
import { coveredByMaintenance, coveredIds } from './maintenanceQueries.ts';
import { isArea } from './geometry.ts';
import { inWindow, type IdWindow } from './idWindows.ts';
import { intArrayParam } from './rows.ts';
import { watchAlerting } from './watcherQueries.ts';

export interface MapIndexScope { region?: number; level?: number }

const UNDER_MAINTENANCE = coveredByMaintenance('device-maintenance', sql`e`);
const OFFLINE = sql`CASE WHEN e.attributes->'active' = 'false'::jsonb THEN ${DEVICE_FLAGS.offline} ELSE 0 END`;
const ALL_FLAGS = sql`${OFFLINE}
  | CASE WHEN EXISTS (SELECT 1 FROM watcher_states ws WHERE ws.entity_id = e.id AND ${watchAlerting}) THEN ${DEVICE_FLAGS.alarm} ELSE 0 END
  | CASE WHEN ${UNDER_MAINTENANCE} THEN ${DEVICE_FLAGS.maintenance} ELSE 0 END`;

/**
 * A point among the window's entities: a geometry that is not one of the window's areas, those
 * read through their own index (entities_areas_idx). The same as IS_POINT, which takes a fifth of
 * a build's time when tested on every row.
 */
const pointOfWindow = (rows: IdWindow) => sql`jsonb_typeof(e.geom) = 'object'
  AND e.id NOT IN (SELECT a.id FROM entities a WHERE ${inWindow(rows, sql`a.id`)} AND ${isArea(sql`a.geom`)})`;

/**
 * The scope's points as text (column `rows`, null without any): `id,type,level,lng,lat,flags`
 * rows joined by `;` — text, not JSON: a third of the database's time for a million (1.7 s against
 * 3.6 s). Either those of a window of ids, their flags saying only whether they are connected
 * (alarmIdsQuery and maintenanceIdsQuery give the rest, once for all), or the one entity `only`,
 * with all its flags. The region's subtree by its tree path when the caller read it (`regionPath`).
 */
export function mapIndexRowsQuery(scope: MapIndexScope, rows: IdWindow, regionPath?: string): SQL {
  const where = [inWindow(rows), 'only' in rows ? IS_POINT : pointOfWindow(rows)];
  if (scope.region !== undefined) where.push(regionPath === undefined ? inSubtreeOf(scope.region) : atOrUnderPath(regionPath));
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
