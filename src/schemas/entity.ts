// Entity: a region, zone or device of the tenant's tree (SPEC §3). Its reads are the shell's
// (GET /entity-list, /entity/{id}, entity_tree); the engine serves its writes.
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { geometrySchema } from './geometry.ts';
import { overlaySchema } from './overlay.ts';
import { attributes, colour, groupIds, integer, multilingualText, recordId, text, timestamp } from './fields.ts';

const studio = { modules: ['factory-studio'] } as const;
export const ENTITY_ACCESS_TOKEN_PERMISSION = 'dashboard.entity.*';

/**
 * A device's access token chosen by its owner (existing firmware comes with one): at least 20
 * characters of the base64url alphabet, which a URL path and an MQTT user name take as they are;
 * a 20-character random one holds 120 bits (docs/decisions.md "Device access tokens").
 */
export const accessToken = {
  type: 'string', minLength: 20, maxLength: 128, pattern: '^[A-Za-z0-9_-]*$', 'x-widget': 'text',
  'x-errors': { minLength: 'ACCESS_TOKEN_TOO_SHORT', pattern: 'ACCESS_TOKEN_CHARACTERS' },
} as const;

export const entitySchema = {
  $id: 'entity',
  type: 'object',
  additionalProperties: false,
  required: ['entity_type_id', 'name'],
  'x-access': { read: { modules: ['factory-dashboard', 'factory-studio'] }, create: studio, update: studio, delete: studio },
  'x-api': { graphql: { create: 'create_entity', update: 'update_entity', delete: 'delete_entity', type: 'EntityRecord' } },
  'x-title': 'name',
  properties: {
    id: recordId,
    entity_type_id: { ...idSchema, 'x-widget': 'entity-type', 'x-order': 1, 'x-filter': true },
    parent_id: { ...idSchema, type: ['integer', 'null'], 'x-widget': 'entity', 'x-order': 2 },
    name: { ...multilingualText, 'x-column': true, 'x-search': true, 'x-order': 3 },
    level: { ...integer(-1000, 1000), default: 0, 'x-order': 4 },
    group_ids: { ...groupIds, 'x-order': 5 },
    // free JSON; the attributes the product itself reads are declared (and so validated)
    attributes: {
      ...attributes, 'x-order': 6,
      properties: {
        /** A region's or zone's colour on the map. */
        color: colour,
        /** A region's extent on the map: the radius around its centre, in metres. */
        size: integer(1, 100_000),
        /** A region's floor-plan image and where it lies. */
        overlay: overlaySchema,
      },
    },
    geom: { ...geometrySchema, 'x-order': 7 },
    interface: {
      type: 'object', additionalProperties: false, 'x-order': 8,
      properties: {
        thingsboard_name: text(200),
        is_gateway: { type: 'boolean', default: false, 'x-widget': 'switch' },
        fk_gateway_id: { ...idSchema, type: ['integer', 'null'], 'x-widget': 'entity' },
      },
    },
    access_token: { ...accessToken, 'x-permission': ENTITY_ACCESS_TOKEN_PERMISSION, 'x-order': 9 },
    tree_path: { type: 'string', maxLength: 2000, default: '', readOnly: true },
    updated_at: timestamp,
  },
} as const;
export type Entity = FromSchema<typeof entitySchema>;
