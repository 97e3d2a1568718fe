// Sunrise and sunset at the map's centre (SPEC §4): today's, and the year's extremes taken at the
// solstices of 2020 (21 December: latest sunrise, earliest sunset; 21 June: the opposite). Null
// where the sun does not rise or set that day (polar day or night).
import { getTimes } from 'suncalc';

export interface SunTimes {
  sunrise: Date | null;
  sunset: Date | null;
  earliestSunrise: Date | null;
  latestSunrise: Date | null;
  earliestSunset: Date | null;
  latestSunset: Date | null;
}

const WINTER = new Date(Date.UTC(2020, 11, 21, 12));
const SUMMER = new Date(Date.UTC(2020, 5, 21, 12));

export function sunTimes(latitude: number, longitude: number, day = new Date()): SunTimes {
  const today = getTimes(day, latitude, longitude);
  const winter = getTimes(WINTER, latitude, longitude);
  const summer = getTimes(SUMMER, latitude, longitude);
  return {
    sunrise: today.sunrise, sunset: today.sunset,
    earliestSunrise: summer.sunrise, latestSunrise: winter.sunrise,
    earliestSunset: winter.sunset, latestSunset: summer.sunset,
  };
}
