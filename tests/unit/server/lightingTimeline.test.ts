// A profile's day timeline (src/shared/lighting/profileTimeline.ts): days of 23, 24 and 25 hours, the polar
// day and night, and, for 1,000 random profiles, places and instants, the same level as levelAt.
import { describe, expect, it } from 'vitest';
import type { LightingDefinition, LightingInterval, LightingProfile } from '../../../src/shared/lighting/lightingProfile.ts';
import { levelAt } from '../../../src/shared/lighting/profileLevel.ts';
import { dayTimeline, type DayTimeline } from '../../../src/shared/lighting/profileTimeline.ts';
import { localDateOf } from '../../../src/shared/lighting/localTime.ts';

const BRATISLAVA = { latitude: 48.1486, longitude: 17.1077, timeZone: 'Europe/Bratislava' };
const TROMSO = { latitude: 69.6492, longitude: 18.9553, timeZone: 'Europe/Oslo' };
const LONGYEARBYEN = { latitude: 78.2232, longitude: 15.6267, timeZone: 'Arctic/Longyearbyen' };
const iso = (date: Date) => date.toISOString();

/** Segments in order, without gaps or empty ones, from the day's first instant to the next day's. */
function expectWellFormed(timeline: DayTimeline) {
  expect(timeline.segments.length).toBeGreaterThan(0);
  expect(timeline.segments[0].from).toEqual(timeline.from);
  expect(timeline.segments.at(-1)!.to).toEqual(timeline.to);
  timeline.segments.forEach((segment, index) => {
    expect(segment.to.getTime()).toBeGreaterThan(segment.from.getTime());
    expect(Number.isInteger(segment.level) && segment.level >= 0 && segment.level <= 100).toBe(true);
    const next = timeline.segments[index + 1];
    if (next) {
      expect(next.from).toEqual(segment.to);
      expect(next.level !== segment.level || next.reason !== segment.reason).toBe(true);
    }
  });
}

const summary = (timeline: DayTimeline) => timeline.segments.map((segment) => `${iso(segment.from).slice(11, 16)}–${iso(segment.to).slice(11, 16)} ${segment.level} ${segment.reason}`);

describe('the day timeline', () => {
  it('of a profile without rules is one segment, off', () => {
    const timeline = dayTimeline({ type: 'dimming_profile', definition: {} }, { ...BRATISLAVA, date: '2026-01-15' });
    expectWellFormed(timeline);
    expect(timeline.hours).toBe(24);
    expect(summary(timeline)).toEqual(['23:00–23:00 0 off']);
    expect(timeline.sun.kind).toBe('normal');
  });

  it('has 23 hours on the spring-forward day', () => {
    const profile: LightingProfile = { type: 'dimming_profile', definition: { intervals: [{ from: '22:00', to: '05:00', value: 40 }, { from: '02:30', to: '04:00', value: 60 }] } };
    const timeline = dayTimeline(profile, { ...BRATISLAVA, date: '2026-03-29' });
    expectWellFormed(timeline);
    expect(timeline.hours).toBe(23);
    expect([iso(timeline.from), iso(timeline.to)]).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    // 00:00–03:00 CET/CEST 40, 03:00–04:00 CEST 60, 04:00–05:00 40, then off until 22:00 CEST
    expect(summary(timeline)).toEqual(['23:00–01:00 40 interval', '01:00–02:00 60 interval', '02:00–03:00 40 interval', '03:00–20:00 0 off', '20:00–22:00 40 interval']);
  });

  it('has 25 hours on the fall-back day', () => {
    const profile: LightingProfile = { type: 'dimming_profile', definition: { astro_clock: true, intervals: [{ from: '23:00', to: '05:00', value: 40 }] } };
    const timeline = dayTimeline(profile, { ...BRATISLAVA, date: '2026-10-25' });
    expectWellFormed(timeline);
    expect(timeline.hours).toBe(25);
    expect([iso(timeline.from), iso(timeline.to)]).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
    const sun = timeline.sun as { sunrise: Date; sunset: Date };
    expect(summary(timeline)).toEqual([
      '22:00–04:00 40 interval', // 00:00 CEST to 05:00 CET: six hours of wall clock, seven of time
      `04:00–${iso(sun.sunrise).slice(11, 16)} 100 astro-night`,
      `${iso(sun.sunrise).slice(11, 16)}–${iso(sun.sunset).slice(11, 16)} 0 astro-day`,
      `${iso(sun.sunset).slice(11, 16)}–22:00 100 astro-night`,
      '22:00–23:00 40 interval',
    ]);
  });
});

describe('polar places', () => {
  const astro: LightingProfile = { type: 'dimming_profile', definition: { astro_clock: true, dusk_offset: 30, dawn_offset: -30 } };
  const atSunset: LightingProfile = { type: 'dimming_profile', definition: { intervals: [{ from_event: 'sunset', to_event: 'sunrise', value: 60 }] } };

  it.each([['Tromsø', TROMSO], ['Longyearbyen', LONGYEARBYEN]])('%s: the astro clock is off all midsummer day and on all midwinter day', (_name, place) => {
    const june = dayTimeline(astro, { ...place, date: '2026-06-21' });
    expectWellFormed(june);
    expect(june.sun).toEqual({ kind: 'polar-day' });
    expect(june.segments.map(({ level, reason }) => [level, reason])).toEqual([[0, 'astro-day']]);
    const december = dayTimeline(astro, { ...place, date: '2026-12-21' });
    expectWellFormed(december);
    expect(december.sun).toEqual({ kind: 'polar-night' });
    expect(december.segments.map(({ level, reason }) => [level, reason])).toEqual([[100, 'astro-night']]);
    expect(levelAt(astro, { ...place, at: new Date('2026-06-21T23:00:00Z') })).toEqual({ level: 0, reason: 'astro-day' });
    expect(levelAt(astro, { ...place, at: new Date('2026-12-21T11:00:00Z') })).toEqual({ level: 100, reason: 'astro-night' });
  });

  it('intervals at sunset or sunrise do not run on a day without them', () => {
    for (const date of ['2026-06-21', '2026-12-21']) {
      const timeline = dayTimeline(atSunset, { ...TROMSO, date });
      expectWellFormed(timeline);
      expect(timeline.segments.map(({ level }) => level)).toEqual([0]);
    }
  });

  it('the nights around the polar night run on without a gap', () => {
    for (const date of ['2026-11-20', '2026-11-26', '2026-11-27', '2026-11-28', '2027-01-14', '2027-01-15', '2027-01-16']) {
      const timeline = dayTimeline(astro, { ...TROMSO, date });
      expectWellFormed(timeline);
    }
    const first = dayTimeline(astro, { ...TROMSO, date: '2026-11-28' });
    expect(first.sun.kind).toBe('polar-night');
    expect(first.segments.map(({ level }) => level)).toEqual([100]);
  });
});

// ---- property: levelAt = the timeline's segment, for random valid profiles ----------------------

/** mulberry32: a small seeded generator, so that a failure can be reproduced. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

const PLACES = [
  BRATISLAVA, TROMSO, LONGYEARBYEN,
  { latitude: 37.5665, longitude: 126.978, timeZone: 'Asia/Seoul' },
  { latitude: 38.7223, longitude: -9.1393, timeZone: 'Europe/Lisbon' },
  { latitude: -33.4489, longitude: -70.6693, timeZone: 'America/Santiago' },
  { latitude: -33.8688, longitude: 151.2093, timeZone: 'Australia/Sydney' },
  { latitude: 27.7172, longitude: 85.324, timeZone: 'Asia/Kathmandu' },
];

/** A random valid profile; its exceptions fall near `near` (a date) half the time. */
function randomProfile(random: ReturnType<typeof generator>, near: string): LightingProfile {
  const time = () => `${String(random.int(0, 23)).padStart(2, '0')}:${random.pick(['00', '15', '30', '45', '59', '07'])}`;
  const date = (year = 2026) => `${year}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;
  const interval = (): LightingInterval => {
    const end = (side: 'from' | 'to') => {
      const event = random.pick(['time', 'time', 'sunset', 'sunrise'] as const);
      if (event === 'time') return random.chance(0.5) ? { [side]: time() } : { [`${side}_event`]: 'time', [side]: time() };
      return { [`${side}_event`]: event, ...(random.chance(0.8) ? { [`${side}_offset`]: random.int(-180, 180) } : {}) };
    };
    return { ...end('from'), ...end('to'), value: random.pick([0, 100, random.int(0, 100)]) };
  };
  const intervals = () => Array.from({ length: random.int(0, random.pick([2, 5, 16])) }, interval);
  const nearby = () => new Date(Date.parse(near) + random.int(-1, 1) * 86_400_000).toISOString().slice(0, 10);
  const exceptionDate = () => (random.chance(0.5) ? nearby() : date());
  const season = () => (random.chance(0.5) ? { from: date(random.int(2019, 2027)), to: date(random.int(2019, 2027)), intervals: intervals() } : undefined);
  const dusk = random.int(0, 500);
  const definition: LightingDefinition = {
    astro_clock: random.chance(0.6),
    ...(random.chance(0.7) ? { dusk_offset: random.int(-180, 180), dawn_offset: random.int(-180, 180) } : {}),
    intervals: intervals(),
    exceptions: Array.from({ length: random.int(0, 4) }, () => (random.chance(0.7) ? { date: exceptionDate(), value: random.int(0, 100) } : { date: exceptionDate() })),
    summer: season(),
    winter: season(),
    light_sensor: random.chance(0.3) ? { enabled: true, dusk, dawn: dusk + random.int(1, 500), value: random.int(0, 100), window_from: time(), window_to: time() } : undefined,
  };
  return { type: random.pick(['dimming_profile', 'switching_profile'] as const), definition };
}

describe('levelAt and dayTimeline agree (1,000 random profiles)', () => {
  it('at random instants, at segment edges and just before them', () => {
    const random = generator(20_260_101);
    const year = Date.UTC(2026, 0, 1);
    for (let run = 0; run < 1000; run++) {
      const place = random.pick(PLACES);
      const at = year + Math.floor(random.next() * 365 * 86_400_000);
      const date = localDateOf(at, place.timeZone);
      const profile = randomProfile(random, date);
      const timeline = dayTimeline(profile, { ...place, date });
      const context = `run ${run}: ${JSON.stringify({ profile, place, at: new Date(at).toISOString() })}`;
      expectWellFormed(timeline);
      expect(timeline.hours, context).toBeGreaterThanOrEqual(23);
      expect(timeline.hours, context).toBeLessThanOrEqual(25);
      const instants = [at, ...timeline.segments.flatMap((segment) => [segment.from.getTime(), segment.to.getTime() - 1])];
      for (const instant of instants) {
        const segment = timeline.segments.find((candidate) => instant >= candidate.from.getTime() && instant < candidate.to.getTime())!;
        const result = levelAt(profile, { ...place, at: instant });
        expect({ level: result.level, reason: result.reason }, `${context} at ${new Date(instant).toISOString()}`).toEqual({ level: segment.level, reason: segment.reason });
        expect(Number.isInteger(result.level) && result.level >= 0 && result.level <= 100).toBe(true);
        if (profile.type === 'switching_profile') expect([0, 100]).toContain(result.level);
      }
    }
  });
});
