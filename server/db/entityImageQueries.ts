// A region's overlay image (table entity_images): one file per entity, replaced on upload.
import { sql } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { rows } from './rows.ts';

export interface StoredImage { content_type: string; bytes: Uint8Array; version: string }

/** The entity's type name (`attributes.system_name`), or undefined when the entity is not there. */
export async function entityKindOf(tx: Tx, id: number): Promise<{ systemName: string | null } | undefined> {
  const [found] = await rows<{ system_name: string | null }>(tx, sql`
    SELECT t.attributes->>'system_name' AS system_name FROM entities e JOIN entity_types t ON t.id = e.entity_type_id WHERE e.id = ${id}`);
  return found && { systemName: found.system_name };
}

const version = sql`to_char(extract(epoch FROM updated_at) * 1000, 'FM9999999999999999')`;

export async function storeImage(tx: Tx, tenantId: string, id: number, contentType: string, bytes: Uint8Array): Promise<string> {
  const [stored] = await rows<{ version: string }>(tx, sql`
    INSERT INTO entity_images (entity_id, tenant_id, content_type, bytes, updated_at)
    VALUES (${id}, ${tenantId}, ${contentType}, ${bytes}, clock_timestamp())
    ON CONFLICT (entity_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, updated_at = EXCLUDED.updated_at
    RETURNING ${version} AS version`);
  return stored.version;
}

export async function findImage(tx: Tx, id: number): Promise<StoredImage | undefined> {
  const [found] = await rows<StoredImage>(tx, sql`SELECT content_type, bytes, ${version} AS version FROM entity_images WHERE entity_id = ${id}`);
  return found;
}

export async function deleteImage(tx: Tx, id: number): Promise<boolean> {
  return (await rows(tx, sql`DELETE FROM entity_images WHERE entity_id = ${id} RETURNING entity_id`)).length > 0;
}
