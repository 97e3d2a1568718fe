// Local wall time in an IANA time zone, by Intl alone: the local date of an instant, and the
// instant of a local date's time of day, exact on the days a zone changes its offset (docs/lighting.md
// "Place and zone"). A time of day that does not exist (the hour skipped in spring) happens at the
// first instant after the gap; one that happens twice (the hour repeated in autumn) at its first
// occurrence. A local date is kept as its day number (days since 1970-01-01), so that the day
// before and after are plain arithmetic.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A local calendar date as days since 1970-01-01. */
export type DayNumber = number;

export const dayNumberOf = (date: string): DayNumber => Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
const dates = new Map<DayNumber, string>();
export function dateOf(day: DayNumber): string {
  let date = dates.get(day);
  if (date === undefined) {
    if (dates.size >= 10_000) dates.clear();
    dates.set(day, (date = new Date(day * DAY_MS).toISOString().slice(0, 10)));
  }
  return date;
}
/** The month and day of a date as one number, 1 March = 301. */
export function monthDayOf(day: DayNumber): number {
  const date = new Date(day * DAY_MS);
  return (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;

/** Minutes after midnight of a 'HH:mm' time of day, undefined when it is not one. */
export function minutesOf(time: string | undefined): number | undefined {
  if (typeof time !== 'string' || time.length !== 5 || time[2] !== ':') return undefined;
  const hours = digit(time, 0) * 10 + digit(time, 1);
  const minutes = digit(time, 3) * 10 + digit(time, 4);
  const valid = [0, 1, 3, 4].every((at) => digit(time, at) >= 0 && digit(time, at) <= 9) && hours < 24 && minutes < 60;
  return valid ? hours * 60 + minutes : undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The local wall clock of an instant, as the UTC instant that reads the same (ms). */
export function wallClockOf(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const seconds = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return seconds + (((instant % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at an instant (ms, east positive). */
export const offsetAt = (instant: number, timeZone: string) => wallClockOf(instant, timeZone) - instant;

/** The instant of a local wall-clock reading (ms as if UTC): the first if it happens twice, the end of the gap if never. */
function instantOfWallClock(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const matches = [wall - before, wall - after].filter((candidate) => offsetAt(candidate, timeZone) === wall - candidate);
  if (matches.length) return Math.min(...matches);
  // In a gap: the change happened between the two readings; find its instant.
  let low = Math.min(wall - before, wall - after);
  let high = Math.max(wall - before, wall - after);
  const first = offsetAt(low, timeZone);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetAt(middle, timeZone) === first) low = middle;
    else high = middle;
  }
  return high;
}

/** One local day of a zone: when it starts and ends, and when (if) the offset changes within it. */
export interface DayFrame {
  day: DayNumber;
  /** The first instant of the day and of the next (ms): 23, 24 or 25 hours apart. */
  start: number;
  end: number;
  /** The offsets at the start and at the end, and the instant the one becomes the other. */
  offsetBefore: number;
  offsetAfter: number;
  change: number;
}

const frames = new Map<string, Map<DayNumber, DayFrame>>();
const lastFrame = new Map<string, DayFrame>();
const MAX_FRAMES_PER_ZONE = 4000;

/** The local day `day` in `timeZone` (kept: a zone has few days in use at a time). */
export function dayFrame(day: DayNumber, timeZone: string): DayFrame {
  let byDay = frames.get(timeZone);
  if (!byDay) frames.set(timeZone, (byDay = new Map()));
  let frame = byDay.get(day);
  if (frame) return frame;
  const start = instantOfWallClock(day * DAY_MS, timeZone);
  const end = instantOfWallClock((day + 1) * DAY_MS, timeZone);
  const offsetBefore = offsetAt(start, timeZone);
  const offsetAfter = offsetAt(end - 1, timeZone);
  let change = end;
  if (offsetBefore !== offsetAfter) {
    let low = start;
    let high = end - 1;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (offsetAt(middle, timeZone) === offsetBefore) low = middle;
      else high = middle;
    }
    change = high;
  }
  frame = { day, start, end, offsetBefore, offsetAfter, change };
  if (byDay.size >= MAX_FRAMES_PER_ZONE) byDay.clear();
  byDay.set(day, frame);
  return frame;
}

/** The instant of a time of day (minutes after midnight, 0–1439) on the frame's day. */
export function instantOfTime(frame: DayFrame, minutes: number): number {
  const wall = frame.day * DAY_MS + minutes * MINUTE_MS;
  const early = wall - frame.offsetBefore;
  if (frame.offsetBefore === frame.offsetAfter) return early;
  const late = wall - frame.offsetAfter;
  const earlyHolds = early < frame.change;
  const lateHolds = late >= frame.change;
  if (earlyHolds && lateHolds) return Math.min(early, late); // happens twice: the first
  if (earlyHolds) return early;
  if (lateHolds) return late;
  return frame.change; // skipped: the first instant after the gap
}

/** The local date (day number) of an instant. */
export function localDayOf(instant: number, timeZone: string): DayNumber {
  const last = lastFrame.get(timeZone);
  if (last && instant >= last.start && instant < last.end) return last.day;
  const day = Math.floor(wallClockOf(instant, timeZone) / DAY_MS);
  lastFrame.set(timeZone, dayFrame(day, timeZone));
  return day;
}

/** The local date ('YYYY-MM-DD') of an instant. */
export const localDateOf = (at: Date | number, timeZone: string): string => dateOf(localDayOf(+at, timeZone));

/** Milliseconds after local midnight that the local wall clock shows at an instant. */
export const wallTimeOfDay = (instant: number, timeZone: string) => ((wallClockOf(instant, timeZone) % DAY_MS) + DAY_MS) % DAY_MS;

/** A time zone name this runtime knows (an IANA zone), else UTC: how a tenant's `timezone` attribute is read everywhere. */
export function timeZoneOrUtc(name: unknown): string {
  if (typeof name !== 'string' || !name) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name;
  } catch {
    return 'UTC';
  }
}
