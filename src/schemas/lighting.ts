// The lighting doors beyond the profile model (docs/lighting.md): an operator's override of lamps
// or groups for a while (permission dashboard.entity.manually_editable), its end, and what the
// entity view shows of a lamp (desired against reported level, the profile it follows and from
// where, its recent commands).
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { entityIds, groupIds, integer } from './fields.ts';

/** An override lasts at most a day. */
export const MAX_OVERRIDE_MINUTES = 24 * 60;

const targets = {
  entity_ids: { ...entityIds, items: idSchema },
  group_ids: { ...groupIds, items: idSchema },
} as const;

export const lightingOverrideArgsSchema = {
  $id: 'lightingOverrideArgs',
  type: 'object', additionalProperties: false, required: ['level', 'minutes'],
  properties: { ...targets, level: integer(0, 100), minutes: integer(1, MAX_OVERRIDE_MINUTES) },
  anyOf: [{ required: ['entity_ids'], properties: { entity_ids: { type: 'array', minItems: 1 } } }, { required: ['group_ids'], properties: { group_ids: { type: 'array', minItems: 1 } } }],
} as const;
export type LightingOverrideArgs = FromSchema<typeof lightingOverrideArgsSchema>;

export const lightingOverrideEndArgsSchema = {
  $id: 'lightingOverrideEndArgs',
  type: 'object', additionalProperties: false,
  properties: targets,
  anyOf: lightingOverrideArgsSchema.anyOf,
} as const;
export type LightingOverrideEndArgs = FromSchema<typeof lightingOverrideEndArgsSchema>;

export const lampLightingArgsSchema = {
  $id: 'lampLightingArgs',
  type: 'object', additionalProperties: false, required: ['entity_id'],
  properties: { entity_id: idSchema },
} as const;
