// The telemetry table's monthly partitions (server/engines/telemetryMaintenance.ts keeps them):
// made ahead of the data, listed, dropped whole with the roll-ups' rows before a date.
import { sql } from 'drizzle-orm';
import type { Database, WorkOptions } from './database.ts';

/** Dropping and deleting a month of rows may take a while. */
const LONG: WorkOptions = { longRunning: true };

/** Makes the partition of the month starting at `monthStart` (ms), if it is not there. */
export async function ensureTelemetryPartition(db: Database, monthStart: number): Promise<void> {
  await db.systemQuery(sql`SELECT ensure_telemetry_partition(${new Date(monthStart).toISOString()}::timestamptz)`, LONG);
}

/** The names of the telemetry table's partitions. */
export async function telemetryPartitions(db: Database): Promise<string[]> {
  const found = await db.systemQuery<{ name: string }>(sql`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'telemetry'::regclass`, LONG);
  return found.map((row) => row.name);
}

export async function dropTelemetryPartition(db: Database, name: string): Promise<void> {
  await db.systemQuery(sql`DROP TABLE IF EXISTS ${sql.identifier(name)}`, LONG);
}

/** Deletes what is older than `from` of the default partition and of every roll-up. */
export async function deleteTelemetryBefore(db: Database, from: string): Promise<void> {
  await db.systemQuery(sql`DELETE FROM telemetry_default WHERE ts < ${from}::timestamptz`, LONG);
  for (const table of ['telemetry_quarter_hourly', 'telemetry_hourly', 'telemetry_daily', 'telemetry_daily_zoned']) {
    await db.systemQuery(sql`DELETE FROM ${sql.identifier(table)} WHERE bucket < ${from}::timestamptz`, LONG);
  }
}
