// The large-city seed's bulk statements (server/seed/citySeed.ts): a chunk of devices placed along
// a jittered grid of streets, written set-based from generate_series in one statement with their
// group memberships and, for the alarmed ones, their watch states.
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './database.ts';
import { intArrayParam } from './rows.ts';

/** The city's street grid, in metres east (x) and north (y) of its south-west corner. */
export interface StreetGrid {
  south: number;
  west: number;
  widthM: number;
  heightM: number;
  /** Streets running east–west, and lamps (slots) on each; the same for north–south streets. */
  eastWest: { streets: number; slots: number };
  northSouth: { streets: number; slots: number };
  /** Zones in a grid of `zoneColumns` × `zoneRows`, row by row from the south-west, with their tree paths and gateways. */
  zoneColumns: number;
  zoneRows: number;
  zoneIds: number[];
  zonePaths: string[];
  zoneGateways: number[];
}

/** One device kind's share of the device numbers: [from, to), its type, group, name and geometry. */
export interface KindRange { from: number; to: number; typeId: number; groupId: number; type: string; category: string; shape: string }

export interface DeviceChunk {
  tenantId: string;
  /** Device numbers [from, to) of the whole city. */
  from: number;
  to: number;
  grid: StreetGrid;
  kinds: KindRange[];
  /** Per hundred devices (by number): the first `alarm` have a fault, the next `offline` are not connected, the next `maintenance` are in that group. */
  shares: { alarm: number; offline: number; maintenance: number };
  maintenanceGroupId: number;
  watcherId: number;
  /** When the alarms began and the connected devices were last heard from (epoch ms), and the seed's prefix of serials and device names. */
  nowMs: number;
  slug: string;
}

const METRES_PER_DEGREE = 111_320;

/** A deterministic value in [0, 1) from an integer (Knuth's multiplicative hash): jitter that is the same on every run. */
const unit = (value: SQL) => sql`((((${value})::bigint * 2654435761) % 4294967296)::float8 / 4294967296)`;

const textArrayParam = (values: readonly string[]) => sql`${`{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;

/**
 * Writes the devices numbered [from, to): their entities (tree path, level, geometry, names and
 * attributes as real ones have them), their kind's group and the maintenance group, and the alarmed
 * ones' watch states; answers the alarmed ones (id and name) for their log rows.
 */
export function insertDeviceChunk(db: Database, chunk: DeviceChunk): Promise<{ id: number; name: Record<string, string> }[]> {
  const { grid, kinds, shares } = chunk;
  const lngMetres = METRES_PER_DEGREE * Math.cos((grid.south * Math.PI) / 180);
  const eastWestSlots = grid.eastWest.streets * grid.eastWest.slots;
  const slots = eastWestSlots + grid.northSouth.streets * grid.northSouth.slots;
  const int = (value: number) => sql`${value}::int`;
  const num = (value: number) => sql`${value}::float8`;
  const kindOf = (field: (kind: KindRange) => SQL) => sql`CASE ${sql.join(kinds.map((kind) => sql`WHEN d.n < ${int(kind.to)} THEN ${field(kind)}`), sql` `)} END`;
  // a lamp (the first kind) takes the street slot of its number; a sensor one spread over the streets, beside the street
  const slotOf = sql`CASE WHEN d.kind_from = 0 THEN d.n % ${int(slots)} ELSE (d.n::bigint * 7919) % ${int(slots)} END`;
  const sideM = sql`CASE WHEN d.kind_from = 0 THEN 0 ELSE 8 END`;
  // east–west streets first, then north–south ones: along its street a slot every `pitch` metres
  // (a few metres off), and each street a little off its grid line, so the grid is not ruled
  const ew = { pitch: grid.widthM / grid.eastWest.slots, spacing: grid.heightM / grid.eastWest.streets };
  const ns = { pitch: grid.heightM / grid.northSouth.slots, spacing: grid.widthM / grid.northSouth.streets };
  const along = (slot: SQL, pitch: number) => sql`(${slot} + 0.5) * ${num(pitch)} + (${unit(sql`s.slot`)} - 0.5) * 6`;
  const across = (street: SQL, spacing: number, salt: number) => sql`(${street} + 0.5) * ${num(spacing)} + (${unit(sql`${street} + ${int(salt)}`)} - 0.5) * ${num(spacing / 3)} + s.side`;
  const nsSlot = sql`(s.slot - ${int(eastWestSlots)})`;
  const place = sql`CASE WHEN s.slot < ${int(eastWestSlots)} THEN ${along(sql`s.slot % ${int(grid.eastWest.slots)}`, ew.pitch)}
      ELSE ${across(sql`${nsSlot} / ${int(grid.northSouth.slots)}`, ns.spacing, 7)} END AS x,
    CASE WHEN s.slot < ${int(eastWestSlots)} THEN ${across(sql`s.slot / ${int(grid.eastWest.slots)}`, ew.spacing, 3)}
      ELSE ${along(sql`${nsSlot} % ${int(grid.northSouth.slots)}`, ns.pitch)} END AS y`;
  const clamp = (value: SQL, max: number) => sql`least(greatest(${value}, 0), ${num(max - 0.01)})`;
  const zone = sql`(floor(${clamp(sql`p.y`, grid.heightM)} / ${num(grid.heightM / grid.zoneRows)})::int * ${int(grid.zoneColumns)}
    + floor(${clamp(sql`p.x`, grid.widthM)} / ${num(grid.widthM / grid.zoneColumns)})::int + 1)`;
  const lat = sql`round((${num(grid.south)} + ${clamp(sql`p.y`, grid.heightM)} / ${num(METRES_PER_DEGREE)})::numeric, 6)`;
  const lng = sql`round((${num(grid.west)} + ${clamp(sql`p.x`, grid.widthM)} / ${num(lngMetres)})::numeric, 6)`;
  const half = sql`0.00004::numeric`; // a parking bay's half side in degrees, as the demo's
  const ring = sql`jsonb_build_array(jsonb_build_array(c.lng - ${half}, c.lat - ${half}), jsonb_build_array(c.lng + ${half}, c.lat - ${half}),
    jsonb_build_array(c.lng + ${half}, c.lat + ${half}), jsonb_build_array(c.lng - ${half}, c.lat + ${half}), jsonb_build_array(c.lng - ${half}, c.lat - ${half}))`;
  const geom = sql`CASE c.shape
    WHEN 'point' THEN jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(c.lng, c.lat))
    WHEN 'circle' THEN jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(c.lng, c.lat), 'radius', 15 + floor(${unit(sql`c.n + 13`)} * 20)::int)
    WHEN 'polygon' THEN jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(${ring})) END`;
  const share = sql`(c.n % 100)`;
  const alarmed = sql`${share} < ${int(shares.alarm)}`;
  const offline = sql`${share} >= ${int(shares.alarm)} AND ${share} < ${int(shares.alarm + shares.offline)}`;
  const inMaintenance = sql`${share} >= ${int(shares.alarm + shares.offline)} AND ${share} < ${int(shares.alarm + shares.offline + shares.maintenance)}`;
  // connected devices were heard from in the last five minutes, the others one to 72 hours ago
  const lastActivity = sql`CASE WHEN ${offline} THEN ${chunk.nowMs}::bigint - (3600000 + floor(${unit(sql`c.n + 17`)} * 255600000))::bigint
    ELSE ${chunk.nowMs}::bigint - floor(${unit(sql`c.n + 19`)} * 300000)::bigint END`;
  const attributes = sql`jsonb_build_object('serial', ${chunk.slug.toUpperCase()}::text || '-' || (c.n + 1), 'installed', '2025-04-01',
    'active', NOT (${offline}), 'lastActivityTime', ${lastActivity}) || CASE WHEN ${alarmed} THEN '{"fault": true}'::jsonb ELSE '{}'::jsonb END`;
  const sinceIso = new Date(chunk.nowMs).toISOString();
  return db.systemQuery<{ id: number; name: Record<string, string> }>(sql`
    WITH d AS (
      SELECT d.n, ${kindOf((kind) => sql`${int(kind.from)}`)} AS kind_from FROM generate_series(${int(chunk.from)}, ${int(chunk.to - 1)}) AS d(n)
    ), s AS (
      SELECT d.n, d.kind_from, ${slotOf} AS slot, ${sideM} AS side FROM d
    ), p AS (
      SELECT s.n, s.kind_from, ${place} FROM s
    ), c AS MATERIALIZED (
      SELECT nextval(pg_get_serial_sequence('entities', 'id')) AS id, p.n, ${lat} AS lat, ${lng} AS lng, ${zone} AS zone,
        ${kindOf((kind) => sql`${int(kind.typeId)}`)} AS type_id, ${kindOf((kind) => sql`${int(kind.groupId)}`)} AS group_id,
        ${kindOf((kind) => sql`${kind.type}::text`)} AS type, ${kindOf((kind) => sql`${kind.category}::text`)} AS category,
        ${kindOf((kind) => sql`${kind.shape}::text`)} AS shape, p.n - p.kind_from + 1 AS number
      FROM p JOIN d ON d.n = p.n
    ), devices AS (
      INSERT INTO entities (id, tenant_id, entity_type_id, parent_id, name, attributes, geom, level, tree_path, thingsboard_name, fk_gateway_id)
      OVERRIDING SYSTEM VALUE
      SELECT c.id, ${chunk.tenantId}::uuid, c.type_id, (${intArrayParam(grid.zoneIds)})[c.zone], jsonb_build_object('en', c.type || ' ' || c.number),
        ${attributes}, ${geom}, 0, (${textArrayParam(grid.zonePaths)})[c.zone] || '.' || c.id,
        ${chunk.slug}::text || '-' || c.category || '-' || c.number, (${intArrayParam(grid.zoneGateways)})[c.zone]
      FROM c
      RETURNING id
    ), memberships AS (
      INSERT INTO entity_groups (tenant_id, entity_id, group_id)
      SELECT ${chunk.tenantId}::uuid, c.id, c.group_id FROM c
      UNION ALL SELECT ${chunk.tenantId}::uuid, c.id, ${int(chunk.maintenanceGroupId)} FROM c WHERE ${inMaintenance}
    ), states AS (
      INSERT INTO watcher_states (tenant_id, watcher_id, entity_id, state, since, value)
      SELECT ${chunk.tenantId}::uuid, ${int(chunk.watcherId)}, c.id, 'alerting', ${sinceIso}::timestamptz, 'true'::jsonb FROM c WHERE ${alarmed}
    )
    SELECT c.id, jsonb_build_object('en', c.type || ' ' || c.number) AS name FROM c WHERE ${alarmed} ORDER BY c.id`, { longRunning: true });
}
