// GET /map-config: the base map the web app draws, as the server is configured (MAP_STYLE,
// docs/operations.md "Base map"). Keys are browser keys: they reach every signed-in browser.
import type { FromSchema } from 'json-schema-to-ts';

/** Where the map starts, and the place a lamp without a position is lit for (SPEC §3). */
export const DEFAULT_CENTER = { latitude: 48.145, longitude: 17.109 } as const;

export const BASE_MAP_KINDS = ['offline', 'openfreemap', 'pmtiles', 'maptiler', 'google', 'style'] as const;
export type BaseMapKind = (typeof BASE_MAP_KINDS)[number];

export const baseMapSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: { type: 'string', enum: BASE_MAP_KINDS },
    /** The style (openfreemap, maptiler, style), the archive (pmtiles) or the tile service (google); none for offline. */
    url: { type: 'string' },
    /** The provider's browser key (maptiler, google). */
    key: { type: 'string' },
  },
} as const;
export type BaseMap = FromSchema<typeof baseMapSchema>;

export const mapConfigAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['base_map'],
  properties: { base_map: baseMapSchema },
} as const;
export type MapConfig = FromSchema<typeof mapConfigAnswerSchema>;
