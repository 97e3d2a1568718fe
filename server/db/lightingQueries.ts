// The lighting engine's statements (server/engines/lighting): claiming tenants whose lamps are due
// (SKIP LOCKED and a claim that lapses, so several instances share the work and a dead one's tick
// is taken by another), every lamp of a tenant with the profile it follows, where it stands and
// what it reports, and the decisions written back.
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Tx } from './database.ts';
import { intArrayParam, isoTime, rows } from './rows.ts';

/** How long a claim holds: a tick not finished by then is taken by another instance. */
export const LIGHTING_CLAIM_MS = 60_000;

/** Tenants with a lighting profile whose tick is due, claimed for this instance; each claim ends with `finishTick`. */
export async function claimLightingTicks(db: Database, limit: number): Promise<string[]> {
  // a tenant that has a profile gets its tick row the first time it is looked at
  const claimed = await db.systemQuery<{ tenant_id: string }>(sql`WITH fresh AS (
      INSERT INTO lighting_ticks (tenant_id) SELECT DISTINCT tenant_id FROM profiles ON CONFLICT DO NOTHING
    ), due AS (
      SELECT tenant_id FROM lighting_ticks
      WHERE due_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
      ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    UPDATE lighting_ticks t SET claimed_until = now() + ${`${LIGHTING_CLAIM_MS} milliseconds`}::interval
    FROM due WHERE t.tenant_id = due.tenant_id RETURNING t.tenant_id`);
  return claimed.map((row) => row.tenant_id);
}

/** The tenant's next tick at `dueAt` (ms), its claim released. */
export async function finishTick(tx: Tx, tenantId: string, dueAt: number) {
  await tx.execute(sql`UPDATE lighting_ticks SET due_at = ${new Date(dueAt).toISOString()}::timestamptz, claimed_until = NULL WHERE tenant_id = ${tenantId}`);
}

export interface LampRow {
  entity_id: number;
  /** The profile it follows (its own, a group's, its nearest zone's or region's), or null. */
  profile_id: number | null;
  /** Its own position, else its nearest ancestor's that has one (a point or a circle's centre). */
  longitude: number | null;
  latitude: number | null;
  /** Its latest `lux` reading, and its latest reported `dim_level`. */
  lux: number | null;
  reported_level: number | null;
  reported_at: string | null;
  /** Its state as last decided (null: never decided). */
  level: number | null;
  reason: string | null;
  since: string | null;
  sensor_on: boolean | null;
  state_profile_id: number | null;
  override_level: number | null;
  override_until: string | null;
  /** A command to it not yet answered (queued, sent or delivered). */
  pending_command: boolean;
}

/**
 * The profile assignments that reach lamp `id` (tree path `path`, its own id last), nearest first:
 * its own, then its groups' (by group id), then its ancestors' (a zone, then a region). The first
 * is the one it follows.
 */
const assignmentsOf = (id: SQL, path: SQL) => sql`(
  SELECT 0 AS rank, 'entity' AS kind, pe.entity_id AS target_id, pe.profile_id FROM profile_entities pe WHERE pe.entity_id = ${id}
  UNION ALL
  SELECT 1, 'group', pg.group_id, pg.profile_id FROM entity_groups eg JOIN profile_groups pg ON pg.group_id = eg.group_id WHERE eg.entity_id = ${id}
  UNION ALL
  SELECT 2 + cardinality(${path}) - array_position(${path}, pe.entity_id), 'entity', pe.entity_id, pe.profile_id
  FROM profile_entities pe WHERE pe.entity_id = ANY(${path}) AND pe.entity_id <> ${id}
  ORDER BY rank, target_id) a`;

/**
 * Every lamp (an entity of category `lighting`) of the tenant, or those of them in `only`. A lamp follows the nearest profile:
 * its own assignment, else its first group's (by group id), else its nearest ancestor's in the
 * tree (a zone, then a region; a lamp is the last id of its own tree path).
 */
export function lampsOfTenant(tx: Tx, tenantId: string, only?: number[]): Promise<LampRow[]> {
  return rows<LampRow>(tx, sql`
    WITH lamps AS (
      SELECT e.id, string_to_array(e.tree_path, '.')::int[] AS path
      FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
      WHERE e.tenant_id = ${tenantId} AND t.category = 'lighting'${only ? sql` AND e.id = ANY(${intArrayParam(only)})` : sql``}
    )
    SELECT l.id AS entity_id,
      (SELECT a.profile_id FROM ${assignmentsOf(sql`l.id`, sql`l.path`)} LIMIT 1) AS profile_id,
      position.longitude, position.latitude,
      (SELECT value_num FROM telemetry_latest WHERE entity_id = l.id AND key = 'lux') AS lux,
      reported.value_num AS reported_level, reported.ts AS reported_at,
      s.level, s.reason, s.since, s.sensor_on, s.profile_id AS state_profile_id, s.override_level, s.override_until,
      EXISTS (SELECT 1 FROM device_commands c WHERE c.entity_id = l.id AND c.status IN ('queued', 'sent', 'delivered')) AS pending_command
    FROM lamps l
    LEFT JOIN lamp_states s ON s.entity_id = l.id
    LEFT JOIN telemetry_latest reported ON reported.entity_id = l.id AND reported.key = 'dim_level'
    LEFT JOIN LATERAL (
      SELECT (a.geom -> 'coordinates' ->> 0)::float8 AS longitude, (a.geom -> 'coordinates' ->> 1)::float8 AS latitude
      FROM entities a WHERE a.id = ANY(l.path) AND a.geom ->> 'type' = 'Point'
      ORDER BY array_position(l.path, a.id) DESC LIMIT 1
    ) position ON true
    ORDER BY l.id`);
}

/** What the engine decided for a lamp (written when it changed). */
export interface LampDecision {
  entityId: number;
  profileId: number | null;
  level: number;
  reason: string;
  sensorOn: boolean | null;
}

/** Writes the lamps' decided states (one statement); `since` moves only where the level changed. */
export async function writeLampStates(tx: Tx, tenantId: string, decisions: LampDecision[]) {
  if (!decisions.length) return;
  await tx.execute(sql`INSERT INTO lamp_states (entity_id, tenant_id, profile_id, level, reason, sensor_on)
    SELECT d.entity_id, ${tenantId}, d.profile_id, d.level, d.reason, d.sensor_on
    FROM jsonb_to_recordset(${JSON.stringify(decisions.map((d) => ({ entity_id: d.entityId, profile_id: d.profileId, level: d.level, reason: d.reason, sensor_on: d.sensorOn })))}::jsonb)
      AS d(entity_id int, profile_id int, level int, reason text, sensor_on boolean)
    ON CONFLICT (entity_id) DO UPDATE SET profile_id = excluded.profile_id, reason = excluded.reason, sensor_on = excluded.sensor_on,
      since = CASE WHEN lamp_states.level = excluded.level THEN lamp_states.since ELSE now() END, level = excluded.level`);
}

/** Forgets the states of lamps that follow no profile any more (nothing steers them). */
export async function dropLampStates(tx: Tx, entityIds: number[]) {
  if (!entityIds.length) return;
  await tx.execute(sql`DELETE FROM lamp_states WHERE entity_id = ANY(${intArrayParam(entityIds)})`);
}

/** Ends overrides whose time is up (the profile takes over again at this tick). */
export async function endOverrides(tx: Tx, entityIds: number[]) {
  if (!entityIds.length) return;
  await tx.execute(sql`UPDATE lamp_states SET override_level = NULL, override_until = NULL, override_by = NULL
    WHERE entity_id = ANY(${intArrayParam(entityIds)})`);
}

export interface LightingProfileRow { id: number; type: 'dimming_profile' | 'switching_profile'; definition: Record<string, unknown> }

/** The tenant's lighting profiles by id. */
export async function lightingProfiles(tx: Tx): Promise<Map<number, LightingProfileRow>> {
  const profiles = await rows<LightingProfileRow>(tx, sql`SELECT id, type, definition FROM profiles`);
  return new Map(profiles.map((profile) => [profile.id, profile]));
}


/** What the entity view shows of a lamp: its decided and reported level, the profile it follows and through which assignment. */
export interface LampLightingRow {
  level: number | null;
  reason: string | null;
  since: string | null;
  override_level: number | null;
  override_until: string | null;
  reported_level: number | null;
  reported_at: string | null;
  profile_id: number | null;
  profile_name: string | null;
  through_kind: 'entity' | 'group' | null;
  through_id: number | null;
  through_name: unknown;
}

/** A lamp's lighting (undefined: no lamp of the tenant has that id). */
export async function lampLighting(tx: Tx, entityId: number): Promise<LampLightingRow | undefined> {
  const [row] = await rows<LampLightingRow>(tx, sql`
    WITH l AS (
      SELECT e.id, string_to_array(e.tree_path, '.')::int[] AS path FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
      WHERE e.id = ${entityId} AND t.category = 'lighting'
    )
    SELECT s.level, s.reason, ${isoTime(sql`s.since`)} AS since, s.override_level, ${isoTime(sql`s.override_until`)} AS override_until,
      reported.value_num AS reported_level, ${isoTime(sql`reported.ts`)} AS reported_at,
      a.profile_id, p.name AS profile_name, a.kind AS through_kind, a.target_id AS through_id,
      CASE a.kind WHEN 'group' THEN (SELECT to_jsonb(name) FROM groups WHERE id = a.target_id) ELSE (SELECT name FROM entities WHERE id = a.target_id) END AS through_name
    FROM l
    LEFT JOIN lamp_states s ON s.entity_id = l.id
    LEFT JOIN telemetry_latest reported ON reported.entity_id = l.id AND reported.key = 'dim_level'
    LEFT JOIN LATERAL (SELECT * FROM ${assignmentsOf(sql`l.id`, sql`l.path`)} LIMIT 1) a ON true
    LEFT JOIN profiles p ON p.id = a.profile_id`);
  return row;
}

/** Lamps whose reported level differs from their decided one, longest first (at most `limit`). */
export function driftingLamps(tx: Tx, limit: number) {
  return rows<{ entity_id: number; name: unknown; level: number; reported_level: number | null; since: string }>(tx, sql`
    SELECT s.entity_id, e.name, s.level, reported.value_num AS reported_level, ${isoTime(sql`s.since`)} AS since
    FROM lamp_states s JOIN entities e ON e.id = s.entity_id
    LEFT JOIN telemetry_latest reported ON reported.entity_id = s.entity_id AND reported.key = 'dim_level'
    WHERE reported.value_num IS DISTINCT FROM s.level
    ORDER BY s.since, s.entity_id LIMIT ${limit}`);
}

/** The lamps among `entityIds` and in `groupIds` (lamps only: a zone or region is not overridden). */
const lampsAmong = (entityIds: number[], groupIds: number[]) => sql`
  SELECT e.id FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
  WHERE t.category = 'lighting' AND (e.id = ANY(${intArrayParam(entityIds)})
    OR e.id IN (SELECT entity_id FROM entity_groups WHERE group_id = ANY(${intArrayParam(groupIds)})))`;

export interface OverrideChange { entityIds: number[]; groupIds: number[]; level: number; minutes: number; userId: string }

/** Puts lamps at `level` for `minutes`; answers the lamps overridden. */
export async function overrideLamps(tx: Tx, tenantId: string, change: OverrideChange): Promise<number[]> {
  const overridden = await rows<{ entity_id: number }>(tx, sql`
    INSERT INTO lamp_states (entity_id, tenant_id, level, reason, override_level, override_until, override_by)
    SELECT id, ${tenantId}, ${change.level}, 'override', ${change.level}, now() + ${change.minutes} * interval '1 minute', ${change.userId}::uuid
    FROM (${lampsAmong(change.entityIds, change.groupIds)}) lamps
    ON CONFLICT (entity_id) DO UPDATE SET since = CASE WHEN lamp_states.level = excluded.level THEN lamp_states.since ELSE now() END,
      level = excluded.level, reason = 'override', override_level = excluded.override_level, override_until = excluded.override_until, override_by = excluded.override_by
    RETURNING entity_id`);
  return overridden.map((row) => row.entity_id);
}

/** Ends the overrides of lamps among `entityIds` and in `groupIds`; answers the lamps whose override ended. */
export async function endLampOverrides(tx: Tx, entityIds: number[], groupIds: number[]): Promise<number[]> {
  const ended = await rows<{ entity_id: number }>(tx, sql`UPDATE lamp_states SET override_level = NULL, override_until = NULL, override_by = NULL
    WHERE override_until IS NOT NULL AND entity_id IN (${lampsAmong(entityIds, groupIds)}) RETURNING entity_id`);
  return ended.map((row) => row.entity_id);
}
