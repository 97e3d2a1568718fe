// Between our geometries (src/schemas/geometry.ts) and what the drawing tool keeps: a circle is a
// point with a radius for us and a polygon with `radiusKilometers` for terra-draw. Also the area a
// geometry covers (m²): @turf/area for polygons, π·r² for a circle, nothing for a point.
import turfArea from '@turf/area';
import circle from '@turf/circle';
import type { Feature, Polygon } from 'geojson';
import type { Geometry, Position } from '../../../schemas/geometry.ts';

export type DrawShape = 'point' | 'polygon' | 'circle';

export interface DrawnFeature { type: 'Feature'; id?: string | number; geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }

const round = (value: number) => Math.round(value * 1e7) / 1e7;

/** The drawing tool's feature for a geometry (a multipolygon is drawn as its first polygon). */
export function drawnFeatureOf(geom: Geometry): DrawnFeature {
  if (geom.type === 'Point' && geom.radius) {
    const drawn = circle(geom.coordinates, geom.radius / 1000, { steps: 64, units: 'kilometers' });
    const ring = drawn.geometry.coordinates[0].map(([x, y]) => [round(x), round(y)]);
    return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { mode: 'circle', radiusKilometers: geom.radius / 1000 } };
  }
  if (geom.type === 'Point') return { type: 'Feature', geometry: geom, properties: { mode: 'point' } };
  const rings = geom.type === 'Polygon' ? geom.coordinates : geom.coordinates[0];
  return { type: 'Feature', geometry: { type: 'Polygon', coordinates: rings }, properties: { mode: 'polygon' } };
}

/** Our geometry for a drawn feature. */
export function geometryOfDrawn(feature: DrawnFeature): Geometry | null {
  const mode = feature.properties.mode;
  if (mode === 'point') {
    const [x, y] = feature.geometry.coordinates as Position;
    return { type: 'Point', coordinates: [round(x), round(y)] };
  }
  const ring = (feature.geometry.coordinates as Position[][])[0];
  if (!ring?.length) return null;
  if (mode === 'circle') {
    const points = ring.slice(0, -1);
    const centre: Position = [round(points.reduce((sum, p) => sum + p[0], 0) / points.length), round(points.reduce((sum, p) => sum + p[1], 0) / points.length)];
    const radius = Math.round(Number(feature.properties.radiusKilometers) * 1000 * 10) / 10;
    return { type: 'Point', coordinates: centre, radius };
  }
  return { type: 'Polygon', coordinates: [ring.map(([x, y]) => [round(x), round(y)] as Position)] };
}

/** The area (m², rounded) a geometry covers: 0 for a point or none. */
export function areaOf(geom: Geometry | null | undefined): number {
  if (!geom) return 0;
  if (geom.type === 'Point') return geom.radius ? Math.round(Math.PI * geom.radius ** 2) : 0;
  return Math.round(turfArea({ type: 'Feature', geometry: geom as Polygon, properties: {} } as Feature<Polygon>));
}

/** The shape a geometry is drawn as. */
export const shapeOf = (geom: Geometry | null | undefined): DrawShape | undefined =>
  !geom ? undefined : geom.type === 'Point' ? (geom.radius ? 'circle' : 'point') : 'polygon';
