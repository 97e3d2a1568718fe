// The server's clusters (GET /map-clusters) as the map draws them: GeoJSON features with their
// counts and cell, coloured by the worst of their devices — or, while the map colours by rules or
// groups, by the class (the rule met, the group) most of their devices are in, ringed by the worst —
// and what a click or hover on one finds.
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
  /** Counted by rules or groups: how many are in each class, the last how many in none (comma-separated: a map event's properties are flat)… */
  classes?: string;
  /** …and the colour of the most of them. */
  classColour?: string;
}

/** The worst of a cluster's devices' states as a colour, `otherwise` when all are fine. */
const worstOr = (otherwise: string): ExpressionSpecification => [
  'case',
  ['>', ['get', 'alarm'], 0], ALARM_COLOUR,
  ['>', ['get', 'offline'], 0], OFFLINE_COLOUR,
  ['>', ['get', 'maintenance'], 0], MAINTENANCE_COLOUR,
  otherwise,
];
const CLASSED: ExpressionSpecification = ['has', 'classColour'];
export const CLUSTER_FILL: ExpressionSpecification = ['case', CLASSED, ['to-color', ['get', 'classColour']], worstOr(PLAIN_COLOUR)];
export const CLUSTER_RING: ExpressionSpecification = ['case', CLASSED, worstOr('#ffffff'), '#ffffff'];
/** A classed cluster's ring is wide enough to read its state by. */
export const CLUSTER_RING_WIDTH: ExpressionSpecification = ['case', CLASSED, 4, 1.5];

/** The index of the largest count (the first of equals). */
const largest = (counts: readonly number[]) => counts.reduce((best, count, index) => (count > counts[best] ? index : best), 0);

/** `classColours`: the colour of each class (a rule, a group) and last of the rest, when the answer counts by them. */
export function clusterCollectionOf(clusters: readonly MapClusterRow[], classColours?: readonly string[]): FeatureCollection<Point, ClusterProperties> {
  return {
    type: 'FeatureCollection',
    // no feature id: a map event's id is an entity's (mapFeatures.ts entityIdOf)
    features: clusters.map(([lng, lat, count, alarm, offline, maintenance, west, south, east, north, classes]) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lng, lat] },
      properties: {
        count, alarm, offline, maintenance, west, south, east, north,
        ...(classes && classColours?.length === classes.length ? { classes: classes.join(), classColour: classColours[largest(classes)] } : {}),
      },
    })),
  };
}

/** A hovered cluster's counts by class (ClusterProperties.classes). */
export const classCountsOf = ({ classes }: ClusterProperties): number[] | undefined => classes?.split(',').map(Number);

/** The cell a map event's cluster stands for, or undefined when the event is not on a cluster. */
export function clusterOf(event: { features?: readonly MapGeoJSONFeature[] }): ClusterProperties | undefined {
  const feature = event.features?.[0];
  return feature?.layer.id === SERVER_CLUSTER_LAYER ? feature.properties as ClusterProperties : undefined;
}

export const clusterBoundsOf = ({ west, south, east, north }: ClusterProperties): LngLatBoundsLike => [[west, south], [east, north]];
