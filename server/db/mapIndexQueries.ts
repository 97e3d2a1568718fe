// What the map's grid of clusters (server/cache/mapGrid.ts) is built and kept from: a region's point
// devices with their flags (in alarm: a watch alerting or without data; not connected: `active`
// false; under maintenance: a device-maintenance window in force covers it), a page at a time;
// the ids in alarm and under maintenance now (engines change those without touching the entity);
// and the colour values of the devices a viewport lists.
import { sql, type SQL } from 'drizzle-orm';
import { DEVICE_FLAGS } from '../../src/schemas/mapClusters.ts';
import { inSubtreeOf, IS_POINT, whereAll } from './entityQueries.ts';
import { coveredByMaintenance, inForce } from './maintenanceQueries.ts';
import { intArrayParam } from './rows.ts';
import { watchAlerting } from './watcherQueries.ts';

export interface MapIndexScope { region?: number; level?: number }

const UNDER_MAINTENANCE = coveredByMaintenance('device-maintenance', sql`e`);
const OFFLINE = sql`CASE WHEN e.attributes->'active' = 'false'::jsonb THEN ${DEVICE_FLAGS.offline} ELSE 0 END`;
const ALL_FLAGS = sql`${OFFLINE}
  | CASE WHEN EXISTS (SELECT 1 FROM watcher_states ws WHERE ws.entity_id = e.id AND ${watchAlerting}) THEN ${DEVICE_FLAGS.alarm} ELSE 0 END
  | CASE WHEN ${UNDER_MAINTENANCE} THEN ${DEVICE_FLAGS.maintenance} ELSE 0 END`;

/** The lowest and highest id of the tenant's entities (columns `low`, `high`; null without any). */
export const entityIdRangeQuery = (): SQL => sql`SELECT min(id) AS low, max(id) AS high FROM entities`;

/**
 * The scope's points as text (column `rows`, null without any): `id,type,level,lng,lat,flags`
 * rows joined by `;` — text, not JSON: a third of the database's time for a million (1.7 s against
 * 3.6 s). Either those whose id lies in (`after`, `upTo`], their flags saying only whether they
 * are connected (flaggedIdsQuery gives the rest, once for all), or the one entity `only`, with all
 * its flags. A range of ids, not a LIMIT: the planner cannot guess how many entities are points,
 * and for the first page of a million it sorted them all (9 s).
 */
export function mapIndexRowsQuery(scope: MapIndexScope, rows: { after: number; upTo: number } | { only: number }): SQL {
  const where = ['only' in rows ? sql`e.id = ${rows.only}` : sql`e.id > ${rows.after} AND e.id <= ${rows.upTo}`, IS_POINT];
  if (scope.region !== undefined) where.push(inSubtreeOf(scope.region));
  if (scope.level !== undefined) where.push(sql`e.level = ${scope.level}`);
  return sql`SELECT string_agg(concat_ws(',', e.id, e.entity_type_id, e.level, e.geom->'coordinates'->>0, e.geom->'coordinates'->>1,
      ${'only' in rows ? ALL_FLAGS : OFFLINE}), ';') AS rows
    FROM entities e ${whereAll(where)}`;
}

/** The tenant's entities in alarm and under device maintenance now (ids, columns `alarm` and `maintenance`). */
export const flaggedIdsQuery = (): SQL => sql`SELECT
  ARRAY(SELECT DISTINCT entity_id FROM watcher_states WHERE ${watchAlerting}) AS alarm,
  ARRAY(SELECT e.id FROM entities e WHERE EXISTS (SELECT 1 FROM maintenance_windows mw WHERE mw.mode = 'device-maintenance' AND ${inForce(sql`mw`)})
    AND ${UNDER_MAINTENANCE}) AS maintenance`;

/** The value of `attribute` of each entity (columns `id`, `value`). */
export const attributeValuesQuery = (ids: readonly number[], attribute: string): SQL =>
  sql`SELECT id, attributes -> ${attribute} AS value FROM entities WHERE id = ANY(${intArrayParam(ids)})`;
