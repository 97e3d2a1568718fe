// The map's sun-times card (SPEC §4): today's sunrise and sunset at the map's centre and the year's
// range from the 2020 solstices, in both hemispheres, and no Invalid Date where the sun stays up
// or down.
import { describe, expect, it } from 'vitest';
import { sunTimes } from '../../../src/pages/dashboard/sunTimes.ts';

const clock = (date: Date | null, timeZone: string) => date?.toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }) ?? null;
const clocks = (times: ReturnType<typeof sunTimes>, timeZone: string) => Object.fromEntries(Object.entries(times).map(([key, value]) => [key, clock(value, timeZone)]));

describe('sun times', () => {
  it('in Bratislava: the June solstice has the earliest sunrise and the latest sunset', () => {
    const zone = 'Europe/Bratislava';
    expect(clocks(sunTimes(48.145, 17.109, new Date('2026-03-29T10:00:00Z'), zone), zone)).toEqual({
      sunrise: '06:36', sunset: '19:17', earliestSunrise: '04:51', latestSunrise: '07:39', earliestSunset: '16:00', latestSunset: '20:55',
    });
  });

  it('in Sydney: the December solstice does', () => {
    const zone = 'Australia/Sydney';
    const times = sunTimes(-33.8688, 151.2093, new Date('2026-03-01T00:00:00Z'), zone);
    expect(times.earliestSunrise!.toISOString().slice(0, 10)).toBe('2020-12-20'); // 05:4x AEDT on 21 December
    expect(times.latestSunset!.toISOString().slice(0, 10)).toBe('2020-12-21');
    expect(times.latestSunrise!.toISOString().slice(0, 10)).toBe('2020-06-20'); // 07:0x AEST on 21 June
  });

  it('in Tromsø: null, never an Invalid Date, where the sun does not rise or set', () => {
    const times = sunTimes(69.6492, 18.9553, new Date('2026-06-21T10:00:00Z'), 'Europe/Oslo');
    expect(times).toEqual({ sunrise: null, sunset: null, earliestSunrise: null, latestSunrise: null, earliestSunset: null, latestSunset: null });
    const spring = sunTimes(69.6492, 18.9553, new Date('2026-03-21T10:00:00Z'), 'Europe/Oslo');
    expect(spring.sunrise).toBeInstanceOf(Date);
    expect(Number.isFinite(spring.sunrise!.getTime())).toBe(true);
  });
});
