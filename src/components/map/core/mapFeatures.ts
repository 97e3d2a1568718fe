// The rows of GET /map-features as GeoJSON for the map's sources: points (clustered when many),
// and areas (polygons, and circles drawn from their centre and radius). The feature id is the
// entity id, so selection and colours are feature states, not new data.
import circle from '@turf/circle';
import type { Feature, FeatureCollection, Point, Polygon, MultiPolygon } from 'geojson';
import type { MapFeatureRow } from '../../../schemas/mapFeatures.ts';

/** `colour` (the entity's own, #rrggbb) is present only when the entity has one. */
export interface EntityProperties { id: number; type: number; level: number; parent: number | null; value: unknown; colour?: string }

export interface MapCollections {
  points: FeatureCollection<Point, EntityProperties>;
  areas: FeatureCollection<Polygon | MultiPolygon, EntityProperties>;
}

const CIRCLE_STEPS = 48;

export function collectionsOf(rows: readonly MapFeatureRow[]): MapCollections {
  const points: Feature<Point, EntityProperties>[] = [];
  const areas: Feature<Polygon | MultiPolygon, EntityProperties>[] = [];
  for (const [id, type, level, parent, position, value, colour] of rows) {
    if (!position) continue;
    const properties: EntityProperties = colour ? { id, type, level, parent, value, colour } : { id, type, level, parent, value };
    if (Array.isArray(position)) {
      const [longitude, latitude, radius] = position;
      if (radius) areas.push({ ...circle([longitude, latitude], radius / 1000, { steps: CIRCLE_STEPS, units: 'kilometers' }), id, properties });
      else points.push({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [longitude, latitude] }, properties });
    } else if (position.type === 'Polygon' || position.type === 'MultiPolygon') {
      areas.push({ type: 'Feature', id, geometry: position as Polygon | MultiPolygon, properties });
    }
  }
  return { points: { type: 'FeatureCollection', features: points }, areas: { type: 'FeatureCollection', features: areas } };
}

/** The map levels the rows are at, in order. */
export function levelsOf(rows: readonly MapFeatureRow[]): number[] {
  const levels = new Set<number>();
  for (const row of rows) levels.add(row[2]);
  return [...levels].sort((a, b) => a - b);
}

/** The entity a map event is on: the id of its first feature (the layers' feature ids are entity ids). */
export function entityIdOf(event: { features?: readonly { id?: string | number }[] }): number | undefined {
  const id = Number(event.features?.[0]?.id);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
