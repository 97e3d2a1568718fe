// Where the map goes to show an entity: a point is centred; an area (a polygon, a circle, a
// region's extent) is fitted in view by its bounding box.
import circle from '@turf/circle';
import type { Geometry } from '../../../schemas/geometry.ts';
import type { EntityJson } from '../../../schemas/entityJson.ts';
import { regionExtentOf } from '../RegionExtentLayer.tsx';

export type LngLat = [number, number];
export type CameraTarget = { center: LngLat } | { bounds: [LngLat, LngLat] };

function boundsOf(positions: readonly LngLat[]): [LngLat, LngLat] {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [longitude, latitude] of positions) {
    west = Math.min(west, longitude);
    east = Math.max(east, longitude);
    south = Math.min(south, latitude);
    north = Math.max(north, latitude);
  }
  return [[west, south], [east, north]];
}

const circleBounds = (centre: LngLat, radiusM: number) =>
  boundsOf(circle(centre, radiusM / 1000, { steps: 32, units: 'kilometers' }).geometry.coordinates[0] as LngLat[]);

/** The camera target of an entity: its region extent, else its geometry; none without a position. */
export function cameraTargetOf(entity: Pick<EntityJson, 'geom' | 'attributes'> | undefined): CameraTarget | undefined {
  const extent = regionExtentOf(entity);
  if (extent) return { bounds: circleBounds(extent.centre, extent.size) };
  const geom = entity?.geom as Geometry | null | undefined;
  if (!geom) return undefined;
  if (geom.type === 'Point') {
    const centre = geom.coordinates as LngLat;
    return geom.radius ? { bounds: circleBounds(centre, geom.radius) } : { center: centre };
  }
  const rings = (geom.type === 'Polygon' ? [geom.coordinates] : geom.coordinates) as LngLat[][][];
  return { bounds: boundsOf(rings.flat(2)) };
}
