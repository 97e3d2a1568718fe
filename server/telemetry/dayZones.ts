// The time zones whose local days are kept as a roll-up (TELEMETRY_DAY_ZONES). A local day in
// Bratislava never holds a whole UTC day, so without it daily and monthly buckets there read 24
// hourly rows per device and day. The writer folds every batch into the local days of each zone
// listed in `telemetry_day_zones`; a zone added to the configuration is built from the 15-minute
// roll-up (exact: every zone's offset since 2000 is a multiple of 15 minutes, checked below) and
// listed in the same transaction, with the writer held off by a table lock so that no point is
// counted twice or missed; a zone taken out of it is dropped.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { rows } from '../db/rows.ts';
import { isKnownTimeZone, offsetsWithin } from '../time/kpiTime.ts';

/** Zones kept at most (each one costs the writer a roll-up insert per batch). */
export const MAX_DAY_ZONES = 8;

const QUARTER_HOUR = 15 * 60_000;
const SINCE = Date.UTC(2000, 0, 1);
const YEAR = 365 * 86_400_000;

/** Why the list cannot be kept (for the configuration's message), or undefined. */
export function dayZonesProblem(zones: string[]): string | undefined {
  if (zones.length > MAX_DAY_ZONES) return `lists at most ${MAX_DAY_ZONES} time zones`;
  for (const zone of zones) {
    if (zone.length > 64 || !isKnownTimeZone(zone)) return `must list IANA time zone names such as Europe/Bratislava ("${zone.slice(0, 64)}" is not one)`;
    // 15-minute roll-up rows must each fall inside one local day of the zone.
    if (offsetsWithin(zone, SINCE, Date.now() + YEAR).some((offset) => offset % QUARTER_HOUR !== 0)) {
      return `cannot keep ${zone}: its UTC offset is not a multiple of 15 minutes`;
    }
  }
  return undefined;
}

/**
 * Makes `telemetry_day_zones` list exactly `zones`, building the rows of the new ones; answers the
 * zones whose local days are complete (the configured ones). A large history takes a while to
 * build, during which the writer waits (its queue fills and devices are slowed, nothing is lost).
 */
export async function syncDayZones(db: Database, zones: string[]): Promise<string[]> {
  return db.systemTx(async (tx) => {
    await tx.execute(sql`LOCK TABLE telemetry_day_zones, telemetry_daily_zoned IN EXCLUSIVE MODE`);
    const listed = (await rows<{ zone: string }>(tx, sql`SELECT zone FROM telemetry_day_zones`)).map((row) => row.zone);
    for (const zone of listed.filter((name) => !zones.includes(name))) {
      await tx.execute(sql`DELETE FROM telemetry_daily_zoned WHERE zone = ${zone}`);
      await tx.execute(sql`DELETE FROM telemetry_day_zones WHERE zone = ${zone}`);
    }
    for (const zone of zones.filter((name) => !listed.includes(name))) {
      await tx.execute(sql`DELETE FROM telemetry_daily_zoned WHERE zone = ${zone}`);
      await tx.execute(sql`
        INSERT INTO telemetry_daily_zoned (tenant_id, entity_id, key, zone, bucket, count, sum, min, max, last_value, last_ts)
        SELECT tenant_id, entity_id, key, ${zone}, date_trunc('day', bucket, ${zone}::text), sum(count), sum(sum), min(min), max(max),
          (array_agg(last_value ORDER BY last_ts DESC))[1], max(last_ts)
        FROM telemetry_quarter_hourly GROUP BY 1, 2, 3, 4, 5`);
      await tx.execute(sql`INSERT INTO telemetry_day_zones (zone) VALUES (${zone})`);
    }
    return zones;
  }, { longRunning: true });
}
