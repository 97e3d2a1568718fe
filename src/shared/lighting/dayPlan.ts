// Which rules a profile gives a local date (docs/lighting.md "Day plan"): its exception, if the
// date has one, and the intervals of the summer or winter variant whose recurring month-day range
// holds the date (summer first), else the profile's own.
import type { LightingDefinition, LightingInterval } from './lightingProfile.ts';
import { dateOf, type DayNumber, monthDayOf } from './localTime.ts';

type Season = NonNullable<LightingDefinition['summer']>;

export interface DayPlan {
  /** The intervals that start on the date. */
  intervals: readonly LightingInterval[];
  /** Where they come from. */
  source: 'summer' | 'winter' | 'profile';
  /** The date's exception (the last one listed for it); a missing value keeps the lamp off. */
  exception?: { value?: number };
}

/** '2026-03-01' → 301; undefined for anything that is not a date. */
function monthDayOfDate(date: string | undefined): number | undefined {
  if (typeof date !== 'string' || date.length < 10 || date[4] !== '-' || date[7] !== '-') return undefined;
  const monthDay = Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
  return Number.isInteger(monthDay) ? monthDay : undefined;
}

/** Whether a season holds a month-day: its range, years ignored, may run over the year's end. */
function seasonHolds(season: Season | undefined, monthDay: number): boolean {
  const from = monthDayOfDate(season?.from);
  const to = monthDayOfDate(season?.to);
  if (from === undefined || to === undefined || !season?.intervals?.length) return false;
  return from <= to ? monthDay >= from && monthDay <= to : monthDay >= from || monthDay <= to;
}

export function dayPlan(definition: LightingDefinition, day: DayNumber): DayPlan {
  const exceptions = definition.exceptions ?? [];
  let exception: DayPlan['exception'];
  if (exceptions.length) {
    const date = dateOf(day);
    for (const candidate of exceptions) if (candidate?.date === date) exception = candidate;
  }
  const monthDay = monthDayOf(day);
  if (seasonHolds(definition.summer, monthDay)) return { intervals: definition.summer!.intervals!, source: 'summer', exception };
  if (seasonHolds(definition.winter, monthDay)) return { intervals: definition.winter!.intervals!, source: 'winter', exception };
  return { intervals: definition.intervals ?? [], source: 'profile', exception };
}
