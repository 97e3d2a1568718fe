// Devices as the ingestion sees them: looked up by access token (across tenants: the token is
// the only thing a device presents), gateway children found or created, client attributes and
// connectivity merged into the entity, last activity times written in batches, device events logged.
import { sql } from 'drizzle-orm';
import { CHANNELS, type Database, type Tx } from './database.ts';
import { intArrayParam, isoTime, rows } from './rows.ts';

export interface DeviceIdentity {
  tenantId: string;
  entityId: number;
  entityTypeId: number;
  isGateway: boolean;
  /** The name a gateway uses for it (interface.thingsboard_name), else its English name. */
  name: string;
}

const IDENTITY = sql`tenant_id AS "tenantId", id AS "entityId", entity_type_id AS "entityTypeId", is_gateway AS "isGateway",
  coalesce(thingsboard_name, name->>'en', CASE jsonb_typeof(name) WHEN 'object' THEN name->>(SELECT min(k) FROM jsonb_object_keys(name) k)
    WHEN 'string' THEN name #>> '{}' END, id::text) AS name`;

/** The devices of these access tokens, in their order (undefined: no such device). */
export async function devicesByTokens(db: Database, tokens: string[]): Promise<(DeviceIdentity | undefined)[]> {
  const found = await db.systemQuery<DeviceIdentity & { token: string }>(sql`
    SELECT ${IDENTITY}, access_token AS token FROM entities WHERE access_token = ANY(${sql.param(tokens)}::text[])`);
  const byToken = new Map(found.map(({ token, ...device }) => [token, device]));
  return tokens.map((token) => byToken.get(token));
}

/** A device behind a gateway, by the name the gateway uses. */
export async function gatewayChild(db: Database, gateway: DeviceIdentity, name: string): Promise<DeviceIdentity | undefined> {
  const [device] = await db.tenantQuery<DeviceIdentity>(gateway.tenantId,
    sql`SELECT ${IDENTITY} FROM entities WHERE fk_gateway_id = ${gateway.entityId} AND thingsboard_name = ${name} LIMIT 1`);
  return device;
}

/** Of these devices, those behind a gateway: the gateway and the name it knows the device by. */
export async function gatewaysOf(db: Database, tenantId: string, entityIds: number[]): Promise<{ entityId: number; gatewayId: number; name: string }[]> {
  if (!entityIds.length) return [];
  return db.tenantQuery(tenantId, sql`SELECT "entityId", fk_gateway_id AS "gatewayId", name FROM (SELECT ${IDENTITY}, fk_gateway_id FROM entities
    WHERE id = ANY(${intArrayParam(entityIds)}) AND fk_gateway_id IS NOT NULL) device`);
}

/**
 * These devices and those behind these gateways, of every tenant, with their shared attributes
 * (none left out but those without any): what is pushed again after a lost listener.
 */
export async function sharedAttributesOfDevices(db: Database, entityIds: number[]): Promise<{ entityId: number; gatewayId: number | null; name: string; shared: Record<string, unknown> }[]> {
  if (!entityIds.length) return [];
  return db.systemQuery(sql`SELECT "entityId", fk_gateway_id AS "gatewayId", name, shared FROM (SELECT ${IDENTITY}, fk_gateway_id, shared_attributes AS shared FROM entities
    WHERE (id = ANY(${intArrayParam(entityIds)}) OR fk_gateway_id = ANY(${intArrayParam(entityIds)}))
      AND shared_attributes IS NOT NULL AND shared_attributes::jsonb <> '{}'::jsonb) device`);
}

export async function countGatewayChildren(db: Database, gateway: DeviceIdentity): Promise<number> {
  const [{ count }] = await db.tenantQuery<{ count: number }>(gateway.tenantId,
    sql`SELECT count(*)::int AS count FROM entities WHERE fk_gateway_id = ${gateway.entityId}`);
  return count;
}

/** The default type of devices a gateway creates without naming one. */
export const DEFAULT_DEVICE_TYPE = 'Default device';

/**
 * Creates the device a gateway named for the first time, under the gateway, with the entity type
 * of that name in the tenant (the default device type when none is named or none matches,
 * created once in the gateway's own type group).
 */
export async function createGatewayChild(db: Database, gateway: DeviceIdentity, name: string, typeName: string | undefined): Promise<DeviceIdentity> {
  return db.tenantTx(gateway.tenantId, async (tx) => {
    const typeId = (typeName && await entityTypeNamed(tx, typeName)) || await defaultDeviceType(tx, gateway);
    const [device] = await rows<DeviceIdentity>(tx, sql`
      INSERT INTO entities (tenant_id, entity_type_id, parent_id, name, attributes, fk_gateway_id, thingsboard_name, tree_path)
      SELECT ${gateway.tenantId}, ${typeId}, g.id, jsonb_build_object('en', ${name}::text), '{}'::jsonb, g.id, ${name}, g.tree_path
      FROM entities g WHERE g.id = ${gateway.entityId}
      RETURNING ${IDENTITY}`);
    await tx.execute(sql`UPDATE entities SET tree_path = CASE WHEN tree_path = '' THEN id::text ELSE tree_path || '.' || id END WHERE id = ${device.entityId}`);
    return device;
  });
}

async function entityTypeNamed(tx: Tx, name: string): Promise<number | undefined> {
  const [type] = await rows<{ id: number }>(tx, sql`SELECT id FROM entity_types WHERE lower(name) = lower(${name}) ORDER BY id LIMIT 1`);
  return type?.id;
}

async function defaultDeviceType(tx: Tx, gateway: DeviceIdentity): Promise<number> {
  const existing = await entityTypeNamed(tx, DEFAULT_DEVICE_TYPE);
  if (existing) return existing;
  const [type] = await rows<{ id: number }>(tx, sql`
    INSERT INTO entity_types (tenant_id, entity_type_group_id, category, name, attributes)
    SELECT ${gateway.tenantId}, entity_type_group_id, 'device', ${DEFAULT_DEVICE_TYPE}, '{"system_name": "device"}'::jsonb
    FROM entity_types WHERE id = ${gateway.entityTypeId}
    RETURNING id`);
  return type.id;
}

/** Merges attributes into the entity's attributes; answers the time of the change. */
export async function mergeAttributes(db: Database, device: DeviceIdentity, attributes: Record<string, unknown>, scope: 'client' | 'server'): Promise<string> {
  const json = JSON.stringify(attributes);
  const client = scope === 'client' ? sql`, client_attributes = client_attributes || ${json}::jsonb` : sql``;
  const [row] = await db.tenantQuery<{ updated_at: string }>(device.tenantId, sql`
    UPDATE entities SET attributes = attributes || ${json}::jsonb${client}, updated_at = now()
    WHERE id = ${device.entityId}
    RETURNING ${isoTime(sql`updated_at`)} AS updated_at`);
  return row?.updated_at ?? new Date().toISOString();
}

/** A device's last activity to write: its tenant, its id and the time (ms). */
export interface LastActivity { tenantId: string; entityId: number; ms: number }

export interface LastActivityWritten extends LastActivity { entityTypeId: number; updatedAt: string }

/**
 * Sets `lastActivityTime` of many devices, of any tenants, in one statement (each row is matched
 * by id and tenant); answers the devices written, for their live subscribers.
 */
export async function writeLastActivity(db: Database, activity: LastActivity[]): Promise<LastActivityWritten[]> {
  const input = JSON.stringify(activity.map(({ tenantId, entityId, ms }) => ({ t: tenantId, e: entityId, ms: Math.round(ms) })));
  return db.systemQuery<LastActivityWritten>(sql`
    UPDATE entities e SET attributes = e.attributes || jsonb_build_object('lastActivityTime', a.ms), updated_at = now()
    FROM json_to_recordset(${input}::json) AS a(t uuid, e int, ms bigint)
    WHERE e.id = a.e AND e.tenant_id = a.t
    RETURNING e.tenant_id AS "tenantId", e.id AS "entityId", e.entity_type_id AS "entityTypeId", a.ms::float8 AS ms,
      ${isoTime(sql`e.updated_at`)} AS "updatedAt"`);
}

export async function writeDeviceLog(db: Database, device: DeviceIdentity, type: string, message: string, data: Record<string, unknown>) {
  await db.tenantQuery(device.tenantId, sql`
    INSERT INTO logs (tenant_id, entity_id, type, source, message, message_data)
    VALUES (${device.tenantId}, ${device.entityId}, ${type}, 'device', ${message}, ${JSON.stringify(data)}::json)`);
}

/** A new access token for the device (the old one stops working, on every instance once committed); answers it. */
export async function rotateAccessToken(tx: Tx, entityId: number): Promise<string | undefined> {
  const [row] = await rows<{ token: string }>(tx, sql`
    UPDATE entities SET access_token = replace(gen_random_uuid()::text, '-', ''), updated_at = now() WHERE id = ${entityId} RETURNING access_token AS token`);
  if (row) await tx.execute(sql`SELECT pg_notify(${CHANNELS.deviceCredentialsRotated}, ${String(entityId)})`);
  return row?.token;
}

export async function accessTokenOf(tx: Tx, entityId: number): Promise<string | null | undefined> {
  const [row] = await rows<{ token: string | null }>(tx, sql`SELECT access_token AS token FROM entities WHERE id = ${entityId}`);
  return row === undefined ? undefined : row.token;
}

export interface SimulatedDevice {
  tenantId: string;
  entityId: number;
  category: string;
  token: string;
  /** The name its gateway uses for it. */
  gatewayName: string | null;
  gatewayId: number | null;
  isGateway: boolean;
  /** The latest stored energy counter, to continue from. */
  energy: number | null;
}

/** Every device with an access token, of every tenant, for the demo's live simulation and backfill. */
export async function simulatedDevices(db: Database): Promise<SimulatedDevice[]> {
  return db.systemQuery<SimulatedDevice>(sql`
    SELECT e.tenant_id AS "tenantId", e.id AS "entityId", et.category, e.access_token AS token, e.thingsboard_name AS "gatewayName",
      e.fk_gateway_id AS "gatewayId", e.is_gateway AS "isGateway",
      (SELECT value_num FROM telemetry_latest l WHERE l.entity_id = e.id AND l.key = 'energy') AS energy
    FROM entities e JOIN entity_types et ON et.id = e.entity_type_id
    WHERE e.access_token IS NOT NULL AND et.category IN ('lighting', 'environment', 'parking', 'energy', 'gateway')
    ORDER BY e.id`);
}

export interface CsvColumn { name: string; type: 'timestamp' | 'number' | 'boolean' | 'string' | 'json' }

/**
 * The telemetry keys of a device: those its entity type defines (definition.telemetry), then any
 * others it has reported; each typed by its latest value (numbers when nothing was reported yet).
 * Undefined when the entity does not exist in the tenant.
 */
export async function telemetryColumns(tx: Tx, entityId: number): Promise<CsvColumn[] | undefined> {
  const [row] = await rows<{ columns: CsvColumn[] | null }>(tx, sql`
    SELECT (
      SELECT coalesce(json_agg(json_build_object('name', k.key, 'type', coalesce(
        (SELECT CASE WHEN l.value_bool IS NOT NULL THEN 'boolean' WHEN l.value_json IS NOT NULL THEN 'json'
                     WHEN l.value_num IS NOT NULL THEN 'number' ELSE 'string' END
         FROM telemetry_latest l WHERE l.entity_id = e.id AND l.key = k.key), 'number')) ORDER BY k.position, k.key), '[]'::json)
      FROM (
        SELECT key, min(position) AS position FROM (
          SELECT value AS key, ordinality AS position
          FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(et.definition::jsonb->'telemetry') = 'array' THEN et.definition::jsonb->'telemetry' ELSE '[]'::jsonb END) WITH ORDINALITY
          UNION ALL
          SELECT key, 1000000 FROM telemetry_latest WHERE entity_id = e.id
        ) keys GROUP BY key
      ) k
    ) AS columns
    FROM entities e JOIN entity_types et ON et.id = e.entity_type_id
    WHERE e.id = ${entityId}`);
  return row ? [{ name: 'ts', type: 'timestamp' }, ...(row.columns ?? [])] : undefined;
}

/** A demo street lamp and its token, for the first start's hint. */
export function demoLamp(db: Database) {
  return db.systemQuery<{ name: string; token: string }>(sql`
    SELECT e.name->>'en' AS name, e.access_token AS token FROM entities e JOIN entity_types et ON et.id = e.entity_type_id
    WHERE et.category = 'lighting' AND e.access_token IS NOT NULL ORDER BY e.id LIMIT 1`);
}
