// An entity as GET /entity-list, GET /entity/{id} and entity_tree answer it (docs/api.md
// "Entity"): the server builds it, the web app reads it. Its own fields are the entity schema's
// (src/schemas/entity.ts), but for the secret and the two fields reads answer in a shape of their
// own; the rest (entity_type, group, groups, and the interface with thingsboard_uuid) is joined.
import { entitySchema } from './entity.ts';
import type { Geometry } from './geometry.ts';

/** Fields reads answer in a shape of their own: group_ids as `group` and `groups`, the interface with `thingsboard_uuid`. */
const RESHAPED_BY_READS = ['group_ids', 'interface'] as const;

type EntityProperties = typeof entitySchema.properties;
type EntityReadField = Exclude<
  { [F in keyof EntityProperties]: EntityProperties[F] extends { 'x-permission': string } ? never : F }[keyof EntityProperties],
  (typeof RESHAPED_BY_READS)[number]
>;

/** The entity schema's fields a read answers as they are: all but a secret (x-permission) and the reshaped ones. */
export const ENTITY_READ_FIELDS = Object.entries(entitySchema.properties)
  .filter(([field, schema]) => !('x-permission' in schema) && !(RESHAPED_BY_READS as readonly string[]).includes(field))
  .map(([field]) => field as EntityReadField);

export interface EntityJson {
  id: number;
  entity_type_id: number;
  parent_id: number | null;
  name: Record<string, string>;
  attributes: Record<string, unknown>;
  geom: Geometry | null;
  level: number;
  tree_path: string;
  group: { id: number; name: string } | null;
  groups: { id: number; name: string }[];
  entity_type: { id: number; name: string; category: string };
  interface: { thingsboard_uuid: string | null; thingsboard_name: string | null; is_gateway: boolean; fk_gateway_id: number | null };
  updated_at: string;
}

/** A field added to the entity schema does not compile here until EntityJson declares it. */
type DeclaresReadFields<T extends Record<EntityReadField, unknown>> = T;
type _EntityJsonHasReadFields = DeclaresReadFields<EntityJson>;

/** A device's latest values: key → { ts (ms), value }, the shape of `entity_updated`'s `diff.telemetry`. */
export type LatestTelemetry = Record<string, { ts: number; value: unknown }>;

/** Children ids GET /entity/{id} and a refused delete list at most (a region of a million lamps is 7 MB of ids); `children_count` counts them all. */
export const MAX_LISTED_CHILDREN = 1_000;

/** GET /entity/{id}: the entity with its first children's ids, how many children it has, and its latest telemetry. */
export type EntityDetailJson = EntityJson & { children: number[]; children_count: number; telemetry: LatestTelemetry };
