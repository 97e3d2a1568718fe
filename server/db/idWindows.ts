// Reading a tenant's entities a window of ids at a time: each statement short, so that on the
// embedded database (one statement at a time) the page reads waiting behind it wait a little.
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './database.ts';

/** Ids one statement reads (each is the tenant's or not: at most so many rows). */
export const ID_WINDOW = 50_000;

/** Ids in (`after`, `upTo`], or the one entity `only`. */
export type IdWindow = { after: number; upTo: number } | { only: number };
export const inWindow = (rows: IdWindow, id = sql`e.id`) => ('only' in rows ? sql`${id} = ${rows.only}` : sql`${id} > ${rows.after} AND ${id} <= ${rows.upTo}`);

/**
 * Runs `query` over the tenant's entities a window of `size` ids at a time, in order, handing each
 * answer's first row to `take`, and awaiting `between` before each window (a background loop
 * yields to requests: server/foreground.ts). The next window is asked for before `take` files the
 * last one: the embedded database works in its own thread meanwhile (a map's build at a million
 * took a third less). A range of ids, not a LIMIT: the planner cannot guess how many entities a
 * query keeps, and for the first page of a million map points it sorted them all (9 s).
 */
export async function inIdWindows<T>(
  db: Database, tenantId: string, query: (window: IdWindow) => SQL, take: (row: T) => void,
  { between, size = ID_WINDOW }: { between?: () => Promise<void>; size?: number } = {},
) {
  const [{ low, high }] = await db.tenantQuery<{ low: number | null; high: number | null }>(tenantId, sql`SELECT min(id) AS low, max(id) AS high FROM entities`);
  if (low === null || high === null) return;
  const windowAfter = async (after: number) => {
    if (between) await between();
    const [row] = await db.tenantQuery<T>(tenantId, query({ after, upTo: after + size }));
    return row;
  };
  let next = windowAfter(low - 1);
  for (let after = low - 1 + size; ; after += size) {
    const row = await next;
    const more = after < high;
    if (more) {
      next = windowAfter(after);
      next.catch(() => {}); // awaited on the next turn; a `take` that throws leaves it unread
      await new Promise(setImmediate); // the next statement is sent before `take` holds the thread
    }
    take(row);
    if (!more) return;
  }
}
