// Sunrise and sunset of a local date at a place (docs/lighting.md "Astro events"): suncalc's
// times for the solar transit nearest to local noon of that date. Where the sun does not cross
// the horizon that day the answer says so: a polar day (it stays up) or a polar night (it stays
// down), told apart by the sun's height at solar noon. The one computation of sun times in the
// product: the lighting engine, the profile preview and the map's sun-times card all use it.
//
// suncalc agrees with NOAA's solar calculator within 0.07 minutes in Bratislava, Seoul and Lisbon
// on every day of 2026 (tests/unit/server/lightingAstro.test.ts). Results are kept per local date
// and place, the place rounded to 0.01° (about 1 km; sunrise moves by under 3 s across it).
import { getPosition, getTimes } from 'suncalc';
import { dayFrame, dayNumberOf, type DayNumber, instantOfTime } from './localTime.ts';

/** Where a lamp is: its position, and the time zone its fixed times and dates are read in. */
export interface Place {
  latitude: number;
  longitude: number;
  /** IANA name, the tenant's zone (e.g. 'Europe/Bratislava'). */
  timeZone: string;
}

export type SunDay =
  | { kind: 'normal'; sunrise: Date; sunset: Date }
  /** The sun does not set: the astro night is empty. */
  | { kind: 'polar-day' }
  /** The sun does not rise: the whole day is night. */
  | { kind: 'polar-night' };

/** suncalc's sunrise and sunset height: −0.833° (refraction and the sun's radius). */
const HORIZON = (-0.833 * Math.PI) / 180;
const MAX_DAYS_PER_PLACE = 2000;
const cache = new Map<string, Map<DayNumber, SunDay>>();

const rounded = (degrees: number) => Math.round(degrees * 100) / 100;

function computeSunDay(day: DayNumber, latitude: number, longitude: number, timeZone: string): SunDay {
  const noon = new Date(instantOfTime(dayFrame(day, timeZone), 12 * 60));
  const times = getTimes(noon, latitude, longitude);
  const { sunrise, sunset } = times;
  if (sunrise && sunset && Number.isFinite(sunrise.getTime()) && Number.isFinite(sunset.getTime())) return { kind: 'normal', sunrise, sunset };
  return getPosition(times.solarNoon, latitude, longitude).altitude > HORIZON ? { kind: 'polar-day' } : { kind: 'polar-night' };
}

/** The sun days of a place, each computed once (kept by rounded position and zone). */
export function sunDaysAt(place: Place): (day: DayNumber) => SunDay {
  const latitude = rounded(place.latitude);
  const longitude = rounded(place.longitude);
  const key = `${latitude},${longitude},${place.timeZone}`;
  let days = cache.get(key);
  if (!days) {
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, (days = new Map()));
  }
  const known = days;
  return (day) => {
    let sun = known.get(day);
    if (!sun) {
      sun = computeSunDay(day, latitude, longitude, place.timeZone);
      if (known.size >= MAX_DAYS_PER_PLACE) known.clear();
      known.set(day, sun);
    }
    return sun;
  };
}

/** Sunrise and sunset of a local date ('YYYY-MM-DD') at a place, or its polar state. */
export const sunEvents = (date: string, place: Place): SunDay => sunDaysAt(place)(dayNumberOf(date));
