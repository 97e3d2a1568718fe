// The instants of a complex query (docs/api.md "Complex queries"), in the tenant's time zone with
// the calendar of the KPI data (server/time/kpiTime.ts): a `range` bound on `ts` — an ISO
// instant or Elasticsearch date math (now, now-7d, now/d, now-1M/M) — and a scheduler's time slot.
import type { SCHEDULER_TIME_SLOTS } from '../../../src/schemas/enums.ts';
import type { ComparisonOp } from '../../db/complexQueryQueries.ts';
import { addMonths, bucketStart, calendarRange, nextBucketStart, wallTime, zonedInstant } from '../../time/kpiTime.ts';
import { ComplexQueryRefused } from './complexQueryRefused.ts';
import { DATE_MATH, ISO_INSTANT } from './complexQuerySchema.ts';

export type TimeSlot = (typeof SCHEDULER_TIME_SLOTS)[number];
export type RangeBound = 'gte' | 'gt' | 'lte' | 'lt';
/** What each bound of a `range` compares with. */
export const RANGE_OPERATORS: Record<RangeBound, ComparisonOp> = { gte: '>=', gt: '>', lte: '<=', lt: '<' };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Instants a timestamp column and Date both hold, with room (as KPI ranges). */
const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(9000, 0, 1);

const SLOT_RANGES = { 'last-week': 'last_week', 'last-month': 'last_month', 'last-year': 'last_year' } as const;

/** A time slot at `now`: the previous whole week (Monday to Monday), month or year in the zone, [from, to). */
export const timeSlotRange = (slot: TimeSlot, zone: string, now: number): [number, number] => calendarRange(zone, SLOT_RANGES[slot], now);

/** The period [start, end) of a rounding unit (`/d`) that holds `at`, in the zone. */
function periodOf(unit: string, zone: string, at: number): [number, number] {
  switch (unit) {
    case 'y': return calendarRange(zone, 'this_year', at);
    case 'M': return calendarRange(zone, 'this_month', at);
    case 'w': return calendarRange(zone, 'this_week', at);
    case 'd': return calendarRange(zone, 'today', at);
    case 'h':
    case 'H': {
      const start = bucketStart(zone, '1h', at);
      return [start, nextBucketStart(zone, '1h', start)];
    }
    default: {
      const start = bucketStart(zone, '1m', at);
      return [start, start + MINUTE];
    }
  }
}

/**
 * `at` moved by `count` units (back when negative): years, months, weeks and days in the zone's
 * wall time (the same local time; a month from the 31st ends on the month's last day), hours,
 * minutes and seconds as durations.
 */
function moved(zone: string, at: number, count: number, unit: string): number {
  switch (unit) {
    case 'y': return zonedInstant(zone, addMonths(wallTime(zone, at), 12 * count));
    case 'M': return zonedInstant(zone, addMonths(wallTime(zone, at), count));
    case 'w': return zonedInstant(zone, wallTime(zone, at) + 7 * count * DAY);
    case 'd': return zonedInstant(zone, wallTime(zone, at) + count * DAY);
    case 'h':
    case 'H': return at + count * HOUR;
    case 'm': return at + count * MINUTE;
    default: return at + count * SECOND;
  }
}

const DAYS_IN_MONTH = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** An ISO instant's milliseconds, or undefined when its fields are not a real date and time (30 February, 24:00). */
function isoInstant(text: string): number | undefined {
  const [, year, month, day, hour, minute, second = '0'] = ISO_INSTANT.exec(text) ?? [];
  if (year === undefined) return undefined;
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  if (mo < 1 || mo > 12 || d < 1 || d > DAYS_IN_MONTH(y, mo) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? at : undefined;
}

/**
 * The condition one `range` bound on `ts` makes. With a rounding, as Elasticsearch rounds: `gte`
 * from the start of the rounded period, `gt` from its end, `lt` before its start, `lte` before its
 * end (`lte: now/d` takes the whole of today). `path` names the bound in a refusal.
 */
export function timeCondition(bound: RangeBound, text: string, zone: string, now: number, path: string): { op: ComparisonOp; at: number } {
  const math = DATE_MATH.exec(text);
  let at: number | undefined;
  let op = RANGE_OPERATORS[bound];
  if (math) {
    const [, sign, count, unit, rounding] = math;
    at = unit ? moved(zone, now, (sign === '-' ? -1 : 1) * Number(count), unit) : now;
    if (rounding && at >= EARLIEST && at < LATEST) {
      const [start, end] = periodOf(rounding, zone, at);
      [op, at] = bound === 'gte' || bound === 'lt' ? [op, start] : [bound === 'gt' ? '>=' : '<', end];
    }
  } else {
    at = isoInstant(text);
    if (at === undefined) throw new ComplexQueryRefused('is not a date and time that exists', path);
  }
  if (!(at >= EARLIEST && at < LATEST)) throw new ComplexQueryRefused('is outside the years 1900–8999', path);
  return { op, at };
}
