// Files of boards' image and video components (table board_media, src/schemas/boardMedia.ts). A
// file is read by its uploader, and by whoever sees a board of the allowed kinds holding a
// component whose definition.url is the file's address (the boards' grants, boardGrantQueries.ts).
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

/** The file when the user may read it: theirs, or shown on a board of `kinds` they hold a grant on. */
export async function findReadableMedia(tx: Tx, id: string, userId: string, kinds: string[]): Promise<StoredMedia | undefined> {
  if (!kinds.length) return undefined;
  const user = userParam(userId);
  const [found] = await rows<StoredMedia>(tx, sql`
    SELECT m.content_type, m.bytes FROM board_media m WHERE m.id = ${id}::uuid AND (m.created_by = ${user} OR EXISTS (
      SELECT 1 FROM components c JOIN board_components bc ON bc.component_id = c.id JOIN boards ON boards.id = bc.board_id
      WHERE c.definition->>'url' = ${boardMediaPath(id)} AND boards.kind IN (${sql.join(kinds.map((kind) => sql`${kind}`), sql`, `)})
        AND ${boardGrants.of(user)} >= 1))`);
  return found;
}
