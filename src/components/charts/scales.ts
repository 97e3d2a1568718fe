// The scales a chart lays its marks out on: a value scale with "nice" ticks (or a fixed range), a
// band of buckets, and instants on a time line with ticks at whole steps of the chart's zone.
// Pure: the layouts built on them are tested without a browser.

export interface ValueScale {
  min: number;
  max: number;
  ticks: number[];
}

/** A step of 1, 2 or 5 times a power of ten giving about `count` steps over the span. */
function tickStep(span: number, count: number): number {
  const rough = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const error = rough / power;
  if (error >= 7.07) return power * 10;
  if (error >= 3.16) return power * 5;
  if (error >= 1.41) return power * 2;
  return power;
}

/** Multiples of `step` within [from, to], computed from integers so no 0.30000000000000004 creeps in. */
function multiples(from: number, to: number, step: number): number[] {
  const ticks: number[] = [];
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  for (let index = Math.ceil(from / step - 1e-9); index * step <= to + step * 1e-9; index += 1) ticks.push(Number((index * step).toFixed(decimals)));
  return ticks;
}

/**
 * The value scale over `values` with about `count` ticks, widened to whole ticks; `withZero` keeps 0
 * inside (bars and areas grow from it). A `fixed` range stays as given, its ticks inside it.
 */
export function valueScale(values: readonly number[], count = 5, withZero = false, fixed?: readonly [number, number]): ValueScale {
  if (fixed) return { min: fixed[0], max: fixed[1], ticks: multiples(fixed[0], fixed[1], tickStep(fixed[1] - fixed[0] || 1, count)) };
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (min > max) [min, max] = [0, 1];
  if (withZero) [min, max] = [Math.min(min, 0), Math.max(max, 0)];
  if (min === max) [min, max] = min === 0 ? [0, 1] : [Math.min(min, 0), Math.max(max, 0)];
  if (min === max) [min, max] = [min - 1, max + 1];
  const step = tickStep(max - min, count);
  // `|| 0`: no -0 to write as "-0"
  const niceMin = Math.floor(min / step + 1e-9) * step || 0;
  const niceMax = Math.ceil(max / step - 1e-9) * step || 0;
  return { min: niceMin, max: niceMax, ticks: multiples(niceMin, niceMax, step) };
}

/** Where a value falls between `from` (the scale's min) and `to` (its max) on screen. */
export function project(scale: ValueScale, from: number, to: number): (value: number) => number {
  const span = scale.max - scale.min || 1;
  return (value) => from + ((value - scale.min) / span) * (to - from);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Tick steps of a time line, shortest first; months and years as their usual length (ticks fall on local midnights). */
const TIME_STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 365 * DAY];

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at `at` (ms). */
export function zoneOffset(timeZone: string, at: number): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    offsetFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(at)).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - Math.floor(at / 1000) * 1000;
}

/** Instants in [from, to] at whole steps of `timeZone`'s clock, at most `most` of them. */
export function timeTicks(from: number, to: number, most: number, timeZone: string): number[] {
  const span = to - from;
  if (!(span > 0)) return [from];
  const step = TIME_STEPS.find((candidate) => Math.floor(span / candidate) + 1 <= most) ?? TIME_STEPS.at(-1)!;
  const offset = zoneOffset(timeZone, from);
  const ticks: number[] = [];
  for (let local = Math.ceil((from + offset) / step) * step; local - offset <= to + DAY; local += step) {
    // the zone's offset at that tick: a change to or from summer time moves the instants after it
    const instant = local - zoneOffset(timeZone, local - offset);
    if (instant >= from && instant <= to) ticks.push(instant);
  }
  return ticks;
}
