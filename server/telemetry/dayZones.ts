// The time zones whose local days are kept as a roll-up (TELEMETRY_DAY_ZONES). A local day in
// Bratislava never holds a whole UTC day, so without it daily and monthly buckets there read 24
// hourly rows per device and day. The writer folds every batch into the local days of each zone
// listed in `telemetry_day_zones`; a zone added to the configuration is built from the 15-minute
// roll-up (exact: every zone's offset since 2000 is a multiple of 15 minutes, checked below:
// syncDayZones in server/db/dayZoneQueries.ts builds it).
import { isKnownTimeZone, offsetsWithin } from '../time/kpiTime.ts';

/** Zones kept at most (each one costs every fold a roll-up insert). */
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
