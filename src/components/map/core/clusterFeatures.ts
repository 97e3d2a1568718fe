// The server's clusters (GET /map-clusters) as the map draws them: GeoJSON features with their
// counts and cell, coloured by the worst of their devices — or, while the map colours by rules, by
// the rule most of their devices meet, ringed by the worst — and what a click or hover on one finds.
import type { ExpressionSpecification, LngLatBoundsLike, MapGeoJSONFeature } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import type { MapClusterRow } from '../../../schemas/mapClusters.ts';
import { MAINTENANCE_COLOUR } from './maintenanceMarks.ts';

export const SERVER_CLUSTER_LAYER = 'device-clusters';
const ALARM_COLOUR = '#cf1322';
const OFFLINE_COLOUR = '#7a7a7a';
const PLAIN_COLOUR = '#1f6fb2';

export interface ClusterProperties {
  count: number; alarm: number; offline: number; maintenance: number; west: number; south: number; east: number; north: number;
  /** With colour rules: how many meet each rule first, the last how many meet none (comma-separated: a map event's properties are flat)… */
  rules?: string;
  /** …and the colour of the most of them. */
  ruleColour?: string;
}

/** The worst of a cluster's devices' states as a colour, `otherwise` when all are fine. */
const worstOr = (otherwise: string): ExpressionSpecification => [
  'case',
  ['>', ['get', 'alarm'], 0], ALARM_COLOUR,
  ['>', ['get', 'offline'], 0], OFFLINE_COLOUR,
  ['>', ['get', 'maintenance'], 0], MAINTENANCE_COLOUR,
  otherwise,
];
const RULED: ExpressionSpecification = ['has', 'ruleColour'];
export const CLUSTER_FILL: ExpressionSpecification = ['case', RULED, ['to-color', ['get', 'ruleColour']], worstOr(PLAIN_COLOUR)];
export const CLUSTER_RING: ExpressionSpecification = ['case', RULED, worstOr('#ffffff'), '#ffffff'];
/** A ruled cluster's ring is wide enough to read its state by. */
export const CLUSTER_RING_WIDTH: ExpressionSpecification = ['case', RULED, 4, 1.5];

/** The index of the largest count (the first of equals). */
const largest = (counts: readonly number[]) => counts.reduce((best, count, index) => (count > counts[best] ? index : best), 0);

/** `ruleColours`: the colour of each rule and last of the values no rule matches, when the answer counts by them. */
export function clusterCollectionOf(clusters: readonly MapClusterRow[], ruleColours?: readonly string[]): FeatureCollection<Point, ClusterProperties> {
  return {
    type: 'FeatureCollection',
    // no feature id: a map event's id is an entity's (mapFeatures.ts entityIdOf)
    features: clusters.map(([lng, lat, count, alarm, offline, maintenance, west, south, east, north, rules]) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lng, lat] },
      properties: {
        count, alarm, offline, maintenance, west, south, east, north,
        ...(rules && ruleColours?.length === rules.length ? { rules: rules.join(), ruleColour: ruleColours[largest(rules)] } : {}),
      },
    })),
  };
}

/** A hovered cluster's counts by rule (ClusterProperties.rules). */
export const ruleCountsOf = ({ rules }: ClusterProperties): number[] | undefined => rules?.split(',').map(Number);

/** The cell a map event's cluster stands for, or undefined when the event is not on a cluster. */
export function clusterOf(event: { features?: readonly MapGeoJSONFeature[] }): ClusterProperties | undefined {
  const feature = event.features?.[0];
  return feature?.layer.id === SERVER_CLUSTER_LAYER ? feature.properties as ClusterProperties : undefined;
}

export const clusterBoundsOf = ({ west, south, east, north }: ClusterProperties): LngLatBoundsLike => [[west, south], [east, north]];
