// What the map tells apart in an entity's geometry (`geom`, GeoJSON): a point device, or an area
// (a polygon, a line, a circle). One definition for the queries and for the index of areas.
import { sql, type SQL } from 'drizzle-orm';

/** A Point geometry with numeric coordinates and no radius (a circle is an area). */
export const isPoint = (geom: SQL) => sql`jsonb_typeof(${geom}) = 'object' AND ${geom}->>'type' = 'Point'
  AND jsonb_typeof(${geom}->'coordinates'->0) = 'number' AND jsonb_typeof(${geom}->'coordinates'->1) = 'number'
  AND coalesce(${geom}->>'radius', '0') = '0'`;

/** A geometry that is not a point: what the map draws as an area. */
export const isArea = (geom: SQL) => sql`jsonb_typeof(${geom}) = 'object' AND NOT (${isPoint(geom)})`;
