// A device's attributes as ThingsBoard scopes them: client attributes (what the device reported,
// kept in `client_attributes` and also merged into `attributes`, which the platform shows), shared
// attributes (what the platform sets for the device, `shared_attributes`, pushed to it) and server
// attributes (the rest of `attributes`, never sent to the device).
import { sql } from 'drizzle-orm';
import type { Geometry } from '../../src/schemas/geometry.ts';
import type { Database, Tx } from './database.ts';
import { announceSharedAttributes } from './downlinkNotices.ts';
import { isoTime, rows, textArray } from './rows.ts';

export interface ScopedAttributes { client: Record<string, unknown>; shared: Record<string, unknown> }

/** The keys of a scope to answer: all of them (undefined), or those named. */
const only = (column: string, keys: string[] | undefined) => keys === undefined
  ? sql.identifier(column)
  : sql`coalesce((SELECT jsonb_object_agg(k, v) FROM jsonb_each(${sql.identifier(column)}) AS a(k, v) WHERE k = ANY(${textArray(keys)})), '{}'::jsonb)`;

/** The device's client and shared attributes, narrowed to the keys asked for. */
export async function deviceAttributes(db: Database, tenantId: string, entityId: number, clientKeys?: string[], sharedKeys?: string[]): Promise<ScopedAttributes> {
  const [row] = await db.tenantQuery<ScopedAttributes>(tenantId, sql`
    SELECT ${only('client_attributes', clientKeys)} AS client, ${only('shared_attributes', sharedKeys)} AS shared FROM entities WHERE id = ${entityId}`);
  return row ?? { client: {}, shared: {} };
}

/**
 * Merges shared attributes into devices (one statement; a null value removes the key) and announces
 * them to the instances, to be pushed to the devices; answers the devices that exist.
 */
export async function setSharedAttributes(tx: Tx, tenantId: string, changes: { entityId: number; attributes: Record<string, unknown> }[]): Promise<number[]> {
  if (!changes.length) return [];
  const changed = await rows<{ id: number }>(tx, sql`UPDATE entities e SET shared_attributes = jsonb_strip_nulls(e.shared_attributes || c.attributes)
    FROM jsonb_to_recordset(${JSON.stringify(changes.map((c) => ({ entity_id: c.entityId, attributes: c.attributes })))}::jsonb)
      AS c(entity_id int, attributes jsonb)
    WHERE e.id = c.entity_id RETURNING e.id`);
  const found = new Set(changed.map((row) => row.id));
  await announceSharedAttributes(tx, tenantId, changes.filter((change) => found.has(change.entityId)));
  return [...found];
}

type Json = unknown;

/** An entity's attributes, position and type, locked for an edit; undefined when the tenant has no such entity. */
export async function lockedEntityAttributes(tx: Tx, id: number) {
  const [stored] = await rows<{ entity_type_id: number; attributes: Record<string, Json> | null; geom: Geometry | null }>(tx, sql`
    SELECT entity_type_id, attributes, geom FROM entities WHERE id = ${id} FOR UPDATE`);
  return stored;
}

/** Writes an entity's attributes and position; answers when it was updated. */
export async function writeEntityAttributes(tx: Tx, id: number, attributes: Record<string, Json>, geom: Geometry | null): Promise<string> {
  const [updated] = await rows<{ updated_at: string }>(tx, sql`
    UPDATE entities SET attributes = ${JSON.stringify(attributes)}::jsonb, geom = ${geom === null ? null : JSON.stringify(geom)}::jsonb, updated_at = now()
    WHERE id = ${id} RETURNING ${isoTime(sql`updated_at`)} AS updated_at`);
  return updated.updated_at;
}

/** A device's shared attributes, locked for an edit; undefined when the tenant has no such entity. */
export async function lockedSharedAttributes(tx: Tx, id: number): Promise<Record<string, Json> | undefined> {
  const [stored] = await rows<{ shared_attributes: Record<string, Json> }>(tx, sql`SELECT shared_attributes FROM entities WHERE id = ${id} FOR UPDATE`);
  return stored?.shared_attributes;
}
