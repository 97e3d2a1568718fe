// Query parameters of GET /entity-list and the GraphQL entity_tree.
import type { FromSchema } from 'json-schema-to-ts';

export const entityListQuerySchema = {
  $id: 'entityListQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    ids: { type: 'string', pattern: '^\\d+(,\\d+)*$', maxLength: 4000 },
    level: { type: 'integer', minimum: -1000, maximum: 1000 },
    depth: { type: 'integer', minimum: 0, maximum: 100 },
    type: { type: 'integer', minimum: 1 },
    group: { type: 'integer', minimum: 1 },
    search: { type: 'string', maxLength: 200 },
    gateway: { type: 'string', pattern: '^(true|false|\\d+)$' },
  },
} as const;
export type EntityListQuery = FromSchema<typeof entityListQuerySchema>;

export const idParamSchema = {
  $id: 'idParam',
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
} as const;
export type IdParam = FromSchema<typeof idParamSchema>;
