// A region's extent: the circle of its size (m) around its centre, outlined in its colour.
import circle from '@turf/circle';
import { useMemo } from 'react';
import { Layer, Source } from 'react-map-gl/maplibre';
import type { EntityJson } from '../../schemas/entityJson.ts';
import { isHexColour } from './core/colourPalette.ts';

export interface RegionExtent { centre: [number, number]; size: number; colour?: string }

/** The extent of a region entity, when it has a centre and a size. */
export function regionExtentOf(region: Pick<EntityJson, 'geom' | 'attributes'> | undefined): RegionExtent | undefined {
  const size = region?.attributes.size;
  if (region?.geom?.type !== 'Point' || typeof size !== 'number' || size <= 0) return undefined;
  const colour = region.attributes.color;
  return { centre: region.geom.coordinates as [number, number], size, colour: isHexColour(colour) ? colour : undefined };
}

export function RegionExtentLayer({ extent }: { extent: RegionExtent | undefined }) {
  const data = useMemo(() => extent && circle(extent.centre, extent.size / 1000, { steps: 96, units: 'kilometers' }), [extent?.centre[0], extent?.centre[1], extent?.size]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!extent || !data) return null;
  return (
    <Source id="region-extent-source" type="geojson" data={data}>
      <Layer id="region-extent" type="line" paint={{ 'line-color': extent.colour ?? '#1f3b57', 'line-width': 2, 'line-dasharray': [3, 2] }} />
    </Source>
  );
}
