// An entity's position (`geom`): GeoJSON in longitude/latitude (WGS 84) — a Point, a Point with
// a `radius` in metres (a circle), a Polygon or a MultiPolygon. The schema bounds its shape and
// every coordinate; `geometryProblem` adds what a schema cannot say (a ring ends where it
// starts) and is used by the server before a write and by the map before it saves.

/** Web Mercator's limit: a map cannot show a point nearer the poles. */
export const MAX_LATITUDE = 85.0511;
/** Positions of one geometry, at most (a body of 512 kB holds about 25,000). */
export const MAX_POSITIONS = 20_000;
/** Largest circle radius (m). */
export const MAX_RADIUS_M = 100_000;

const longitude = { type: 'number', minimum: -180, maximum: 180 } as const;
const latitude = { type: 'number', minimum: -MAX_LATITUDE, maximum: MAX_LATITUDE } as const;
const position = { type: 'array', minItems: 2, maxItems: 2, items: [longitude, latitude] } as const;
const ring = { type: 'array', minItems: 4, maxItems: MAX_POSITIONS, items: position } as const;
const polygon = { type: 'array', minItems: 1, maxItems: 100, items: ring } as const;
const multiPolygon = { type: 'array', minItems: 1, maxItems: 100, items: polygon } as const;

export const GEOMETRY_TYPES = ['Point', 'Polygon', 'MultiPolygon'] as const;

export const geometrySchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['type', 'coordinates'],
  properties: {
    type: { type: 'string', enum: GEOMETRY_TYPES },
    coordinates: { anyOf: [position, polygon, multiPolygon] },
    radius: { type: 'number', exclusiveMinimum: 0, maximum: MAX_RADIUS_M },
  },
  examples: [{ type: 'Point', coordinates: [17.109, 48.145] }],
  'x-widget': 'json',
} as const;

export type Position = [number, number];
export type Geometry =
  | { type: 'Point'; coordinates: Position; radius?: number }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

const depthOf: Record<Geometry['type'], number> = { Point: 0, Polygon: 2, MultiPolygon: 3 };

/** How deeply `value` nests arrays before reaching a number (a position is 1). */
function nesting(value: unknown): number {
  let depth = 0;
  let current = value;
  while (Array.isArray(current)) {
    depth++;
    current = current[0];
  }
  return depth;
}

/**
 * What is wrong with a geometry the schema let through, as a sentence, or undefined: the
 * coordinates must nest as the type says, a radius belongs to a point, every ring ends where it
 * starts, and the whole has at most MAX_POSITIONS positions.
 */
export function geometryProblem(geom: Geometry | null | undefined): string | undefined {
  if (!geom) return undefined;
  if (nesting(geom.coordinates) !== depthOf[geom.type] + 1) return `the coordinates of a ${geom.type} must be ${geom.type === 'Point' ? '[longitude, latitude]' : geom.type === 'Polygon' ? 'a list of rings' : 'a list of polygons'}`;
  if ('radius' in geom && geom.radius !== undefined && geom.type !== 'Point') return 'only a point (a circle\'s centre) may have a radius';
  if (geom.type === 'Point') return undefined;
  const polygons = geom.type === 'Polygon' ? [geom.coordinates] : geom.coordinates;
  let positions = 0;
  for (const rings of polygons) {
    for (const points of rings) {
      positions += points.length;
      const [first, last] = [points[0], points[points.length - 1]];
      if (first[0] !== last[0] || first[1] !== last[1]) return 'every ring of a polygon must end where it starts';
    }
  }
  if (positions > MAX_POSITIONS) return `a geometry has at most ${MAX_POSITIONS.toLocaleString('en')} positions`;
  return undefined;
}
