// The batches of live events instances send each other (server/live/clusterBus.ts): a batch is one
// row and one notification naming it (`<id>:<origin>`), both in one statement, delivered on commit.
import { sql } from 'drizzle-orm';
import { CHANNELS, type Database } from './database.ts';

export interface LiveEventBatch { id: number; origin: string; events: unknown[] }

/** Writes a batch and announces it; answers its id. */
export async function sendLiveEventBatch(db: Database, origin: string, events: unknown[]): Promise<number> {
  const [row] = await db.systemQuery<{ id: string }>(sql`
    WITH batch AS (INSERT INTO live_event_batches (origin, events) VALUES (${origin}, ${JSON.stringify(events)}::jsonb) RETURNING id)
    SELECT id::text AS id, pg_notify(${CHANNELS.liveEvents}, id || ':' || ${origin}) FROM batch`);
  return Number(row.id);
}

const BATCH_COLUMNS = sql`id::float8 AS id, origin::text AS origin, events`;

/** The batches of these ids (those still kept), oldest first. */
export function liveEventBatchesById(db: Database, ids: number[]): Promise<LiveEventBatch[]> {
  return db.systemQuery<LiveEventBatch>(sql`
    SELECT ${BATCH_COLUMNS} FROM live_event_batches WHERE id = ANY(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::bigint[]) ORDER BY id`);
}

/** Other instances' batches written since `since` (the database's clock), oldest first, at most `limit` after `afterId`. */
export function liveEventBatchesSince(db: Database, origin: string, since: Date, afterId: number, limit: number): Promise<LiveEventBatch[]> {
  return db.systemQuery<LiveEventBatch>(sql`
    SELECT ${BATCH_COLUMNS} FROM live_event_batches
    WHERE created_at >= ${since.toISOString()}::timestamptz AND origin <> ${origin} AND id > ${afterId}
    ORDER BY id LIMIT ${limit}`);
}

/** Drops the batches older than `keepMs`; answers how many. */
export async function pruneLiveEventBatches(db: Database, keepMs: number): Promise<number> {
  const rows = await db.systemQuery(sql`
    DELETE FROM live_event_batches WHERE created_at < now() - make_interval(secs => ${keepMs / 1000}) RETURNING 1`);
  return rows.length;
}
