// GET /telemetry-keys (docs/api.md "Reads"): the keys some entities report, for pickers such as
// the KPI builder's (what can be charted is what the devices actually send).
import type { FromSchema } from 'json-schema-to-ts';
import { idListSchema } from './bounds.ts';

/** Keys one answer names, at most. */
export const MAX_TELEMETRY_KEYS = 500;

export const telemetryKeysQuerySchema = {
  $id: 'telemetryKeysQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    /** Entities (comma-separated ids); with types, the keys of either. */
    ids: idListSchema,
    /** Entity types (comma-separated ids). */
    types: idListSchema,
  },
} as const;
export type TelemetryKeysQuery = FromSchema<typeof telemetryKeysQuerySchema>;

export const telemetryKeysAnswerSchema = { type: 'array', maxItems: MAX_TELEMETRY_KEYS, items: { type: 'string' } } as const;
