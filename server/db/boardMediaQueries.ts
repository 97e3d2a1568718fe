// Files of boards' image and video components (table board_media, src/schemas/boardMedia.ts). A
// file is read by its uploader, and by whoever sees a board of the allowed kinds holding a
// component whose definition.url is the file's address, placed there by the right of a reader
// (findReadableMedia; the boards' holders, boardGrantQueries.ts).
import { sql } from 'drizzle-orm';
import { boardMediaPath } from '../../src/schemas/boardMedia.ts';
import { boardGrants } from './boardGrantQueries.ts';
import type { Tx } from './database.ts';
import { userParam } from './grantQueries.ts';
import { rows } from './rows.ts';

export interface StoredMedia { content_type: string; bytes: Uint8Array }

/** A file no component names is kept this long (time enough to save the component that shows it). */
const UNUSED_KEPT = sql`interval '1 day'`;

const named = sql`EXISTS (SELECT 1 FROM components c WHERE c.definition->>'url' = '/board-media/' || m.id::text)`;

/** Drops the tenant's files no component has named for a day; answers the bytes the others take. */
export async function dropUnusedMedia(tx: Tx): Promise<number> {
  await tx.execute(sql`DELETE FROM board_media m WHERE m.created_at < now() - ${UNUSED_KEPT} AND NOT ${named}`);
  const [total] = await rows<{ bytes: string }>(tx, sql`SELECT coalesce(sum(size), 0)::text AS bytes FROM board_media`);
  return Number(total.bytes);
}

export async function storeMedia(tx: Tx, tenantId: string, userId: string, contentType: string, bytes: Uint8Array): Promise<string> {
  const [stored] = await rows<{ id: string }>(tx, sql`
    INSERT INTO board_media (tenant_id, content_type, size, bytes, created_by)
    VALUES (${tenantId}, ${contentType}, ${bytes.length}, ${bytes}, ${userParam(userId)}) RETURNING id::text AS id`);
  return stored.id;
}

/**
 * The file when the user may read it. Its readers are its uploader, and whoever holds a board (of
 * `kinds`) showing it by the right of someone who may read it: a component naming the file whose
 * address was set by a reader, or which sits on a board a reader owns (the owner of a board whose
 * component was written before that was kept). So a file copied onto one's own board while a share
 * lasted is shown by nobody's right once the share is gone: the copy's setter and owner are both
 * the user who lost it.
 */
export async function findReadableMedia(tx: Tx, id: string, userId: string, kinds: readonly string[]): Promise<StoredMedia | undefined> {
  if (!kinds.length) return undefined;
  const user = userParam(userId);
  const [found] = await rows<StoredMedia>(tx, sql`
    WITH RECURSIVE showing AS (
      SELECT b.id AS board_id, b.owner_id, coalesce(c.url_set_by, b.owner_id) AS setter
      FROM components c JOIN board_components bc ON bc.component_id = c.id JOIN boards b ON b.id = bc.board_id
      WHERE c.definition->>'url' = ${boardMediaPath(id)} AND b.kind IN (${sql.join(kinds.map((kind) => sql`${kind}`), sql`, `)})
    ), readers(user_id) AS (
      SELECT m.created_by FROM board_media m WHERE m.id = ${id}::uuid
      UNION
      SELECT holder.user_id FROM showing JOIN readers r ON r.user_id IN (showing.setter, showing.owner_id)
        CROSS JOIN LATERAL (${boardGrants.holders(sql`showing.board_id`)}) holder
    )
    SELECT m.content_type, m.bytes FROM board_media m
    WHERE m.id = ${id}::uuid AND EXISTS (SELECT 1 FROM readers WHERE readers.user_id = ${user})`);
  return found;
}
