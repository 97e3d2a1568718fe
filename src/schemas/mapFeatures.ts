// GET /map-features: what the map draws, compactly and a page at a time, so that a tenant with
// 100,000 devices is not sent 100,000 full records (details come on demand from /entity/{id}).
// Each row is [id, entity_type_id, level, parent_id, position, colour value, colour]: the position
// is [lng, lat] for a point, [lng, lat, radius m] for a circle, the GeoJSON geometry otherwise, or
// null; the colour value is the entity's attribute named by `attribute` (null without one); the
// colour is the entity's own `attributes.color` (#rrggbb, a region's or zone's) or null.
import type { FromSchema } from 'json-schema-to-ts';
import { afterIdSchema, idSchema } from './bounds.ts';

/** Rows per page, at most (a page is built in one statement; the client asks for the next). */
export const MAP_FEATURES_PAGE = 20_000;

export const mapFeaturesQuerySchema = {
  $id: 'mapFeaturesQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    /** The region (or any entity) whose subtree is drawn; every entity of the tenant without it. */
    region: idSchema,
    level: { type: 'integer', minimum: -1000, maximum: 1000 },
    /** The attribute the map colours by. */
    attribute: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\u0000]+$' },
    /** `areas`: only the entities drawn as areas (polygons, circles); the points then come from GET /map-clusters. */
    shape: { type: 'string', enum: ['areas'] },
    after: afterIdSchema,
    limit: { type: 'integer', minimum: 1, maximum: MAP_FEATURES_PAGE, default: MAP_FEATURES_PAGE },
  },
} as const;
export type MapFeaturesQuery = FromSchema<typeof mapFeaturesQuerySchema>;

export type MapPosition = [number, number] | [number, number, number] | { type: string; coordinates: unknown } | null;
export type MapFeatureRow = [id: number, entityTypeId: number, level: number, parentId: number | null, position: MapPosition, value: unknown, colour: string | null];

export const mapFeaturesAnswerSchema = {
  type: 'object',
  required: ['rows', 'next'],
  properties: {
    rows: { type: 'array', items: { type: 'array' } },
    /** The `after` of the next page; null on the last. */
    next: { type: ['integer', 'null'] },
  },
} as const;
export interface MapFeatures { rows: MapFeatureRow[]; next: number | null }
