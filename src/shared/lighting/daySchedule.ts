// What a profile starts on one local date, as instants (docs/lighting.md): the runs of its
// intervals (each from its start to the first time its end comes after it, so 22:00–05:00 runs
// into the next morning), the astro night from that day's sunset to the next sunrise (with the
// profile's offsets), and the light sensor's time window. Each belongs to the date it starts on.
import type { SunDay } from './astro.ts';
import { dayPlan, type DayPlan } from './dayPlan.ts';
import { levelOf, offsetMinutes, type LightingDefinition, type LightingProfile } from './lightingProfile.ts';
import { dayFrame, type DayNumber, instantOfTime, MINUTE_MS, minutesOf } from './localTime.ts';

/** A span of time [from, to) in ms, started on `day`. */
export interface Span { from: number; to: number; day: DayNumber }
/** One interval's run: its level and its position in its list (a later one wins an overlap). */
export interface Run extends Span { level: number; index: number }

export interface DaySchedule {
  day: DayNumber;
  plan: DayPlan;
  runs: Run[];
  /** The astro night starting this day (astro clock only). */
  night?: Span;
  /** The sensor's window starting this day; undefined when the sensor has no window (always). */
  window?: Span;
}

/** What the schedule of any day needs: the profile, and the place's zone and sun days. */
export interface ScheduleContext {
  type: LightingProfile['type'];
  definition: LightingDefinition;
  timeZone: string;
  sunOf: (day: DayNumber) => SunDay;
}

/** The instant of an interval's end on a day: a time of day, or an astro event plus offset (undefined when it does not happen). */
function endOn(context: ScheduleContext, day: DayNumber, event: string | undefined, time: string | undefined, offset: unknown): number | undefined {
  if (event === undefined || event === 'time') {
    const minutes = minutesOf(time);
    return minutes === undefined ? undefined : instantOfTime(dayFrame(day, context.timeZone), minutes);
  }
  if (event !== 'sunset' && event !== 'sunrise') return undefined;
  const sun = context.sunOf(day);
  if (sun.kind !== 'normal') return undefined;
  return (event === 'sunset' ? sun.sunset : sun.sunrise).getTime() + offsetMinutes(offset) * MINUTE_MS;
}

/** A span from `from` on `day` to the first `to` after it, on that day or the next. */
function spanFrom(day: DayNumber, from: number | undefined, to: (day: DayNumber) => number | undefined): Span | undefined {
  if (from === undefined) return undefined;
  let end = to(day);
  if (end === undefined || end <= from) end = to(day + 1);
  return end === undefined || end <= from ? undefined : { from, to: end, day };
}

function nightOf(context: ScheduleContext, day: DayNumber): Span | undefined {
  const sun = context.sunOf(day);
  if (sun.kind === 'polar-day') return undefined;
  const next = context.sunOf(day + 1);
  const from = sun.kind === 'normal' ? sun.sunset.getTime() + offsetMinutes(context.definition.dusk_offset) * MINUTE_MS : dayFrame(day, context.timeZone).start;
  const to = next.kind === 'normal' ? next.sunrise.getTime() + offsetMinutes(context.definition.dawn_offset) * MINUTE_MS : dayFrame(day + 1, context.timeZone).start;
  return to > from ? { from, to, day } : undefined;
}

function windowOf(context: ScheduleContext, day: DayNumber): Span | undefined {
  const sensor = context.definition.light_sensor;
  const from = minutesOf(sensor?.window_from);
  const to = minutesOf(sensor?.window_to);
  if (from === undefined || to === undefined || from === to) return undefined;
  const at = (minutes: number) => (on: DayNumber) => instantOfTime(dayFrame(on, context.timeZone), minutes);
  return spanFrom(day, at(from)(day), at(to));
}

export function daySchedule(context: ScheduleContext, day: DayNumber): DaySchedule {
  const plan = dayPlan(context.definition, day);
  const runs: Run[] = [];
  plan.intervals.forEach((interval, index) => {
    if (!interval) return;
    const from = endOn(context, day, interval.from_event, interval.from, interval.from_offset);
    const span = spanFrom(day, from, (on) => endOn(context, on, interval.to_event, interval.to, interval.to_offset));
    if (span) runs.push({ ...span, level: levelOf(interval.value, context.type), index });
  });
  return {
    day,
    plan,
    runs,
    night: context.definition.astro_clock ? nightOf(context, day) : undefined,
    window: context.definition.light_sensor?.enabled ? windowOf(context, day) : undefined,
  };
}
