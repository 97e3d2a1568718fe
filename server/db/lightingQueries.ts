// The lighting engine's statements (server/engines/lighting): claiming tenants whose lamps are due
// (SKIP LOCKED and a claim that lapses, so several instances share the work and a dead one's tick
// is taken by another), every lamp of a tenant with the profile it follows, where it stands and
// what it reports, and the decisions written back.
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Tx } from './database.ts';
import { intArrayParam, isoTime, rows } from './rows.ts';

/** How long a claim holds: a tick not finished by then is taken by another instance. */
export const LIGHTING_CLAIM_MS = 60_000;
/** When a claim made now lapses. */
const CLAIMED_UNTIL = sql`now() + ${`${LIGHTING_CLAIM_MS} milliseconds`}::interval`;

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
    UPDATE lighting_ticks t SET claimed_until = ${CLAIMED_UNTIL}
    FROM due WHERE t.tenant_id = due.tenant_id RETURNING t.tenant_id`);
  return claimed.map((row) => row.tenant_id);
}

/** The tenant's tick still claimed for LIGHTING_CLAIM_MS (a tick of many lamps takes many transactions). */
export async function holdTick(tx: Tx, tenantId: string) {
  await tx.execute(sql`UPDATE lighting_ticks SET claimed_until = ${CLAIMED_UNTIL} WHERE tenant_id = ${tenantId}`);
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
 * The profile each lamp of `lamps` (a relation of `id` and tree `path`, its own id last) follows,
 * with the assignment it comes through: nearest first — its own, then its groups' (by group id),
 * then its ancestors' (a zone, then a region). Set-based: a window of ten thousand lamps is a few
 * joins, not ten thousand lookups. `near(column)` narrows a lamp-keyed table's rows to the lamps' ids.
 */
const assignmentsOfLamps = (lamps: SQL, near: (column: SQL) => SQL = () => sql`true`) => sql`(
  SELECT DISTINCT ON (a.lamp_id) a.lamp_id, a.kind, a.target_id, a.profile_id FROM (
    SELECT l.id AS lamp_id, 0 AS rank, 'entity' AS kind, pe.entity_id AS target_id, pe.profile_id
    FROM ${lamps} l JOIN profile_entities pe ON pe.entity_id = l.id
    UNION ALL
    SELECT l.id, 1, 'group', pg.group_id, pg.profile_id
    FROM ${lamps} l JOIN entity_groups eg ON eg.entity_id = l.id AND ${near(sql`eg.entity_id`)} JOIN profile_groups pg ON pg.group_id = eg.group_id
    UNION ALL
    SELECT l.id, 2 + cardinality(l.path) - array_position(l.path, pe.entity_id), 'entity', pe.entity_id, pe.profile_id
    FROM ${lamps} l JOIN profile_entities pe ON pe.entity_id = ANY(l.path) AND pe.entity_id <> l.id
  ) a ORDER BY a.lamp_id, a.rank, a.target_id)`;

/** Which lamps of a tenant a lighting pass reads: those among some ids, or a window of them in id order after `after`. */
export type LampSelection = { only: number[] } | { after: number; limit: number };

/**
 * The selected lamps (entities of category `lighting`) of the tenant, in id order. A lamp follows
 * the nearest profile (assignmentsOfLamps) and stands at its own position, else at its nearest
 * ancestor's that has one.
 */
export function lampsOfTenant(tx: Tx, tenantId: string, selection: LampSelection): Promise<LampRow[]> {
  const which = 'only' in selection
    ? sql`AND e.id = ANY(${intArrayParam(selection.only)})`
    : sql`AND e.id > ${selection.after} ORDER BY e.id LIMIT ${selection.limit}`;
  // the rows of lamp-keyed tables read by index for the lamps' ids alone (the planner would
  // otherwise read a million lamp states to join ten thousand)
  const near = (column: SQL) => ('only' in selection
    ? sql`${column} = ANY(${intArrayParam(selection.only)})`
    : sql`${column} BETWEEN (SELECT low FROM bounds) AND (SELECT high FROM bounds)`);
  const own = (index: 0 | 1) => sql`CASE WHEN l.geom ->> 'type' = 'Point' THEN (l.geom -> 'coordinates' ->> ${index})::float8 END`;
  return rows<LampRow>(tx, sql`
    WITH lamps AS MATERIALIZED (
      SELECT e.id, string_to_array(e.tree_path, '.')::int[] AS path, e.geom
      FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
      WHERE e.tenant_id = ${tenantId} AND t.category = 'lighting' ${which}
    ), bounds AS (SELECT min(id) AS low, max(id) AS high FROM lamps)
    SELECT l.id AS entity_id, a.profile_id,
      coalesce(${own(0)}, ancestor.longitude) AS longitude, coalesce(${own(1)}, ancestor.latitude) AS latitude,
      lux.value_num AS lux, reported.value_num AS reported_level, reported.ts AS reported_at,
      s.level, s.reason, s.since, s.sensor_on, s.profile_id AS state_profile_id, s.override_level, s.override_until,
      pending.entity_id IS NOT NULL AS pending_command
    FROM lamps l
    LEFT JOIN ${assignmentsOfLamps(sql`lamps`, near)} a ON a.lamp_id = l.id
    LEFT JOIN lamp_states s ON s.entity_id = l.id AND ${near(sql`s.entity_id`)}
    LEFT JOIN telemetry_latest lux ON lux.entity_id = l.id AND lux.key = 'lux' AND ${near(sql`lux.entity_id`)}
    LEFT JOIN telemetry_latest reported ON reported.entity_id = l.id AND reported.key = 'dim_level' AND ${near(sql`reported.entity_id`)}
    LEFT JOIN (
      SELECT DISTINCT c.entity_id FROM device_commands c WHERE c.status IN ('queued', 'sent', 'delivered') AND ${near(sql`c.entity_id`)}
    ) pending ON pending.entity_id = l.id
    LEFT JOIN LATERAL (
      SELECT (p.geom -> 'coordinates' ->> 0)::float8 AS longitude, (p.geom -> 'coordinates' ->> 1)::float8 AS latitude
      FROM entities p WHERE l.geom ->> 'type' IS DISTINCT FROM 'Point' AND p.id = ANY(l.path) AND p.geom ->> 'type' = 'Point'
      ORDER BY array_position(l.path, p.id) DESC LIMIT 1
    ) ancestor ON true
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
    LEFT JOIN ${assignmentsOfLamps(sql`l`)} a ON a.lamp_id = l.id
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
