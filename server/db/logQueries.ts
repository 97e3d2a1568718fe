// Log entries of changes users make (SPEC §2 logs): written in the change's own transaction, so a
// change and its entry are stored together or not at all.
import { sql } from 'drizzle-orm';
import type { Tx } from './database.ts';

/** Who made the change: the caller's tenant and user. */
export interface ChangeAuthor { tenantId: string; userId: string }

/** An informational entry from source `user` about entity `id`; `data` gets the user's id; `at` (ISO) defaults to now. */
export async function logUserChange(tx: Tx, author: ChangeAuthor, id: number, message: string, data: Record<string, unknown>, at?: string) {
  await tx.execute(sql`INSERT INTO logs (tenant_id, entity_id, timestamp, type, source, message, message_data)
    VALUES (${author.tenantId}, ${id}, COALESCE(${at ?? null}::timestamptz, now()), 'informational', 'user', ${message},
      ${JSON.stringify({ user: author.userId, ...data })}::json)`);
}
