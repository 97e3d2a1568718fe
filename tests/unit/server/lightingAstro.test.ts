// Local time and sun times of the lighting module (src/shared/lighting/): local days of 23, 24 and 25
// hours, times of day in the skipped and the repeated hour, sunrise and sunset against NOAA's solar
// calculator on every day of 2026 (the table written by scripts/noaa-sun-reference.ts), and the
// polar day and night.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sunEvents, type SunDay } from '../../../src/shared/lighting/astro.ts';
import { dateOf, dayFrame, dayNumberOf, instantOfTime, localDateOf, minutesOf, wallTimeOfDay } from '../../../src/shared/lighting/localTime.ts';

const BRATISLAVA = 'Europe/Bratislava';
const iso = (ms: number) => new Date(ms).toISOString();
const timeOn = (date: string, time: string, zone = BRATISLAVA) => {
  const [hours, minutes] = time.split(':').map(Number);
  return iso(instantOfTime(dayFrame(dayNumberOf(date), zone), hours * 60 + minutes));
};

describe('local time', () => {
  it('gives local days of 24, 23 and 25 hours', () => {
    const hours = (date: string) => {
      const frame = dayFrame(dayNumberOf(date), BRATISLAVA);
      return (frame.end - frame.start) / 3_600_000;
    };
    expect(hours('2026-03-28')).toBe(24);
    expect(hours('2026-03-29')).toBe(23);
    expect(hours('2026-10-25')).toBe(25);
    expect(iso(dayFrame(dayNumberOf('2026-03-29'), BRATISLAVA).start)).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(dayFrame(dayNumberOf('2026-10-25'), BRATISLAVA).end)).toBe('2026-10-25T23:00:00.000Z');
  });

  it('places a skipped time at the end of the gap and a repeated one at its first occurrence', () => {
    expect(timeOn('2026-03-29', '01:30')).toBe('2026-03-29T00:30:00.000Z');
    expect(timeOn('2026-03-29', '02:00')).toBe('2026-03-29T01:00:00.000Z'); // 03:00 CEST
    expect(timeOn('2026-03-29', '02:30')).toBe('2026-03-29T01:00:00.000Z');
    expect(timeOn('2026-03-29', '03:00')).toBe('2026-03-29T01:00:00.000Z');
    expect(timeOn('2026-03-29', '03:30')).toBe('2026-03-29T01:30:00.000Z');
    expect(timeOn('2026-10-25', '01:59')).toBe('2026-10-24T23:59:00.000Z');
    expect(timeOn('2026-10-25', '02:30')).toBe('2026-10-25T00:30:00.000Z'); // CEST, the first of the two
    expect(timeOn('2026-10-25', '03:00')).toBe('2026-10-25T02:00:00.000Z');
  });

  it('handles zones without summer time, half-hour offsets and a midnight that does not exist', () => {
    expect(timeOn('2026-06-21', '12:00', 'Asia/Seoul')).toBe('2026-06-21T03:00:00.000Z');
    expect(timeOn('2026-06-21', '12:00', 'Asia/Kolkata')).toBe('2026-06-21T06:30:00.000Z');
    // Chile starts its summer time at 00:00 on 6 September 2026: the day starts at 01:00.
    const santiago = dayFrame(dayNumberOf('2026-09-06'), 'America/Santiago');
    expect(iso(santiago.start)).toBe('2026-09-06T04:00:00.000Z');
    expect((santiago.end - santiago.start) / 3_600_000).toBe(23);
  });

  it('names the local date of an instant', () => {
    expect(localDateOf(new Date('2026-03-28T22:59:59Z'), BRATISLAVA)).toBe('2026-03-28');
    expect(localDateOf(new Date('2026-03-28T23:00:00Z'), BRATISLAVA)).toBe('2026-03-29');
    expect(localDateOf(Date.parse('2026-06-20T15:00:00Z'), 'Asia/Seoul')).toBe('2026-06-21');
    expect(dateOf(dayNumberOf('2028-02-29'))).toBe('2028-02-29');
  });
});

interface ReferencePlace { latitude: number; longitude: number; timeZone: string; days: [number, number][] }
const reference = JSON.parse(readFileSync(new URL('../fixtures/noaa-sun-2026.json', import.meta.url), 'utf8')) as { places: Record<string, ReferencePlace> };

describe('sunrise and sunset against NOAA (every day of 2026)', () => {
  it.each(Object.keys(reference.places))('%s within ±2 minutes', (name) => {
    const place = reference.places[name];
    expect(place.days).toHaveLength(365);
    let worst = 0;
    place.days.forEach(([sunrise, sunset], index) => {
      const midnight = Date.UTC(2026, 0, 1 + index);
      const sun = sunEvents(new Date(midnight).toISOString().slice(0, 10), place);
      if (sun.kind !== 'normal') throw new Error(`${name} day ${index}: ${sun.kind}`);
      const minutes = (date: Date) => (date.getTime() - midnight) / 60_000;
      worst = Math.max(worst, Math.abs(minutes(sun.sunrise) - sunrise), Math.abs(minutes(sun.sunset) - sunset));
    });
    expect(worst).toBeLessThan(2);
  });

  it('match the well-known figures, to the minute', () => {
    /** Minutes between a time's local clock and 'HH:mm'. */
    const off = (date: Date, timeZone: string, time: string) => wallTimeOfDay(date.getTime(), timeZone) / 60_000 - (minutesOf(time) ?? NaN);
    const bratislava = sunEvents('2026-06-21', { latitude: 48.1486, longitude: 17.1077, timeZone: BRATISLAVA }) as Extract<SunDay, { kind: 'normal' }>;
    expect(Math.abs(off(bratislava.sunrise, BRATISLAVA, '04:51'))).toBeLessThan(1);
    expect(Math.abs(off(bratislava.sunset, BRATISLAVA, '20:55'))).toBeLessThan(1);
    const lisbon = sunEvents('2026-12-21', { latitude: 38.7223, longitude: -9.1393, timeZone: 'Europe/Lisbon' }) as Extract<SunDay, { kind: 'normal' }>;
    expect(Math.abs(off(lisbon.sunrise, 'Europe/Lisbon', '07:51'))).toBeLessThan(1);
  });
});

describe('polar days and nights', () => {
  const tromso = { latitude: 69.6492, longitude: 18.9553, timeZone: 'Europe/Oslo' };
  const longyearbyen = { latitude: 78.2232, longitude: 15.6267, timeZone: 'Arctic/Longyearbyen' };

  it('are said, not Invalid Dates', () => {
    expect(sunEvents('2026-06-21', tromso)).toEqual({ kind: 'polar-day' });
    expect(sunEvents('2026-12-21', tromso)).toEqual({ kind: 'polar-night' });
    expect(sunEvents('2026-06-21', longyearbyen)).toEqual({ kind: 'polar-day' });
    expect(sunEvents('2026-12-21', longyearbyen)).toEqual({ kind: 'polar-night' });
    expect(sunEvents('2026-02-10', longyearbyen)).toEqual({ kind: 'polar-night' });
    expect(sunEvents('2026-03-21', tromso).kind).toBe('normal');
  });

  it('end and begin on the expected dates in Tromsø (midnight sun from about 18 May, polar night from about 27 November)', () => {
    expect(sunEvents('2026-05-15', tromso).kind).toBe('normal');
    expect(sunEvents('2026-05-22', tromso).kind).toBe('polar-day');
    expect(sunEvents('2026-07-30', tromso).kind).toBe('normal');
    expect(sunEvents('2026-11-24', tromso).kind).toBe('normal');
    expect(sunEvents('2026-11-30', tromso).kind).toBe('polar-night');
    expect(sunEvents('2026-01-18', tromso).kind).toBe('normal');
  });
});
