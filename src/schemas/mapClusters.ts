// GET /map-clusters: what the map shows of a viewport when a region holds more devices than a
// browser should hold (a million street lamps, meters, bins and parking bays). The server keeps the
// region's point devices in a grid of clusters (server/cache/mapGrid.ts) and answers the cells of
// the viewport only: a cluster per cell holding several devices, the device itself where it is alone,
// the map is zoomed in past MAX_CLUSTER_ZOOM or the viewport holds few devices. Areas (regions,
// zones, circles) come from GET /map-features (`shape=areas`).
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema, NO_NUL } from './bounds.ts';
import { mapFeaturesQuerySchema } from './mapFeatures.ts';

/** Above this zoom every device is drawn alone (MapLibre's `clusterMaxZoom` of the browser's clusters). */
export const MAX_CLUSTER_ZOOM = 16;
/** A cell's side in screen pixels at its zoom (MapLibre's 512-pixel tiles: 8 cells a tile). */
export const CELL_PX = 64;
/** Cells one answer covers at most: a 4K screen and a margin of a screen's quarter around it. */
export const MAX_VIEWPORT_CELLS = 4_096;
/** Devices one answer lists alone at most; beyond, the fullest cells stay clusters. */
export const MAX_VIEWPORT_POINTS = 10_000;
/** A viewport of this many devices or fewer lists every one alone, whatever the zoom (the browser's clusters began there). */
export const LIST_ALL_UP_TO = 2_000;

/** Groups the map colours at once, at most (a colour each: the palette's ten). */
export const MAX_COLOURED_GROUPS = 10;

/** Characters of the `rules` parameter at most: MAX_RULES rules of MAX_RULE_TEXT characters, escaped. */
export const MAX_RULES_TEXT = 10_000;

/** What a device's flags say (bits of a point's `flags` and a cluster's counts). */
export const DEVICE_FLAGS = { alarm: 1, offline: 2, maintenance: 4 } as const;

const longitude = { type: 'number', minimum: -180, maximum: 180 } as const;
const latitude = { type: 'number', minimum: -85.06, maximum: 85.06 } as const;

export const mapClustersQuerySchema = {
  $id: 'mapClustersQuery',
  type: 'object',
  additionalProperties: false,
  required: ['zoom', 'west', 'south', 'east', 'north'],
  dependencies: { rules: ['attribute'] },
  properties: {
    region: idSchema,
    level: mapFeaturesQuerySchema.properties.level,
    /** The attribute the map colours by: each device listed alone carries its value. */
    attribute: mapFeaturesQuerySchema.properties.attribute,
    /** The colour-by rules, JSON (src/shared/map/ruleConditions.ts ruleConditionsSchema): each cluster counts its devices by the first rule they meet. */
    rules: { type: 'string', minLength: 2, maxLength: MAX_RULES_TEXT, pattern: NO_NUL },
    /** The groups the map colours, in the order chosen (comma list, at most MAX_COLOURED_GROUPS): each cluster counts its devices by the first they are in, each lone device says which. */
    groups: { type: 'string', pattern: `^\\d{1,10}(,\\d{1,10}){0,${MAX_COLOURED_GROUPS - 1}}$`, maxLength: 11 * MAX_COLOURED_GROUPS },
    zoom: { type: 'number', minimum: 0, maximum: 24 },
    west: longitude,
    south: latitude,
    east: longitude,
    north: latitude,
  },
} as const;
export type MapClustersQuery = FromSchema<typeof mapClustersQuerySchema>;

/**
 * [longitude, latitude (the members' mean), count, in alarm, not connected, under maintenance, west,
 * south, east, north (the cell), and with `rules` asked: how many devices meet each rule first, the
 * last how many meet none; with `groups`: how many are in each group first, the last how many in none].
 */
export type MapClusterRow = [lng: number, lat: number, count: number, alarm: number, offline: number, maintenance: number, west: number, south: number, east: number, north: number, classes?: number[]];
/** [id, entity_type_id, level, longitude, latitude, flags (DEVICE_FLAGS), colour value, and with `groups` asked: the first of them it is in, or null]. */
export type MapPointRow = [id: number, entityTypeId: number, level: number, lng: number, lat: number, flags: number, value: unknown, group?: number | null];

export interface MapClusters {
  clusters: MapClusterRow[];
  points: MapPointRow[];
  /** The zoom the cells are of (the asked zoom, whole, at most MAX_CLUSTER_ZOOM). */
  zoom: number;
  /** The map levels the scope's devices are at, in order (the level filter offers them). */
  levels: number[];
}

export const mapClustersAnswerSchema = {
  type: 'object',
  required: ['clusters', 'points', 'zoom', 'levels'],
  properties: {
    clusters: { type: 'array', items: { type: 'array' } },
    points: { type: 'array', items: { type: 'array' } },
    zoom: { type: 'integer' },
    levels: { type: 'array', items: { type: 'integer' } },
  },
} as const;
