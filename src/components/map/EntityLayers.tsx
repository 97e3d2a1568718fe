// The entities on the map: points (clustered when many, coloured by the chosen attribute) and areas
// (polygons and circles), with the selected one drawn apart through its feature state.
import type { ExpressionSpecification, GeoJSONFeatureDiff, GeoJSONSource } from 'maplibre-gl';
import { useEffect, useMemo, useRef } from 'react';
import { Layer, Source, useMap } from 'react-map-gl/maplibre';
import type { MapFeatureRow } from '../../schemas/mapFeatures.ts';
import type { PatchStream } from './mapPatches.ts';
import { collectionsOf, type EntityProperties } from './mapFeatures.ts';

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
/** The entity's own colour (a region's or zone's) when it has one, else the colour of its value. */
const ENTITY_COLOUR: ExpressionSpecification = ['case', ['has', 'colour'], ['to-color', ['get', 'colour']], VALUE_COLOUR];

const POINT_SOURCE = 'entity-point-source';
const AREA_SOURCE = 'entity-area-source';
/** Where an entity is drawn, and its properties there. */
interface Held { source: typeof POINT_SOURCE | typeof AREA_SOURCE; properties: EntityProperties }

export function EntityLayers({ rows, selectedId, patches }: { rows: readonly MapFeatureRow[]; selectedId?: number; patches?: PatchStream }) {
  const { current: map } = useMap();
  const { points, areas } = useMemo(() => collectionsOf(rows), [rows]);
  const clustered = points.features.length > CLUSTER_FROM;
  // which source holds each entity now, with its properties (live changes may move one between them)
  const holder = useRef(new Map<number, Held>());
  useEffect(() => {
    holder.current = new Map<number, Held>([
      ...points.features.map((feature): [number, Held] => [feature.properties.id, { source: POINT_SOURCE, properties: feature.properties }]),
      ...areas.features.map((feature): [number, Held] => [feature.properties.id, { source: AREA_SOURCE, properties: feature.properties }]),
    ]);
  }, [points, areas]);

  // Live changes straight into the sources (updateData: only the changed features travel to the
  // worker, no re-upload of the rest); a count on the map's element says when they are drawn.
  useEffect(() => {
    if (!map || !patches) return undefined;
    return patches.subscribe((changes) => {
      const diffs = { [POINT_SOURCE]: { update: [] as GeoJSONFeatureDiff[], remove: [] as number[], add: [] as GeoJSON.Feature[] }, [AREA_SOURCE]: { update: [] as GeoJSONFeatureDiff[], remove: [] as number[], add: [] as GeoJSON.Feature[] } };
      for (const [id, patch] of changes) {
        const held = holder.current.get(id);
        if (!held) continue; // not on this map
        const properties = 'value' in patch ? { ...held.properties, value: patch.value } : held.properties;
        if (patch.deleted || patch.position !== undefined) {
          diffs[held.source].remove.push(id);
          holder.current.delete(id);
          if (patch.deleted || !patch.position) continue;
          const { type, level, parent, value, colour } = properties;
          const single = collectionsOf([[id, type, level, parent, patch.position, value, colour ?? null]]);
          const [moved] = [...single.points.features, ...single.areas.features];
          if (!moved) continue;
          const source = moved.geometry.type === 'Point' ? POINT_SOURCE : AREA_SOURCE;
          diffs[source].add.push(moved);
          holder.current.set(id, { source, properties });
        } else if ('value' in patch) {
          diffs[held.source].update.push({ id, addOrUpdateProperties: [{ key: 'value', value: patch.value }] });
          holder.current.set(id, { ...held, properties });
        }
      }
      const updates = Object.entries(diffs).filter(([, diff]) => diff.update.length || diff.remove.length || diff.add.length)
        .map(([source, diff]) => (map.getSource(source) as GeoJSONSource | undefined)?.updateData(diff));
      void Promise.all(updates).then(() => map.once('render', () => {
        const element = map.getContainer();
        element.dataset.patches = String(Number(element.dataset.patches ?? 0) + changes.size);
      }));
    });
  }, [map, patches]);

  useEffect(() => {
    if (!map || selectedId === undefined) return;
    const targets = [POINT_SOURCE, AREA_SOURCE].filter((source) => map.getSource(source));
    for (const source of targets) map.setFeatureState({ source, id: selectedId }, { selected: true });
    return () => {
      for (const source of targets) if (map.getSource(source)) map.setFeatureState({ source, id: selectedId }, { selected: false });
    };
  }, [map, selectedId, rows]);

  return (
    <>
      <Source id={AREA_SOURCE} type="geojson" data={areas}>
        <Layer id={AREA_LAYER} type="fill" paint={{ 'fill-color': ENTITY_COLOUR, 'fill-opacity': ['case', SELECTED, 0.6, 0.3] }} />
        <Layer id="entity-area-outline" type="line" paint={{ 'line-color': ['case', SELECTED, '#d46b08', '#1f3b57'], 'line-width': ['case', SELECTED, 3, 1] }} />
      </Source>
      <Source id={POINT_SOURCE} key={clustered ? 'clustered' : 'single'} type="geojson" data={points} cluster={clustered} clusterRadius={40} clusterMaxZoom={16}>
        {clustered && (
          <Layer id={CLUSTER_LAYER} type="circle" filter={['has', 'point_count']}
            paint={{ 'circle-color': '#1f6fb2', 'circle-opacity': 0.75, 'circle-radius': ['step', ['get', 'point_count'], 12, 100, 18, 1000, 24] }} />
        )}
        <Layer id={POINT_LAYER} type="circle" filter={['!', ['has', 'point_count']]}
          paint={{
            'circle-color': ENTITY_COLOUR,
            'circle-radius': ['case', SELECTED, 9, 6],
            'circle-stroke-color': ['case', SELECTED, '#d46b08', '#ffffff'],
            'circle-stroke-width': ['case', SELECTED, 3, 1.5],
          }} />
      </Source>
    </>
  );
}
