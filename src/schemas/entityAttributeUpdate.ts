// Arguments of update_entity_attribute(id, vendor, attributes, geom, ts) (SPEC §7): a hand edit
// of an entity's attributes and position from the dashboard, for users holding
// dashboard.entity.manually_editable. Attributes are merged into the entity's (a key given as
// null is removed); `geom` replaces the position when given. Also import_entities: the studio's
// device import, each entity as create_entity takes it.
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema, NO_NUL } from './bounds.ts';
import { attributes } from './fields.ts';
import { geometrySchema } from './geometry.ts';

export const MANUAL_EDIT_PERMISSION = 'dashboard.entity.manually_editable';
/** Attributes the server keeps from the device's connection (ThingsBoard's): shown, never edited by hand. */
export const SERVER_KEPT_ATTRIBUTES = ['active', 'lastActivityTime'] as const;
export const isServerKeptAttribute = (key: string) => (SERVER_KEPT_ATTRIBUTES as readonly string[]).includes(key);
/** SPEC §8: an update that changes no value (the web app's own check before sending says §5's 'No attribute value has changed'). */
export const NO_ATTRIBUTE_CHANGE = 'No attribute value changed';

export const entityAttributeUpdateSchema = {
  $id: 'entityAttributeUpdateArgs',
  type: 'object', additionalProperties: false, required: ['id'],
  properties: {
    id: idSchema,
    /** Who or what made the change (a system's name); 'manual' for a person. */
    vendor: { type: 'string', minLength: 1, maxLength: 100, pattern: NO_NUL, default: 'manual' },
    attributes: { ...attributes, propertyNames: { maxLength: 255, pattern: NO_NUL } },
    geom: geometrySchema,
    /** When the change happened (ms since 1970); now when not given. */
    ts: { type: 'integer', minimum: 946_684_800_000, maximum: 4_102_444_800_000 },
  },
} as const;
export type EntityAttributeUpdate = FromSchema<typeof entityAttributeUpdateSchema>;

/**
 * update_shared_attributes(id, attributes): the device's shared attributes (ThingsBoard's scope:
 * set by the platform, pushed to the device), merged; a key given as null is removed.
 */
export const sharedAttributeUpdateSchema = {
  $id: 'sharedAttributeUpdateArgs',
  type: 'object', additionalProperties: false, required: ['id', 'attributes'],
  properties: { id: idSchema, attributes: { ...attributes, minProperties: 1, propertyNames: { minLength: 1, maxLength: 255, pattern: NO_NUL } } },
} as const;
export type SharedAttributeUpdate = FromSchema<typeof sharedAttributeUpdateSchema>;

/** Devices created from a CSV file at most at once (one transaction). */
export const MAX_IMPORTED_ENTITIES = 1_000;

/** import_entities(entities, dry_run): each entity as create_entity takes it (checked by the engine). */
export const entityImportArgsSchema = {
  $id: 'entityImportArgs',
  type: 'object', additionalProperties: false, required: ['entities'],
  properties: {
    entities: { type: 'array', minItems: 1, maxItems: MAX_IMPORTED_ENTITIES, items: { type: 'object', maxProperties: 20 } },
    dry_run: { type: 'boolean', default: false },
  },
} as const;
export type EntityImportArgs = FromSchema<typeof entityImportArgsSchema>;
