// The local days kept per time zone (server/telemetry/dayZones.ts): a zone added to the
// configuration is built from the 15-minute roll-up and listed in the same transaction, with the
// writer held off by a table lock so that no point is counted twice or missed; a zone taken out of
// it is dropped.
import { sql } from 'drizzle-orm';
import type { Database } from './database.ts';
import { rows } from './rows.ts';

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
