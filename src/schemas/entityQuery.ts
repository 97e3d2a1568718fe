// Query parameters of GET /entity-list and the arguments of the GraphQL entity_tree.
import type { FromSchema } from 'json-schema-to-ts';
import { idListSchema, idSchema, NO_NUL } from './bounds.ts';

/** Entities per page of GET /entity-list, at most. */
export const ENTITY_PAGE_MAX = 500;

const level = { type: 'integer', minimum: -1000, maximum: 1000 } as const;
const depth = { type: 'integer', minimum: 0, maximum: 100 } as const;

export const entityListQuerySchema = {
  $id: 'entityListQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    ids: idListSchema,
    level,
    depth,
    type: idSchema,
    group: idSchema,
    search: { type: 'string', maxLength: 200, pattern: NO_NUL },
    gateway: { type: 'string', maxLength: 10, pattern: '^(true|false|\\d{1,10})$' },
    /** That entity and everything under it. */
    region: idSchema,
    /** Any of these entity types (comma list). */
    types: idListSchema,
    /** With per_page: one page in tree order, the number of all matches in X-Total-Count. */
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: ENTITY_PAGE_MAX },
  },
} as const;
export type EntityListQuery = FromSchema<typeof entityListQuerySchema>;

/** entity_tree(id, level, depth, type, group): GraphQL IDs arrive as strings and are coerced. */
export const entityTreeArgsSchema = {
  $id: 'entityTreeArgs',
  type: 'object',
  additionalProperties: false,
  properties: { id: idSchema, level, depth, type: idSchema, group: idSchema },
} as const;
export type EntityTreeArgs = FromSchema<typeof entityTreeArgsSchema>;

export const idParamSchema = {
  $id: 'idParam',
  type: 'object',
  required: ['id'],
  properties: { id: idSchema },
} as const;
export type IdParam = FromSchema<typeof idParamSchema>;

/** entity_updated(entity_ids, type, conn_id): what a subscriber listens to. */
export const entityUpdatedArgsSchema = {
  $id: 'entityUpdatedArgs',
  type: 'object',
  additionalProperties: false,
  properties: {
    entity_ids: { type: 'array', maxItems: 1000, items: idSchema },
    type: idSchema,
    conn_id: { type: 'string', maxLength: 100, pattern: NO_NUL },
  },
} as const;
