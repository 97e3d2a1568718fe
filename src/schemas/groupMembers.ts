// GET /group-members: the ids of a group's entities, a page at a time, so that the map can colour
// a group's members without loading their records (the map already has their positions).
import type { FromSchema } from 'json-schema-to-ts';
import { afterIdSchema, idSchema } from './bounds.ts';
import { mapFeaturesQuerySchema } from './mapFeatures.ts';

/** Ids per page, at most. */
export const GROUP_MEMBERS_PAGE = 50_000;

export const groupMembersQuerySchema = {
  $id: 'groupMembersQuery',
  type: 'object',
  additionalProperties: false,
  required: ['group'],
  properties: {
    group: idSchema,
    /** Only the members in this entity's subtree (the map's region). */
    region: idSchema,
    /** `areas`: only the members drawn as areas (the map's devices say their group in GET /map-clusters). */
    shape: mapFeaturesQuerySchema.properties.shape,
    after: afterIdSchema,
    limit: { type: 'integer', minimum: 1, maximum: GROUP_MEMBERS_PAGE, default: GROUP_MEMBERS_PAGE },
  },
} as const;
export type GroupMembersQuery = FromSchema<typeof groupMembersQuerySchema>;

export const groupMembersAnswerSchema = {
  type: 'object',
  required: ['ids', 'next'],
  properties: {
    ids: { type: 'array', items: { type: 'integer' } },
    /** The `after` of the next page; null on the last. */
    next: { type: ['integer', 'null'] },
  },
} as const;
export type GroupMembers = FromSchema<typeof groupMembersAnswerSchema>;
