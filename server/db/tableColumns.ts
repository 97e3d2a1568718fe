// The columns the database's tables really have (not what server/db/schema.ts says they have).
import { sql } from 'drizzle-orm';
import type { Database } from './database.ts';

/** table → its column names, in the current schema. */
export async function databaseColumns(db: Database): Promise<Map<string, Set<string>>> {
  const found = await db.systemQuery<{ table_name: string; column_name: string }>(sql`
    SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`);
  const tables = new Map<string, Set<string>>();
  for (const { table_name: table, column_name: column } of found) {
    if (!tables.has(table)) tables.set(table, new Set());
    tables.get(table)!.add(column);
  }
  return tables;
}
