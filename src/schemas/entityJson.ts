// An entity as GET /entity-list and GET /entity/{id} answer it (docs/api.md "Entity"): the
// server builds it, the web app reads it.
import type { Geometry } from './geometry.ts';

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

/** A device's latest values: key → { ts (ms), value }, the shape of `entity_updated`'s `diff.telemetry`. */
export type LatestTelemetry = Record<string, { ts: number; value: unknown }>;

/** GET /entity/{id}: the entity with its children's ids and its latest telemetry. */
export type EntityDetailJson = EntityJson & { children: number[]; telemetry: LatestTelemetry };
