// The entities on the map: points (clustered when many) and areas (polygons and circles), at the
// chosen map level and in the chosen colouring (entityStyle.ts), with the selected one and those
// under device maintenance drawn apart through their feature states.
import type { ExpressionSpecification, GeoJSONFeatureDiff, GeoJSONSource } from 'maplibre-gl';
import { useEffect, useMemo, useRef } from 'react';
import { Layer, Source, useMap } from 'react-map-gl/maplibre';
import type { MapFeatureRow } from '../../schemas/mapFeatures.ts';
import { LIST_ALL_UP_TO } from '../../schemas/mapClusters.ts';
import type { PatchStream } from './core/mapPatches.ts';
import { collectionsOf, levelsOf, type EntityProperties } from './core/mapFeatures.ts';
import { clusterFilter, clusterLevelProperties, clusterSize, entityColour, levelFilter, type MapColouring } from './core/entityStyle.ts';
import { GROUP_STATE, IS_GROUP_MEMBER } from './core/groupColours.ts';
import { MAINTENANCE_COLOUR, MAINTENANCE_STATE, UNDER_MAINTENANCE, useMaintenanceMarks } from './core/maintenanceMarks.ts';
import { useFeatureStates } from './core/useFeatureStates.ts';
import { useRenderedSummary } from './core/renderedSummary.ts';
import { SERVER_CLUSTER_LAYER } from './core/clusterFeatures.ts';

export const POINT_LAYER = 'entity-points';
export const AREA_LAYER = 'entity-areas';
export const CLUSTER_LAYER = 'entity-clusters';


const SELECTED: ExpressionSpecification = ['boolean', ['feature-state', 'selected'], false];
const NOT_CLUSTER: ExpressionSpecification = ['!', ['has', 'point_count']];
const NO_GROUPS: MapColouring = { groups: [] };
const NO_MEMBERS: ReadonlyMap<number, number> = new Map();
/** What data-visible-entities counts (renderedSummary.ts): the entities drawn alone and the server's clusters. */
const SHOWN_LAYERS = [POINT_LAYER, AREA_LAYER, SERVER_CLUSTER_LAYER];

const POINT_SOURCE = 'entity-point-source';
const AREA_SOURCE = 'entity-area-source';
/** Where an entity is drawn, and its properties there. */
interface Held { source: typeof POINT_SOURCE | typeof AREA_SOURCE; properties: EntityProperties }
const SOURCES = [POINT_SOURCE, AREA_SOURCE];

interface EntityLayersProps {
  rows: readonly MapFeatureRow[];
  selectedId?: number;
  patches?: PatchStream;
  /** Only the entities of this map level; all without it. */
  level?: number;
  colouring?: MapColouring;
  /** The chosen group of each member of a chosen group (entity id → group id). */
  memberGroup?: ReadonlyMap<number, number>;
  /** Whether many points are grouped into clusters here (not when the server clustered them already). */
  clustering?: boolean;
}

export function EntityLayers({ rows, selectedId, patches, level, colouring = NO_GROUPS, memberGroup = NO_MEMBERS, clustering = true }: EntityLayersProps) {
  const { current: map } = useMap();
  const { points, areas } = useMemo(() => collectionsOf(rows), [rows]);
  // beyond as many points as the server lists alone, nearby ones are grouped into clusters
  const clustered = clustering && points.features.length > LIST_ALL_UP_TO;
  const levelCounts = useMemo(() => (clustered ? clusterLevelProperties(levelsOf(rows)) : undefined), [clustered, rows]);
  const colour = useMemo(() => entityColour(colouring), [colouring]);
  // with groups chosen, the rest is dimmed
  const grouped = colouring.groups.length > 0;
  const opacity = (member: number, other: number): ExpressionSpecification | number => (grouped ? ['case', IS_GROUP_MEMBER, member, other] : member);
  useFeatureStates(SOURCES, GROUP_STATE, memberGroup, points);
  useFeatureStates(SOURCES, MAINTENANCE_STATE, useMaintenanceMarks(), points);
  useRenderedSummary(SHOWN_LAYERS);
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
    const targets = SOURCES.filter((source) => map.getSource(source));
    for (const source of targets) map.setFeatureState({ source, id: selectedId }, { selected: true });
    return () => {
      for (const source of targets) if (map.getSource(source)) map.setFeatureState({ source, id: selectedId }, { selected: false });
    };
  }, [map, selectedId, rows]);

  return (
    <>
      <Source id={AREA_SOURCE} type="geojson" data={areas}>
        <Layer id={AREA_LAYER} type="fill" filter={levelFilter(level)}
          paint={{ 'fill-color': colour, 'fill-opacity': ['case', SELECTED, 0.6, opacity(0.3, 0.12)] }} />
        <Layer id="entity-area-outline" type="line" filter={levelFilter(level)}
          paint={{
            'line-color': ['case', SELECTED, '#d46b08', UNDER_MAINTENANCE, MAINTENANCE_COLOUR, '#1f3b57'],
            'line-width': ['case', SELECTED, 3, UNDER_MAINTENANCE, 3, 1],
            'line-opacity': opacity(1, 0.35),
          }} />
      </Source>
      <Source id={POINT_SOURCE} key={clustered ? `clustered:${Object.keys(levelCounts ?? {}).join()}` : 'single'} type="geojson" data={points}
        cluster={clustered} clusterRadius={40} clusterMaxZoom={16} clusterProperties={levelCounts}>
        {clustered && (
          <Layer id={CLUSTER_LAYER} type="circle" filter={clusterFilter(level, !!levelCounts)}
            paint={{ 'circle-color': '#1f6fb2', 'circle-opacity': 0.75, 'circle-radius': ['step', clusterSize(level, !!levelCounts), 12, 100, 18, 1000, 24] }} />
        )}
        <Layer id={POINT_LAYER} type="circle" filter={levelFilter(level, NOT_CLUSTER)}
          paint={{
            'circle-color': colour,
            'circle-opacity': opacity(1, 0.45),
            'circle-stroke-opacity': opacity(1, 0.45),
            'circle-radius': ['case', SELECTED, 9, 6],
            'circle-stroke-color': ['case', SELECTED, '#d46b08', UNDER_MAINTENANCE, MAINTENANCE_COLOUR, '#ffffff'],
            'circle-stroke-width': ['case', SELECTED, 3, UNDER_MAINTENANCE, 3, 1.5],
          }} />
      </Source>
    </>
  );
}
