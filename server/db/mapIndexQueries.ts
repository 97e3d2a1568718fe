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

/** [id, entity_type_id, level, longitude, latitude, flags]. */
export type MapIndexRow = [id: number, type: number, level: number, lng: number, lat: number, flags: number];

const UNDER_MAINTENANCE = coveredByMaintenance('device-maintenance', sql`e`);

/** The lowest and highest id of the tenant's entities (columns `low`, `high`; null without any). */
export const entityIdRangeQuery = (): SQL => sql`SELECT min(id) AS low, max(id) AS high FROM entities`;

/**
 * The scope's points as JSON text (column `json`) of MapIndexRow: those whose id lies in (`after`,
 * `upTo`], or the one entity `only` if it is one. A range of ids, not a LIMIT: the planner cannot
 * guess how many entities are points, and for the first page of a million it sorted them all (9 s).
 */
export function mapIndexPageQuery(scope: MapIndexScope, rows: { after: number; upTo: number } | { only: number }): SQL {
  const where = ['only' in rows ? sql`e.id = ${rows.only}` : sql`e.id > ${rows.after} AND e.id <= ${rows.upTo}`, IS_POINT];
  if (scope.region !== undefined) where.push(inSubtreeOf(scope.region));
  if (scope.level !== undefined) where.push(sql`e.level = ${scope.level}`);
  return sql`SELECT coalesce(json_agg(json_build_array(p.id, p.entity_type_id, p.level, p.lng, p.lat, p.flags) ORDER BY p.id), '[]')::text AS json
    FROM (SELECT e.id, e.entity_type_id, e.level,
        (e.geom->'coordinates'->>0)::float8 AS lng, (e.geom->'coordinates'->>1)::float8 AS lat,
        CASE WHEN a.entity_id IS NULL THEN 0 ELSE ${DEVICE_FLAGS.alarm} END
        | CASE WHEN e.attributes->'active' = 'false'::jsonb THEN ${DEVICE_FLAGS.offline} ELSE 0 END
        | CASE WHEN ${UNDER_MAINTENANCE} THEN ${DEVICE_FLAGS.maintenance} ELSE 0 END AS flags
      FROM entities e LEFT JOIN (SELECT DISTINCT entity_id FROM watcher_states WHERE ${watchAlerting}) a ON a.entity_id = e.id
      ${whereAll(where)}) p`;
}

/** The tenant's entities in alarm and under device maintenance now (ids, columns `alarm` and `maintenance`). */
export const flaggedIdsQuery = (): SQL => sql`SELECT
  ARRAY(SELECT DISTINCT entity_id FROM watcher_states WHERE ${watchAlerting}) AS alarm,
  ARRAY(SELECT e.id FROM entities e WHERE EXISTS (SELECT 1 FROM maintenance_windows mw WHERE mw.mode = 'device-maintenance' AND ${inForce(sql`mw`)})
    AND ${UNDER_MAINTENANCE}) AS maintenance`;

/** The value of `attribute` of each entity (columns `id`, `value`). */
export const attributeValuesQuery = (ids: readonly number[], attribute: string): SQL =>
  sql`SELECT id, attributes -> ${attribute} AS value FROM entities WHERE id = ANY(${intArrayParam(ids)})`;
