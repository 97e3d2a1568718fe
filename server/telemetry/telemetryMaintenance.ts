// Keeps the telemetry table's monthly partitions: the current and next month exist ahead of the
// data, and with TELEMETRY_RETENTION_DAYS whole months older than the retention are dropped
// (a DROP TABLE, not millions of DELETEs) together with their roll-ups. Safe to run on several
// instances at once: every step is idempotent.
import { sql } from 'drizzle-orm';
import type { Database, WorkOptions } from '../db/database.ts';
import { startWorkLoop } from '../workLoop.ts';

/** Dropping and deleting a month of rows may take a while. */
const LONG: WorkOptions = { longRunning: true };

const monthStart = (ms: number, offset = 0) => {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
};

const PARTITION_NAME = /^telemetry_(\d{4})_(\d{2})$/;

export interface MaintenanceResult { dropped: string[] }

export async function maintainTelemetry(db: Database, retentionDays: number | undefined, now = Date.now()): Promise<MaintenanceResult> {
  for (const month of [monthStart(now), monthStart(now, 1)]) {
    await db.systemQuery(sql`SELECT ensure_telemetry_partition(${new Date(month).toISOString()}::timestamptz)`, LONG);
  }
  if (retentionDays === undefined) return { dropped: [] };
  const cutoff = now - retentionDays * 86_400_000;
  const partitions = await db.systemQuery<{ name: string }>(sql`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'telemetry'::regclass`, LONG);
  const dropped: string[] = [];
  let keptFrom = -Infinity;
  for (const { name } of partitions) {
    const match = PARTITION_NAME.exec(name);
    if (!match) continue;
    const end = Date.UTC(Number(match[1]), Number(match[2]), 1); // month index is 1-based here: the next month's start
    if (end > cutoff) continue;
    await db.systemQuery(sql`DROP TABLE IF EXISTS ${sql.identifier(name)}`, LONG);
    dropped.push(name);
    keptFrom = Math.max(keptFrom, end);
  }
  if (dropped.length) {
    const from = new Date(keptFrom).toISOString();
    await db.systemQuery(sql`DELETE FROM telemetry_default WHERE ts < ${from}::timestamptz`, LONG);
    for (const table of ['telemetry_quarter_hourly', 'telemetry_hourly', 'telemetry_daily', 'telemetry_daily_zoned']) {
      await db.systemQuery(sql`DELETE FROM ${sql.identifier(table)} WHERE bucket < ${from}::timestamptz`, LONG);
    }
  }
  return { dropped: dropped.sort() };
}

/** After a failed run, the next comes this much later, doubling with each failure up to the regular interval. */
const RETRY_FIRST_MS = 60_000;

/**
 * Runs the maintenance now and every `everyMs` (default 6 hours) until stopped; a failed run is
 * tried again after a minute, then two, four… (never more often, never later than `everyMs`).
 */
export function scheduleTelemetryMaintenance(db: Database, retentionDays: number | undefined, onError: (error: unknown) => void, everyMs = 6 * 3_600_000) {
  const loop = startWorkLoop({ work: async () => { await maintainTelemetry(db, retentionDays); }, everyMs, retryFirstMs: RETRY_FIRST_MS, onError });
  return () => void loop.stop();
}
