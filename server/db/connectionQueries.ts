// Device connections counted per instance (device_connections): a device is `active` while it has
// one on any instance. Each change locks the device's row, so that connections and disconnections
// on several instances at once count one after another; an instance found dead gives up all of
// its connections at once. Connections are written many devices a transaction (a reconnect storm
// after a restart is 100,000 of them).
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

/** Logs each device's change of connectivity (`connected` per device), of any tenants. */
const logged = (tx: Tx, changes: { tenantId: string; entityId: number; connected: boolean }[]) => {
  const { connected: on, disconnected: off } = CONNECTIVITY_LOG;
  return tx.execute(sql`
    INSERT INTO logs (tenant_id, entity_id, type, source, message, message_data)
    SELECT c.t, c.e, CASE WHEN c.c THEN ${on.type} ELSE ${off.type} END, 'device', CASE WHEN c.c THEN ${on.message} ELSE ${off.message} END,
      CASE WHEN c.c THEN ${JSON.stringify(on.data)}::json ELSE ${JSON.stringify(off.data)}::json END
    FROM json_to_recordset(${JSON.stringify(changes.map((change) => ({ t: change.tenantId, e: change.entityId, c: change.connected })))}::json) AS c(t uuid, e int, c boolean)`);
};

/** A connection of a device on this instance, or its end, at `ms`. */
export interface ConnectionEvent { tenantId: string; entityId: number; connected: boolean; ms: number }

/**
 * Counts connections (or their ends) on this instance, at most one per device, in one transaction.
 * Where a device's being connected anywhere changed, its `active` and `lastActivityTime` are set
 * and logged; answers, per event, the time of that change, or undefined when nothing changed (or
 * the device is gone). The devices are locked in id order first, as `releaseConnections` does.
 */
export function recordConnections(db: Database, instanceId: string, events: ConnectionEvent[]): Promise<(string | undefined)[]> {
  if (new Set(events.map((event) => event.entityId)).size !== events.length) throw new Error('one event per device and call');
  const input = sql`json_to_recordset(${JSON.stringify(events.map((event) => ({ t: event.tenantId, e: event.entityId, c: event.connected, ms: Math.round(event.ms) })))}::json)
    AS i(t uuid, e int, c boolean, ms bigint)`;
  return db.systemTx(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM entities WHERE id IN (SELECT e FROM ${input}) ORDER BY id FOR UPDATE`);
    await tx.execute(sql`
      INSERT INTO device_connections (entity_id, instance_id, tenant_id, connections)
      SELECT i.e, ${instanceId}, i.t, 1 FROM ${input} JOIN entities d ON d.id = i.e AND d.tenant_id = i.t WHERE i.c
      ON CONFLICT (entity_id, instance_id) DO UPDATE SET connections = device_connections.connections + 1`);
    await tx.execute(sql`UPDATE device_connections c SET connections = connections - 1 FROM ${input}
      WHERE NOT i.c AND c.entity_id = i.e AND c.instance_id = ${instanceId}`);
    await tx.execute(sql`DELETE FROM device_connections c USING ${input}
      WHERE NOT i.c AND c.entity_id = i.e AND c.instance_id = ${instanceId} AND c.connections <= 0`);
    const changed = await rows<{ entity_id: number; tenant_id: string; open: boolean; updated_at: string }>(tx, sql`
      UPDATE entities e SET attributes = e.attributes || jsonb_build_object('active', x.open, 'lastActivityTime', x.ms), updated_at = now()
      FROM (SELECT i.t, i.e, i.ms, EXISTS (SELECT 1 FROM device_connections c WHERE c.entity_id = i.e) AS open FROM ${input}) x
      WHERE e.id = x.e AND e.tenant_id = x.t AND coalesce(e.attributes->'active' = 'true'::jsonb, false) <> x.open
      RETURNING e.id AS entity_id, e.tenant_id, x.open, ${isoTime(sql`e.updated_at`)} AS updated_at`);
    if (changed.length) await logged(tx, changed.map((row) => ({ tenantId: row.tenant_id, entityId: Number(row.entity_id), connected: row.open })));
    const at = new Map(changed.map((row) => [Number(row.entity_id), row.updated_at]));
    return events.map((event) => at.get(event.entityId));
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
  if (changed.length) await logged(tx, changed.map((change) => ({ tenantId: change.tenantId, entityId: change.entityId, connected: false })));
  return changed;
}
