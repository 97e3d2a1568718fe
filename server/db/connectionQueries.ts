// Device connections counted per instance (device_connections): a device is `active` while it has
// one on any instance. Each change locks the device's row, so that connections and disconnections
// on several instances at once count one after another; an instance found dead gives up all of
// its connections at once.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from './database.ts';
import { isoTime, rows } from './rows.ts';

/** The log row of a change of a device's connectivity. */
export const CONNECTIVITY_LOG = {
  connected: { type: 'informational', message: 'Device connected', data: { event: 'connected' } },
  disconnected: { type: 'informational', message: 'Device disconnected', data: { event: 'disconnected' } },
} as const;

/** A device whose `active` attribute changed: for its live subscribers. */
export interface ConnectivityChange { tenantId: string; entityId: number; entityTypeId: number; updatedAt: string }

const logged = (tx: Tx, tenantId: string, entityIds: number[], connected: boolean) => {
  const { type, message, data } = CONNECTIVITY_LOG[connected ? 'connected' : 'disconnected'];
  return tx.execute(sql`
    INSERT INTO logs (tenant_id, entity_id, type, source, message, message_data)
    SELECT ${tenantId}, id, ${type}, 'device', ${message}, ${JSON.stringify(data)}::json FROM unnest(${`{${entityIds.join(',')}}`}::int[]) id`);
};

/**
 * Counts a connection (or its end) of the device on this instance. When the device's being
 * connected anywhere changed, its `active` and `lastActivityTime` (`ms`) are set and logged in
 * the same transaction; answers the time of that change, or undefined when nothing changed.
 */
export function recordConnection(db: Database, tenantId: string, entityId: number, instanceId: string, connected: boolean, ms: number): Promise<string | undefined> {
  return db.tenantTx(tenantId, async (tx) => {
    const [device] = await rows<{ active: boolean }>(tx, sql`
      SELECT coalesce(attributes->'active' = 'true'::jsonb, false) AS active FROM entities WHERE id = ${entityId} FOR UPDATE`);
    if (!device) return undefined; // deleted meanwhile
    if (connected) {
      await tx.execute(sql`
        INSERT INTO device_connections (entity_id, instance_id, tenant_id, connections) VALUES (${entityId}, ${instanceId}, ${tenantId}, 1)
        ON CONFLICT (entity_id, instance_id) DO UPDATE SET connections = device_connections.connections + 1`);
    } else {
      await tx.execute(sql`UPDATE device_connections SET connections = connections - 1 WHERE entity_id = ${entityId} AND instance_id = ${instanceId}`);
      await tx.execute(sql`DELETE FROM device_connections WHERE entity_id = ${entityId} AND instance_id = ${instanceId} AND connections <= 0`);
    }
    const [{ open }] = await rows<{ open: boolean }>(tx, sql`SELECT EXISTS (SELECT 1 FROM device_connections WHERE entity_id = ${entityId}) AS open`);
    if (open === device.active) return undefined;
    const [changed] = await rows<{ updated_at: string }>(tx, sql`
      UPDATE entities SET attributes = attributes || jsonb_build_object('active', ${open}::boolean, 'lastActivityTime', ${Math.round(ms)}::bigint), updated_at = now()
      WHERE id = ${entityId} RETURNING ${isoTime(sql`updated_at`)} AS updated_at`);
    await logged(tx, tenantId, [entityId], open);
    return changed.updated_at;
  });
}

/**
 * Gives up every connection of instances no longer running: the devices left with none on any
 * instance become inactive (and are logged so). Answers them, for their live subscribers.
 */
export async function releaseConnections(tx: Tx, instanceIds: string[], ms: number): Promise<ConnectivityChange[]> {
  const instances = sql`${`{${instanceIds.join(',')}}`}::uuid[]`;
  const held = await rows<{ entity_id: number }>(tx, sql`SELECT DISTINCT entity_id FROM device_connections WHERE instance_id = ANY(${instances})`);
  if (held.length === 0) return [];
  const ids = sql`${`{${held.map((row) => row.entity_id).join(',')}}`}::int[]`;
  // the devices first, in order, as recordConnection locks them: a connection elsewhere counts before or after this, never between
  await tx.execute(sql`SELECT 1 FROM entities WHERE id = ANY(${ids}) ORDER BY id FOR UPDATE`);
  await tx.execute(sql`DELETE FROM device_connections WHERE instance_id = ANY(${instances})`);
  const changed = await rows<ConnectivityChange>(tx, sql`
    UPDATE entities e SET attributes = e.attributes || jsonb_build_object('active', false, 'lastActivityTime', ${Math.round(ms)}::bigint), updated_at = now()
    WHERE e.id = ANY(${ids}) AND e.attributes->'active' = 'true'::jsonb
      AND NOT EXISTS (SELECT 1 FROM device_connections c WHERE c.entity_id = e.id)
    RETURNING e.tenant_id AS "tenantId", e.id AS "entityId", e.entity_type_id AS "entityTypeId", ${isoTime(sql`e.updated_at`)} AS "updatedAt"`);
  for (const tenantId of new Set(changed.map((change) => change.tenantId))) {
    await logged(tx, tenantId, changed.filter((change) => change.tenantId === tenantId).map((change) => change.entityId), false);
  }
  return changed;
}
