// Keeps the telemetry table's monthly partitions: the current and next month exist ahead of the
// data, and with TELEMETRY_RETENTION_DAYS whole months older than the retention are dropped
// (a DROP TABLE, not millions of DELETEs) together with their roll-ups. Safe to run on several
// instances at once: every step is idempotent.
import type { Database } from '../db/database.ts';
import { deleteTelemetryBefore, dropTelemetryPartition, ensureTelemetryPartition, telemetryPartitions } from '../db/telemetryMaintenanceQueries.ts';
import { startWorkLoop } from '../workLoop.ts';

const monthStart = (ms: number, offset = 0) => {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
};

const PARTITION_NAME = /^telemetry_(\d{4})_(\d{2})$/;

export interface MaintenanceResult { dropped: string[] }

export async function maintainTelemetry(db: Database, retentionDays: number | undefined, now = Date.now()): Promise<MaintenanceResult> {
  for (const month of [monthStart(now), monthStart(now, 1)]) await ensureTelemetryPartition(db, month);
  if (retentionDays === undefined) return { dropped: [] };
  const cutoff = now - retentionDays * 86_400_000;
  const dropped: string[] = [];
  let keptFrom = -Infinity;
  for (const name of await telemetryPartitions(db)) {
    const match = PARTITION_NAME.exec(name);
    if (!match) continue;
    const end = Date.UTC(Number(match[1]), Number(match[2]), 1); // month index is 1-based here: the next month's start
    if (end > cutoff) continue;
    await dropTelemetryPartition(db, name);
    dropped.push(name);
    keptFrom = Math.max(keptFrom, end);
  }
  if (dropped.length) await deleteTelemetryBefore(db, new Date(keptFrom).toISOString());
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
