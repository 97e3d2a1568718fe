// Sunrise and sunset at the map's centre (SPEC §4): today's, and the year's extremes taken at the
// solstices of 2020. The longer of the two days gives the earliest sunrise and the latest sunset,
// the shorter one the opposite (21 June and 21 December in the north, the other way round in the
// south). Null where the sun does not rise or set that day (polar day or night). The times are the
// lighting module's (src/shared/lighting/astro.ts), for local dates in the browser's time zone.
import { sunEvents, type SunDay } from '../../shared/lighting/astro.ts';
import { localDateOf } from '../../shared/lighting/localTime.ts';

export interface SunTimes {
  sunrise: Date | null;
  sunset: Date | null;
  earliestSunrise: Date | null;
  latestSunrise: Date | null;
  earliestSunset: Date | null;
  latestSunset: Date | null;
}

const SOLSTICES = ['2020-06-21', '2020-12-21'] as const;

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const sunriseOf = (sun: SunDay) => (sun.kind === 'normal' ? sun.sunrise : null);
const sunsetOf = (sun: SunDay) => (sun.kind === 'normal' ? sun.sunset : null);
const daylight = (sun: SunDay) => (sun.kind === 'normal' ? sun.sunset.getTime() - sun.sunrise.getTime() : sun.kind === 'polar-day' ? Infinity : -Infinity);

export function sunTimes(latitude: number, longitude: number, day: Date = new Date(), timeZone: string = browserTimeZone()): SunTimes {
  const place = { latitude, longitude, timeZone };
  const today = sunEvents(localDateOf(day, timeZone), place);
  const [first, second] = SOLSTICES.map((date) => sunEvents(date, place));
  const [longer, shorter] = daylight(first) >= daylight(second) ? [first, second] : [second, first];
  return {
    sunrise: sunriseOf(today), sunset: sunsetOf(today),
    earliestSunrise: sunriseOf(longer), latestSunrise: sunriseOf(shorter),
    earliestSunset: sunsetOf(shorter), latestSunset: sunsetOf(longer),
  };
}
