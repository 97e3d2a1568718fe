// The level (0–100) a lamp must have at an instant by its lighting profile, and why
// (docs/lighting.md): intervals over the astro clock, the light sensor over both within its
// window, an exception date over everything that starts on it. Pure: the engine calls it for every
// lamp each minute, the profile preview through dayTimeline. A call costs about 9 µs once the sun
// times of its place and dates are kept (bench/lightingLevels.ts: 10,000 lamps in about 90 ms).
import { sunDaysAt, type Place } from './astro.ts';
import { daySchedule, type DaySchedule, type Run, type ScheduleContext, type Span } from './daySchedule.ts';
import { levelOf, type LightingProfile } from './lightingProfile.ts';
import { type DayNumber, localDayOf } from './localTime.ts';

/** What decided a level, for the interface and the logs. */
export type LevelReason = 'interval' | 'astro-night' | 'astro-day' | 'sensor' | 'exception' | 'off';

export interface SensorReading {
  /** The latest illuminance (lx); null or undefined when none is known. */
  lux?: number | null;
  /** The sensor state returned by the previous call for this lamp. */
  previousOn?: boolean;
}

export interface LevelInput extends Place {
  at: Date | number;
  sensor?: SensorReading;
}

export interface LevelResult {
  level: number;
  reason: LevelReason;
  /** The sensor's state to pass back next time (profiles with an enabled sensor only). */
  sensorOn?: boolean;
}

/**
 * A run may begin up to three hours before its date (an astro start with a negative offset) and
 * end up to a day and three hours after it: the instants of a date are touched by what starts on
 * the two dates before, the date itself and the next.
 */
export const DAYS_TOUCHING = [-2, -1, 0, 1] as const;

export const contextOf = (profile: LightingProfile, place: Place): ScheduleContext => ({
  type: profile.type, definition: profile.definition ?? {}, timeZone: place.timeZone, sunOf: sunDaysAt(place),
});

export const schedulesAround = (context: ScheduleContext, day: DayNumber): DaySchedule[] => DAYS_TOUCHING.map((shift) => daySchedule(context, day + shift));

const covers = (span: Span | undefined, at: number) => span !== undefined && at >= span.from && at < span.to;

/** The level at `at` from the schedules of the days touching its date `day`; `sensor` as for levelAt. */
export function levelFromSchedules(context: ScheduleContext, schedules: readonly DaySchedule[], day: DayNumber, at: number, sensor?: SensorReading): LevelResult {
  let run: Run | undefined;
  let night: Span | undefined;
  for (const schedule of schedules) {
    for (const candidate of schedule.runs) {
      if (covers(candidate, at) && (!run || candidate.index > run.index || (candidate.index === run.index && candidate.day > run.day))) run = candidate;
    }
    if (covers(schedule.night, at)) night = schedule.night;
  }

  let result: LevelResult;
  let owner = day;
  if (run) {
    result = { level: run.level, reason: 'interval' };
    owner = run.day;
  } else if (!context.definition.astro_clock) result = { level: 0, reason: 'off' };
  else if (night) {
    result = { level: 100, reason: 'astro-night' };
    owner = night.day;
  } else result = { level: 0, reason: 'astro-day' };

  const settings = context.definition.light_sensor;
  if (settings?.enabled && typeof settings.dawn === 'number' && typeof settings.dusk === 'number') {
    const lux = typeof sensor?.lux === 'number' && Number.isFinite(sensor.lux) ? sensor.lux : undefined;
    const on = lux === undefined ? sensor?.previousOn
      : lux < settings.dusk ? true
        : lux > settings.dawn ? false
          : sensor?.previousOn ?? result.level > 0;
    const inWindow = schedules.every((schedule) => !schedule.window) || schedules.some((schedule) => covers(schedule.window, at));
    if (lux !== undefined && inWindow) {
      result = { level: on ? (run ? run.level : levelOf(settings.value ?? 100, context.type)) : 0, reason: 'sensor' };
      owner = on && run ? run.day : day;
    }
    result.sensorOn = on;
  }

  const exception = schedules.find((schedule) => schedule.day === owner)?.plan.exception;
  if (exception && (exception.value === undefined || result.level > 0)) {
    result.level = exception.value === undefined ? 0 : levelOf(exception.value, context.type);
    result.reason = 'exception';
  }
  return result;
}

/** The level a lamp at `input`'s place must have at `input.at` by `profile`. */
export function levelAt(profile: LightingProfile, input: LevelInput): LevelResult {
  const at = +input.at;
  const context = contextOf(profile, input);
  const day = localDayOf(at, input.timeZone);
  return levelFromSchedules(context, schedulesAround(context, day), day, at, input.sensor);
}
