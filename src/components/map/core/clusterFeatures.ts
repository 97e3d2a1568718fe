// The server's clusters (GET /map-clusters) as the map draws them: GeoJSON features with their
// counts and cell, coloured by the worst of their devices, and what a click or hover on one finds.
import type { ExpressionSpecification, LngLatBoundsLike, MapGeoJSONFeature } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import type { MapClusterRow } from '../../../schemas/mapClusters.ts';
import { MAINTENANCE_COLOUR } from './maintenanceMarks.ts';

export const SERVER_CLUSTER_LAYER = 'device-clusters';
const ALARM_COLOUR = '#cf1322';
const OFFLINE_COLOUR = '#7a7a7a';
const PLAIN_COLOUR = '#1f6fb2';

export interface ClusterProperties { count: number; alarm: number; offline: number; maintenance: number; west: number; south: number; east: number; north: number }

export const WORST_COLOUR: ExpressionSpecification = [
  'case',
  ['>', ['get', 'alarm'], 0], ALARM_COLOUR,
  ['>', ['get', 'offline'], 0], OFFLINE_COLOUR,
  ['>', ['get', 'maintenance'], 0], MAINTENANCE_COLOUR,
  PLAIN_COLOUR,
];

export function clusterCollectionOf(clusters: readonly MapClusterRow[]): FeatureCollection<Point, ClusterProperties> {
  return {
    type: 'FeatureCollection',
    // no feature id: a map event's id is an entity's (mapFeatures.ts entityIdOf)
    features: clusters.map(([lng, lat, count, alarm, offline, maintenance, west, south, east, north]) => ({
      type: 'Feature', geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { count, alarm, offline, maintenance, west, south, east, north },
    })),
  };
}

/** The cell a map event's cluster stands for, or undefined when the event is not on a cluster. */
export function clusterOf(event: { features?: readonly MapGeoJSONFeature[] }): ClusterProperties | undefined {
  const feature = event.features?.[0];
  return feature?.layer.id === SERVER_CLUSTER_LAYER ? feature.properties as ClusterProperties : undefined;
}

export const clusterBoundsOf = ({ west, south, east, north }: ClusterProperties): LngLatBoundsLike => [[west, south], [east, north]];
