// Lighting's GraphQL documents (server/graphql/lightingGraphql.ts) and the answers the pages read.
import type { LocalizedValue } from '../../shared/i18n/pickLocalized.ts';

/** Why a lamp has its level: the profile's reasons (src/lighting, LevelReason), or an operator's override. */
export type LampReason = 'interval' | 'astro-night' | 'astro-day' | 'sensor' | 'exception' | 'off' | 'override';

export interface LampCommand {
  id: string;
  method: string;
  params: { level?: number } | null;
  /** queued, sent, delivered, ok, failed or expired. */
  status: string;
  source: string;
  created_at: string;
  answered_at: string | null;
}

/** What the entity view shows of a lamp. */
export interface LampLighting {
  entity_id: string;
  /** The level the lamp must have now (null: nothing decided yet). */
  level: number | null;
  reason: LampReason | null;
  since: string | null;
  reported_level: number | null;
  reported_at: string | null;
  override_level: number | null;
  override_until: string | null;
  profile: { id: string; name: string } | null;
  /** The assignment the profile reaches the lamp through: the lamp's own, a group's, or a zone's or region's. */
  through: { kind: 'entity' | 'group'; id: string; name: LocalizedValue } | null;
  drifting: boolean;
  commands: LampCommand[];
}

export const LAMP_LIGHTING = `query ($id: ID!) { lamp_lighting(entity_id: $id) {
  entity_id level reason since reported_level reported_at override_level override_until
  profile { id name } through { kind id name } drifting
  commands { id method params status source created_at answered_at } } }`;

export interface DriftingLamp {
  entity_id: string;
  name: LocalizedValue;
  level: number;
  reported_level: number | null;
  since: string;
}

/** The tenant's lamps whose reported level is not their own, longest first. */
export const DRIFTING_LAMPS = '{ drifting_lamps { entity_id name level reported_level since } }';

/** Puts lamps at a level for some minutes (permission dashboard.entity.manually_editable). */
export const OVERRIDE_LIGHTING = `mutation ($ids: [ID!], $level: Int!, $minutes: Int!) {
  override_lighting(entity_ids: $ids, level: $level, minutes: $minutes) { entity_ids until } }`;

/** Ends the lamps' overrides: they follow their profile again. */
export const END_LIGHTING_OVERRIDE = 'mutation ($ids: [ID!]) { end_lighting_override(entity_ids: $ids) { entity_ids } }';
