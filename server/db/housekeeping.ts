// Statements about the database itself rather than its data: whether it answers, and fresh
// statistics for the planner.
import { sql } from 'drizzle-orm';
import type { Database } from './database.ts';

/** Resolves when the database answers a query (the readiness probe). */
export async function ping(db: Database): Promise<void> {
  await db.systemQuery(sql`SELECT 1`);
}

/** Statistics for the planner after a bulk load (PGlite has no autovacuum). */
export async function updateStatistics(db: Database): Promise<void> {
  await db.systemQuery(sql`ANALYZE`, { longRunning: true });
}
