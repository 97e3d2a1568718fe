// The pure time arithmetic of GET /kpi-data (docs/api.md "KPI data"): UTC offsets of a time zone,
// bucket starts in that zone, the range a KPI definition asks for (whole buckets), and which
// telemetry table answers it exactly. The SQL in server/db/kpiDataQueries.ts computes the same
// bucket starts, row by row; the two must agree:
//   1m, 5m, 15m, 1h   local wall time floored to the step, the point's own offset kept:
//                     ts - ((ts AT TIME ZONE tz) - date_bin(step, ts AT TIME ZONE tz, 2000-01-01))
//                     (the repeated hour of an autumn DST change is two buckets, not one of two hours)
//   1d, 1w, 1M        date_trunc('day' | 'week' | 'month', ts, tz): local midnight, Monday, the 1st
import type { CALENDAR_TIME_RANGES, ROLLING_TIME_RANGES } from '../../src/schemas/enums.ts';
import type { Kpi } from '../../src/schemas/kpi.ts';

type Definition = Kpi['definition'];
export type KpiInterval = NonNullable<Definition['time_interval']>;
export type KpiTimeRange = NonNullable<Definition['time_range']>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Steps of the buckets shorter than a day (they divide a day, so local midnights are boundaries). */
const SUB_DAY_STEPS: Partial<Record<KpiInterval, number>> = { '1m': MINUTE, '5m': 5 * MINUTE, '15m': 15 * MINUTE, '1h': HOUR };
/** Calendar buckets and their date_trunc unit. */
const CALENDAR_UNITS: Partial<Record<KpiInterval, 'day' | 'week' | 'month'>> = { '1d': 'day', '1w': 'week', '1M': 'month' };
/** The nominal length of each bucket (a month as its shortest, for upper estimates of bucket counts). */
export const NOMINAL_MS: Record<KpiInterval, number> = {
  '1m': MINUTE, '5m': 5 * MINUTE, '15m': 15 * MINUTE, '1h': HOUR, '1d': DAY, '1w': 7 * DAY, '1M': 28 * DAY,
};
type RollingTimeRange = (typeof ROLLING_TIME_RANGES)[number];
export type CalendarTimeRange = (typeof CALENDAR_TIME_RANGES)[number];
/** Rolling ranges of a fixed length (`6M` is counted in calendar months instead: `ROLLING_MONTHS`). */
const RANGE_MS: Partial<Record<RollingTimeRange, number>> = {
  '15m': 15 * MINUTE, '30m': 30 * MINUTE, '1h': HOUR, '2h': 2 * HOUR, '5h': 5 * HOUR, '12h': 12 * HOUR, '24h': DAY,
  '7d': 7 * DAY, '30d': 30 * DAY, '60d': 60 * DAY, '90d': 90 * DAY, '1y': 365 * DAY,
};
const ROLLING_MONTHS: Partial<Record<RollingTimeRange, number>> = { '6M': 6 };
type Period = 'day' | 'week' | 'month' | 'year';
/** Each calendar range: its period, and how many periods before the current one it is. */
const CALENDAR_RANGES: Record<CalendarTimeRange, { period: Period; back: 0 | 1 }> = {
  today: { period: 'day', back: 0 }, yesterday: { period: 'day', back: 1 },
  this_week: { period: 'week', back: 0 }, last_week: { period: 'week', back: 1 },
  this_month: { period: 'month', back: 0 }, last_month: { period: 'month', back: 1 },
  this_year: { period: 'year', back: 0 }, last_year: { period: 'year', back: 1 },
};
const isCalendarRange = (range: KpiTimeRange): range is CalendarTimeRange => range in CALENDAR_RANGES;

export const subDayStep = (interval: KpiInterval) => SUB_DAY_STEPS[interval];
export const calendarUnit = (interval: KpiInterval) => CALENDAR_UNITS[interval];

// ---- offsets ------------------------------------------------------------------------------

const mod = (value: number, step: number) => ((value % step) + step) % step;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    if (formatters.size > 1000) formatters.clear();
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (an IANA name or an alias such as UTC). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * A zone Intl knows, in Intl's letter case, but not replaced by the older name Intl prefers for
 * some (Asia/Kolkata stays Asia/Kolkata, not Asia/Calcutta).
 */
export function canonicalZone(zone: string): string {
  const resolved = formatterOf(zone).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

/** The local wall time of `at` in `zone`, as the UTC milliseconds of the same wall-clock reading. */
export function wallTime(zone: string, at: number): number {
  if (zone === 'UTC') return at; // the default zone, and a comparison's points each ask
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  // (years 0–99 would be read as 1900–1999 by Date.UTC; ranges stay within 1900–9000)
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) + mod(at, 1000);
}

/** The zone's UTC offset at `at`, in milliseconds (positive east of Greenwich). */
export const zoneOffset = (zone: string, at: number) => wallTime(zone, at) - at;

/**
 * The instant a local wall time (as UTC milliseconds of the same reading) names in `zone`, as
 * PostgreSQL resolves it: in a spring gap with the offset before the change, in an autumn overlap
 * with the offset after it.
 */
export function zonedInstant(zone: string, wall: number): number {
  const before = zoneOffset(zone, wall - DAY / 2 - HOUR * 14);
  const after = zoneOffset(zone, wall + DAY / 2 + HOUR * 14);
  const fits = (offset: number) => zoneOffset(zone, wall - offset) === offset;
  if (fits(after)) return wall - after;
  if (fits(before)) return wall - before;
  // Neither (a gap), or an offset that changed twice within a day: the offset at that moment.
  const direct = zoneOffset(zone, wall - before);
  return fits(direct) ? wall - direct : wall - before;
}

const offsetsCache = new Map<string, number[]>();

/**
 * The zone's UTC offsets (ms) in [from, to): sampled at both ends and every 12 hours between, so
 * every offset in force for 12 hours or more is seen (a DST offset holds for months).
 */
export function offsetsWithin(zone: string, from: number, to: number): number[] {
  const key = `${zone}|${from}|${to}`;
  const cached = offsetsCache.get(key);
  if (cached) return cached;
  const offsets = new Set<number>([zoneOffset(zone, from), zoneOffset(zone, Math.max(from, to - 1))]);
  for (let at = from; at < to; at += 12 * HOUR) offsets.add(zoneOffset(zone, at));
  const list = [...offsets];
  if (offsetsCache.size > 1000) offsetsCache.clear();
  offsetsCache.set(key, list);
  return list;
}

// ---- buckets ------------------------------------------------------------------------------

/** The start of the bucket holding `at` (see the file comment for the SQL it mirrors). */
export function bucketStart(zone: string, interval: KpiInterval, at: number): number {
  const step = SUB_DAY_STEPS[interval];
  if (step) return at - mod(wallTime(zone, at), step);
  const wall = wallTime(zone, at);
  const day = wall - mod(wall, DAY);
  const date = new Date(day);
  if (interval === '1d') return zonedInstant(zone, day);
  if (interval === '1w') return zonedInstant(zone, day - mod(date.getUTCDay() - 1, 7) * DAY);
  return zonedInstant(zone, Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucketStart(zone: string, interval: KpiInterval, start: number): number {
  const step = SUB_DAY_STEPS[interval];
  if (step) return start + step;
  const wall = wallTime(zone, start);
  const date = new Date(wall - mod(wall, DAY));
  if (interval === '1d') date.setUTCDate(date.getUTCDate() + 1);
  else if (interval === '1w') date.setUTCDate(date.getUTCDate() + 7);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return zonedInstant(zone, date.getTime());
}

/** `at` if it starts a bucket, else the start of the next bucket. */
export function bucketEnd(zone: string, interval: KpiInterval, at: number): number {
  const start = bucketStart(zone, interval, at);
  return start === at ? at : nextBucketStart(zone, interval, start);
}

// ---- the range ----------------------------------------------------------------------------

/** The definition's fields that decide the range (the KPI schema's defaults when absent). */
export type RangeDefinition = Partial<Pick<Definition, 'time_interval' | 'time_range' | 'time_shift' | 'date_range' | 'floating_start' | 'floating_window'>>;

export interface KpiRange {
  interval: KpiInterval;
  /** First bucket start (inclusive), ms. */
  from: number;
  /** End of the last bucket (exclusive), ms. */
  to: number;
}

/** A definition whose range cannot be answered (the caller answers 400 Bad kpi_data). */
export class BadRange extends Error {}

/**
 * The start of a calendar period in `zone` (local midnight of the day, Monday, the 1st, 1 January),
 * `back` periods before the one holding `at`, as a wall time (UTC ms of the local reading).
 */
function periodWallStart(zone: string, period: Period, at: number, back: number): number {
  const wall = wallTime(zone, at);
  const date = new Date(wall - mod(wall, DAY));
  const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  if (period === 'day') return Date.UTC(year, month, day - back);
  if (period === 'week') return Date.UTC(year, month, day - mod(date.getUTCDay() - 1, 7) - 7 * back);
  if (period === 'month') return Date.UTC(year, month - back, 1);
  return Date.UTC(year - back, 0, 1);
}

/** The wall time one period after the period starting at `wallStart`. */
function nextPeriodWall(period: Period, wallStart: number): number {
  const date = new Date(wallStart);
  const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  if (period === 'day') return Date.UTC(year, month, day + 1);
  if (period === 'week') return Date.UTC(year, month, day + 7);
  if (period === 'month') return Date.UTC(year, month + 1, 1);
  return Date.UTC(year + 1, 0, 1);
}

/**
 * A calendar range at `now` in `zone`, [from, to): the whole current or previous day, week (from
 * Monday), month or year, from local midnight to local midnight, so a day is 23, 24 or 25 hours.
 */
export function calendarRange(zone: string, range: CalendarTimeRange, now: number): [number, number] {
  const { period, back } = CALENDAR_RANGES[range];
  const start = periodWallStart(zone, period, now, back);
  return [zonedInstant(zone, start), zonedInstant(zone, nextPeriodWall(period, start))];
}

/** The start of a rolling range ending at `now`: its length before, `6M` six calendar months before in the zone's wall time. */
function rollingStart(zone: string, range: RollingTimeRange, now: number): number {
  const months = ROLLING_MONTHS[range];
  return months ? zonedInstant(zone, addMonths(wallTime(zone, now), -months)) : now - RANGE_MS[range]!;
}

/**
 * The range of a definition at `now`, in this precedence: `date_range` (when not empty), a calendar
 * `time_range` (today, last_week, …: whole periods), the floating start until now (with
 * `floating_window`: until the end of its period), the rolling
 * `time_range` ending now; moved back by `time_shift` hours; then widened to whole buckets (from
 * down to its bucket's start, to up to its bucket's end).
 */
export function kpiRange(definition: RangeDefinition, zone: string, now: number): KpiRange {
  const interval = definition.time_interval ?? '1h';
  const timeRange = definition.time_range ?? '24h';
  let from: number;
  let to: number;
  const dateRange = definition.date_range;
  if (dateRange && (dateRange.from !== undefined || dateRange.to !== undefined)) {
    from = Date.parse(dateRange.from ?? '');
    to = Date.parse(dateRange.to ?? '');
    if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) throw new BadRange('date_range must run from an earlier to a later instant');
  } else if (isCalendarRange(timeRange)) {
    [from, to] = calendarRange(zone, timeRange, now);
  } else if (definition.floating_start && definition.floating_start !== 'none') {
    const wallStart = periodWallStart(zone, definition.floating_start, now, 0);
    from = zonedInstant(zone, wallStart);
    // a floating window: the whole period, its end ahead of now
    to = definition.floating_window ? zonedInstant(zone, nextPeriodWall(definition.floating_start, wallStart)) : now;
  } else {
    to = now;
    from = rollingStart(zone, timeRange, now);
  }
  const shift = (definition.time_shift ?? 0) * HOUR;
  from -= shift;
  to -= shift;
  // Beyond what a timestamp column and Date hold, with room for the widening below.
  if (from < Date.UTC(1900, 0, 1) || to > Date.UTC(9000, 0, 1)) throw new BadRange('the range is outside the years 1900–9000');
  const start = bucketStart(zone, interval, from);
  return { interval, from: start, to: Math.max(bucketEnd(zone, interval, to), nextBucketStart(zone, interval, start)) };
}

export type CompareDefinition = NonNullable<Definition['compare']>;

/** A wall time (UTC ms of the reading) moved by whole calendar months; a day past the month's end is its last day (31 Mar − 1 month = 28/29 Feb). */
export function addMonths(wall: number, months: number): number {
  const date = new Date(wall);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(date.getUTCDate(), lastDay)) + mod(wall, DAY);
}

/**
 * The comparison of a range (SPEC §5, one series): the earlier range the same query reads, and how
 * an instant of it moves onto the chart's range — in the zone's wall time, so a day before is the
 * same hour of the day before across a DST change, and a month before is the same day of the month.
 * undefined when the definition compares nothing.
 */
export function compareRange(range: KpiRange, compare: CompareDefinition | undefined, zone: string): { range: KpiRange; onChart(at: number): number } | undefined {
  const shift = compare?.compare_shift ?? 'none';
  if (shift === 'none') return undefined;
  const wallFrom = wallTime(zone, range.from);
  const length = wallTime(zone, range.to) - wallFrom;
  const by = compare?.compare_by ?? 1;
  let back: (wall: number) => number;
  let forth: (wall: number) => number;
  if (shift === 'months' || shift === 'years') {
    const months = by * (shift === 'years' ? 12 : 1);
    [back, forth] = [(wall) => addMonths(wall, -months), (wall) => addMonths(wall, months)];
  } else {
    let distance: number;
    if (shift === 'previous') distance = length;
    else if (shift === 'date') {
      const start = Date.parse(compare?.compare_from ?? '');
      if (!Number.isFinite(start)) throw new BadRange('compare_from must be an instant');
      distance = wallFrom - wallTime(zone, bucketStart(zone, range.interval, start));
    } else distance = by * (shift === 'weeks' ? 7 : 1) * DAY;
    [back, forth] = [(wall) => wall - distance, (wall) => wall + distance];
  }
  const from = zonedInstant(zone, back(wallFrom));
  const to = zonedInstant(zone, back(wallFrom) + length);
  if (from < Date.UTC(1900, 0, 1)) throw new BadRange('the compared range is before 1900');
  const start = bucketStart(zone, range.interval, from);
  return {
    range: { interval: range.interval, from: start, to: Math.max(bucketEnd(zone, range.interval, to), nextBucketStart(zone, range.interval, start)) },
    onChart: (at) => zonedInstant(zone, forth(wallTime(zone, at))),
  };
}

/** An upper estimate of the buckets in a range. */
export const bucketCount = (range: KpiRange) => Math.ceil((range.to - range.from) / NOMINAL_MS[range.interval]) + 1;

/** The range cut at bucket starts into `count` consecutive pieces of about as many buckets each (fewer when it has fewer buckets). */
export function rangePieces(range: KpiRange, zone: string, count: number): KpiRange[] {
  if (count <= 1) return [range];
  const starts: number[] = [];
  for (let start = range.from; start < range.to; start = nextBucketStart(zone, range.interval, start)) starts.push(start);
  const per = Math.ceil(starts.length / count);
  const pieces: KpiRange[] = [];
  for (let index = 0; index < starts.length; index += per) pieces.push({ interval: range.interval, from: starts[index], to: starts[index + per] ?? range.to });
  return pieces;
}

// ---- the source table ---------------------------------------------------------------------

export type TelemetrySource = 'telemetry_daily_zoned' | 'telemetry_daily' | 'telemetry_hourly' | 'telemetry_quarter_hourly' | 'telemetry';

/** The rows' grain of each source (raw points: assumed at most one a minute per device and key). */
export const SOURCE_GRAIN_MS: Record<TelemetrySource, number> = {
  telemetry_daily_zoned: DAY, telemetry_daily: DAY, telemetry_hourly: HOUR, telemetry_quarter_hourly: 15 * MINUTE, telemetry: MINUTE,
};

/**
 * The coarsest table whose rows each fall inside one bucket, so that it answers exactly: the
 * daily (UTC days) roll-up for calendar buckets where the zone is at UTC+0 throughout the range,
 * the hourly one for buckets of an hour or more where every offset is whole hours, the 15-minute
 * one where every offset is a multiple of 15 minutes, else the raw points.
 */
export function chooseSource(zone: string, range: KpiRange): TelemetrySource {
  const offsets = offsetsWithin(zone, range.from, range.to);
  const length = NOMINAL_MS[range.interval];
  const all = (step: number) => offsets.every((offset) => offset % step === 0);
  if (length >= DAY && offsets.every((offset) => offset === 0)) return 'telemetry_daily';
  if (length >= HOUR && all(HOUR)) return 'telemetry_hourly';
  if (length >= 15 * MINUTE && all(15 * MINUTE)) return 'telemetry_quarter_hourly';
  return 'telemetry';
}

/** Time spans [from, to) (ms) to read from one table. */
export interface SourceSpans { source: TelemetrySource; spans: [number, number][] }

const COARSE_TO_FINE: TelemetrySource[] = ['telemetry_daily', 'telemetry_hourly', 'telemetry_quarter_hourly', 'telemetry'];
/** The alignment of each table's rows in UTC (raw points: any instant; local days: see `aligned`). */
const ALIGNMENT_MS: Record<Exclude<TelemetrySource, 'telemetry_daily_zoned'>, number> = { telemetry_daily: DAY, telemetry_hourly: HOUR, telemetry_quarter_hourly: 15 * MINUTE, telemetry: 1 };
/** Calendar buckets tiled at most (beyond, the finest table reads the whole range; a plan costs ~15 µs a bucket). */
const MAX_TILED_BUCKETS = 2_000;
/** Spans of one table at most (each is an index range scan). */
const MAX_SPANS = 1_000;

const plans = new Map<string, SourceSpans[]>();

/**
 * Which rows answer the range: `chooseSource`'s table for the whole range, except that calendar
 * buckets take coarser rows where those fit inside the bucket — a Bratislava month is two hours
 * of hourly rows, the UTC days inside it from the daily roll-up, and the rest of its last UTC day
 * hourly again. With `localDays` (the zone is in TELEMETRY_DAY_ZONES) the zone's own daily roll-up
 * comes first: its whole local days. Every row lies inside one bucket, so the answer stays exact;
 * the spans of a table are merged where they touch.
 */
export function sourcePlan(zone: string, range: KpiRange, localDays = false): SourceSpans[] {
  const finest = chooseSource(zone, range);
  const whole: SourceSpans[] = [{ source: finest, spans: [[range.from, range.to]] }];
  if (!calendarUnit(range.interval) || finest === 'telemetry_daily' || bucketCount(range) > MAX_TILED_BUCKETS) return whole;
  const key = `${zone}|${range.interval}|${range.from}|${range.to}|${localDays}`;
  const cached = plans.get(key);
  if (cached) return cached;

  const levels = [...localDays ? ['telemetry_daily_zoned' as const] : [], ...COARSE_TO_FINE.slice(0, COARSE_TO_FINE.indexOf(finest) + 1)];
  // The first and last boundary of the level's rows within [from, to).
  const aligned = (level: TelemetrySource, from: number, to: number): [number, number] => {
    if (level === 'telemetry_daily_zoned') {
      const first = bucketStart(zone, '1d', from);
      return [first === from ? from : nextBucketStart(zone, '1d', first), bucketStart(zone, '1d', to)];
    }
    const step = ALIGNMENT_MS[level];
    return [Math.ceil(from / step) * step, Math.floor(to / step) * step];
  };
  const spans = new Map<TelemetrySource, [number, number][]>(levels.map((level) => [level, []]));
  const add = (level: TelemetrySource, from: number, to: number) => {
    const list = spans.get(level)!;
    const last = list[list.length - 1];
    if (last && last[1] === from) last[1] = to;
    else list.push([from, to]);
  };
  // [from, to) at `level` or finer; the pieces are added in time order, so touching spans merge.
  const tile = (from: number, to: number, index: number) => {
    if (from >= to) return;
    const level = levels[index];
    if (index === levels.length - 1) return add(level, from, to);
    const [start, end] = aligned(level, from, to);
    if (start >= end) return tile(from, to, index + 1);
    tile(from, start, index + 1);
    add(level, start, end);
    tile(end, to, index + 1);
  };
  for (let start = range.from; start < range.to;) {
    const next = nextBucketStart(zone, range.interval, start);
    tile(start, next, 0);
    start = next;
  }
  const plan = levels.map((source) => ({ source, spans: spans.get(source)! })).filter((level) => level.spans.length > 0);
  const result = plan.some((level) => level.spans.length > MAX_SPANS) ? whole : plan;
  if (plans.size > 1000) plans.clear();
  plans.set(key, result);
  return result;
}

/**
 * The plan as the roll-ups stand when they hold the raw points up to `foldedUntil` (a quarter-hour
 * boundary, server/db/rollupQueries.ts): a roll-up row is read only when its period ended by then;
 * the rest of each span comes from the 15-minute rows before `foldedUntil` and from the raw points
 * after it. The 15-minute rows lie inside whatever bucket the coarser rows did, so it stays exact.
 */
export function foldedPlan(plan: SourceSpans[], zone: string, foldedUntil: number): SourceSpans[] {
  if (!Number.isFinite(foldedUntil)) foldedUntil = Math.min(...plan.flatMap((level) => level.spans.map(([from]) => from)));
  const pieces = new Map<TelemetrySource, [number, number][]>(plan.map((level) => [level.source, []]));
  const add = (source: TelemetrySource, from: number, to: number) => {
    if (from >= to) return;
    if (!pieces.has(source)) pieces.set(source, []);
    pieces.get(source)!.push([from, to]);
  };
  const quarter = 'telemetry_quarter_hourly';
  for (const { source, spans } of plan) {
    // the start of the level's period holding the line: its rows before it are whole
    const cut = source === 'telemetry_daily_zoned' ? bucketStart(zone, '1d', foldedUntil)
      : Math.floor(foldedUntil / ALIGNMENT_MS[source]) * ALIGNMENT_MS[source];
    for (const [from, to] of spans) {
      if (source === 'telemetry') {
        add(source, from, to);
        continue;
      }
      add(source, from, Math.min(to, cut));
      if (source !== quarter) add(quarter, Math.max(from, cut), Math.min(to, foldedUntil));
      add('telemetry', Math.max(from, foldedUntil), to);
    }
  }
  const result: SourceSpans[] = [];
  for (const [source, list] of pieces) {
    list.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [from, to] of list) {
      const last = merged[merged.length - 1];
      if (last && last[1] >= from) last[1] = Math.max(last[1], to);
      else merged.push([from, to]);
    }
    if (merged.length) result.push({ source, spans: merged });
  }
  return result;
}

/**
 * How a level's rows are found: one index range (a single span); or, for many spans, either the
 * level's whole range with each row kept when it lies in a span (a binary search over the spans per
 * row: many rows wanted, as the hours of a year of Kolkata days) or one index search per span (few
 * rows wanted in many places, as the half hours at the ends of those days). Joining every row with
 * every span instead cost rows × spans: 3 s for a year of Kolkata days of 12 lamps.
 */
export type SpanReading = 'range' | 'filter' | 'search';

/** An index search (per span and entity) costs about as much as reading this many rows (measured in PGlite). */
export const SEARCH_ROWS = 4;

/** The cheaper way to read a level, and its cost per entity in rows (raw points: one a minute). */
export function readingOf(level: SourceSpans): { reading: SpanReading; rows: number } {
  const grain = SOURCE_GRAIN_MS[level.source];
  const wanted = level.spans.reduce((sum, [from, to]) => sum + Math.ceil((to - from) / grain), 0);
  if (level.spans.length === 1) return { reading: 'range', rows: wanted };
  const whole = Math.ceil((level.spans[level.spans.length - 1][1] - level.spans[0][0]) / grain);
  const searched = wanted + level.spans.length * SEARCH_ROWS;
  return whole <= searched ? { reading: 'filter', rows: whole } : { reading: 'search', rows: searched };
}

/**
 * An estimate of what a plan costs per entity, in rows read (`readingOf` each level); raw points
 * counted up to `now` only (a device may send a point up to a day ahead, rarely).
 */
export function planRows(plan: SourceSpans[], now = Number.POSITIVE_INFINITY): number {
  return plan.reduce((rows, level) => {
    if (level.source !== 'telemetry' || !Number.isFinite(now)) return rows + readingOf(level).rows;
    const spans = level.spans.filter(([from]) => from < now).map(([from, to]): [number, number] => [from, Math.min(to, now)]);
    return spans.length ? rows + readingOf({ source: level.source, spans }).rows : rows;
  }, 0);
}
