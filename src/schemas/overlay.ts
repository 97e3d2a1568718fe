// A region's floor-plan image overlay (SPEC §3 dashboard state: url, scale, locked, coordinates).
// The image itself is one file per region behind /entity/{id}/overlay-image; where it lies is
// kept in the region's attributes.overlay, validated by this schema.
import type { FromSchema } from 'json-schema-to-ts';
import { MAX_LATITUDE } from './geometry.ts';

export const OVERLAY_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const OVERLAY_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type OverlayImageType = typeof OVERLAY_IMAGE_TYPES[number];
export const OVERLAY_IMAGE_TYPE_MESSAGE = 'The image overlay must be a PNG, JPEG or WebP image.';
export const OVERLAY_IMAGE_SIZE_MESSAGE = 'The image overlay must be 5 MB or smaller.';
export const OVERLAY_NOT_A_REGION_MESSAGE = 'Only a region can have an image overlay.';

/** The address of a region's overlay image; `v` changes with each upload (browser caches). */
export const overlayImagePath = (id: number, version?: string) => `/entity/${id}/overlay-image${version ? `?v=${version}` : ''}`;

/** [lng, lat]; the latitude's tighter bound is checked by `overlayProblem`. */
const lngLat = { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', minimum: -180, maximum: 180 } } as const;

export const overlaySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'coordinates'],
  'x-widget': 'json',
  examples: [{ url: '/entity/1/overlay-image?v=1', coordinates: [[17.1, 48.15], [17.11, 48.15], [17.11, 48.14], [17.1, 48.14]], scale: 1, locked: false }],
  properties: {
    url: { type: 'string', maxLength: 100, pattern: '^/entity/[0-9]{1,10}/overlay-image(\\?v=[0-9a-z]{1,20})?$' },
    /** The corners top-left, top-right, bottom-right, bottom-left as placed, before the scale. */
    coordinates: { type: 'array', minItems: 4, maxItems: 4, items: lngLat },
    /** Drawn at this size around the corners' centre. */
    scale: { type: 'number', minimum: 0.1, maximum: 10, default: 1 },
    /** A locked overlay cannot be moved or scaled. */
    locked: { type: 'boolean', default: false },
  },
} as const;
export type Overlay = FromSchema<typeof overlaySchema, { keepDefaultedPropertiesOptional: true }>;
export type Corners = [[number, number], [number, number], [number, number], [number, number]];

/** What is wrong with an overlay's placement beyond its schema, or undefined. */
export function overlayProblem(overlay: Overlay | undefined): string | undefined {
  if (!overlay) return undefined;
  const index = (overlay.coordinates as number[][]).findIndex(([, lat]) => Math.abs(lat) > MAX_LATITUDE);
  return index < 0 ? undefined : `coordinates[${index}] latitude must be within ±${MAX_LATITUDE}`;
}

type Placement = Pick<Overlay, 'coordinates' | 'scale'>;

const centreOf = (corners: Corners) => [0, 1].map((axis) => corners.reduce((sum, corner) => sum + corner[axis], 0) / 4);

/** The corners as drawn: each placed corner moved from their centre by the scale. */
export function scaledCorners({ coordinates, scale = 1 }: Placement): Corners {
  const [cx, cy] = centreOf(coordinates as Corners);
  return (coordinates as Corners).map(([x, y]) => [cx + (x - cx) * scale, cy + (y - cy) * scale]) as Corners;
}

/**
 * The placement after the drawn corner `index` was dragged to `to`: the corners as drawn, that one
 * moved, at scale 1 — what is seen is what is kept (scaling the moved corners about their new
 * centre would shift the other three).
 */
export function withCornerMoved(placement: Placement, index: number, to: [number, number]): { coordinates: Corners; scale: number } {
  const coordinates = scaledCorners(placement);
  coordinates[index] = to;
  return { coordinates, scale: 1 };
}

/** A first placement: the image's aspect kept, about `widthMetres` wide, centred on a point. */
export function cornersAround([lng, lat]: [number, number], aspect: number, widthMetres = 200): Corners {
  const dLng = widthMetres / 2 / (111_320 * Math.cos((lat * Math.PI) / 180));
  const dLat = widthMetres / 2 / aspect / 110_574;
  return [[lng - dLng, lat + dLat], [lng + dLng, lat + dLat], [lng + dLng, lat - dLat], [lng - dLng, lat - dLat]];
}
