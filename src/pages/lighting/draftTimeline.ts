// The day timeline of a profile as it stands in the editor, half-filled or not: a place or date the
// preview cannot use is said (never thrown), and intervals still missing a start or an end are
// counted, since dayTimeline leaves them out (an interval without a level runs at 0, as drawn).
import { dayTimeline, type DayTimeline, type LightingProfile } from '../../shared/lighting/index.ts';
import { minutesOf } from '../../shared/lighting/localTime.ts';

export interface PreviewPlace {
  /** 'YYYY-MM-DD' */
  date: string;
  latitude: number | null | undefined;
  longitude: number | null | undefined;
  timeZone: string;
}

export type DraftTimeline =
  | { timeline: DayTimeline; incomplete: number }
  | { problem: 'place' | 'date' | 'values' };

const within = (value: number | null | undefined, limit: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;

type Interval = NonNullable<NonNullable<NonNullable<LightingProfile['definition']>['intervals']>[number]>;

/** An end is complete when it is sunset or sunrise, or a valid time of day. */
const endComplete = (event: unknown, time: unknown) => event === 'sunset' || event === 'sunrise' || minutesOf(time as string) !== undefined;
const intervalComplete = (interval: Interval | undefined) => !!interval
  && endComplete(interval.from_event, interval.from) && endComplete(interval.to_event, interval.to);

/** Intervals of the profile and its seasons that dayTimeline cannot run yet. */
export function incompleteIntervals(profile: LightingProfile): number {
  const definition = profile.definition;
  const lists = [definition?.intervals, definition?.summer?.intervals, definition?.winter?.intervals];
  return lists.reduce((count, list) => count + (list ?? []).filter((interval) => !intervalComplete(interval)).length, 0);
}

export function draftTimeline(profile: LightingProfile, place: PreviewPlace): DraftTimeline {
  if (!within(place.latitude, 90) || !within(place.longitude, 180)) return { problem: 'place' };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(place.date) || !Number.isFinite(Date.parse(place.date))) return { problem: 'date' };
  try {
    const timeline = dayTimeline(profile, { date: place.date, latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone });
    return timeline.segments.length ? { timeline, incomplete: incompleteIntervals(profile) } : { problem: 'values' };
  } catch {
    return { problem: 'values' };
  }
}
