// The entities on the map: points (clustered when many, coloured by the chosen attribute) and areas
// (polygons and circles), with the selected one drawn apart through its feature state.
import type { ExpressionSpecification } from 'maplibre-gl';
import { useEffect, useMemo } from 'react';
import { Layer, Source, useMap } from 'react-map-gl/maplibre';
import type { MapFeatureRow } from '../../schemas/mapFeatures.ts';
import { collectionsOf } from './mapFeatures.ts';

export const POINT_LAYER = 'entity-points';
export const AREA_LAYER = 'entity-areas';
export const CLUSTER_LAYER = 'entity-clusters';

/** Beyond this many points the map groups nearby ones into clusters. */
const CLUSTER_FROM = 2_000;

const SELECTED: ExpressionSpecification = ['boolean', ['feature-state', 'selected'], false];
/** A colour from the colour value: green for true or a positive number, grey for none, blue otherwise. */
const VALUE_COLOUR: ExpressionSpecification = [
  'case',
  ['==', ['get', 'value'], null], '#5b6b7f',
  ['==', ['get', 'value'], true], '#2e9d57',
  ['==', ['get', 'value'], false], '#b04a3a',
  ['all', ['==', ['typeof', ['get', 'value']], 'number'], ['>', ['to-number', ['get', 'value']], 0]], '#2e9d57',
  '#1f6fb2',
];

export function EntityLayers({ rows, selectedId }: { rows: readonly MapFeatureRow[]; selectedId?: number }) {
  const { current: map } = useMap();
  const { points, areas } = useMemo(() => collectionsOf(rows), [rows]);
  const clustered = points.features.length > CLUSTER_FROM;

  useEffect(() => {
    if (!map || selectedId === undefined) return;
    const targets = ['entity-point-source', 'entity-area-source'].filter((source) => map.getSource(source));
    for (const source of targets) map.setFeatureState({ source, id: selectedId }, { selected: true });
    return () => {
      for (const source of targets) if (map.getSource(source)) map.setFeatureState({ source, id: selectedId }, { selected: false });
    };
  }, [map, selectedId, rows]);

  return (
    <>
      <Source id="entity-area-source" type="geojson" data={areas}>
        <Layer id={AREA_LAYER} type="fill" paint={{ 'fill-color': VALUE_COLOUR, 'fill-opacity': ['case', SELECTED, 0.6, 0.3] }} />
        <Layer id="entity-area-outline" type="line" paint={{ 'line-color': ['case', SELECTED, '#d46b08', '#1f3b57'], 'line-width': ['case', SELECTED, 3, 1] }} />
      </Source>
      <Source id="entity-point-source" key={clustered ? 'clustered' : 'single'} type="geojson" data={points} cluster={clustered} clusterRadius={40} clusterMaxZoom={16}>
        {clustered && (
          <Layer id={CLUSTER_LAYER} type="circle" filter={['has', 'point_count']}
            paint={{ 'circle-color': '#1f6fb2', 'circle-opacity': 0.75, 'circle-radius': ['step', ['get', 'point_count'], 12, 100, 18, 1000, 24] }} />
        )}
        <Layer id={POINT_LAYER} type="circle" filter={['!', ['has', 'point_count']]}
          paint={{
            'circle-color': VALUE_COLOUR,
            'circle-radius': ['case', SELECTED, 9, 6],
            'circle-stroke-color': ['case', SELECTED, '#d46b08', '#ffffff'],
            'circle-stroke-width': ['case', SELECTED, 3, 1.5],
          }} />
      </Source>
    </>
  );
}
