// The level of a lamp by its lighting profile (src/shared/lighting/profileLevel.ts, docs/lighting.md), in
// Bratislava: intervals (fixed, over midnight, at sunset/sunrise with offsets, overlapping), the
// astro clock, seasons, exceptions, switching profiles and the light sensor.
import { describe, expect, it } from 'vitest';
import { sunEvents, type SunDay } from '../../../src/shared/lighting/astro.ts';
import type { LightingDefinition, LightingProfile } from '../../../src/shared/lighting/lightingProfile.ts';
import { dayFrame, dayNumberOf, instantOfTime, minutesOf } from '../../../src/shared/lighting/localTime.ts';
import { levelAt, type SensorReading } from '../../../src/shared/lighting/profileLevel.ts';

const ZONE = 'Europe/Bratislava';
const PLACE = { latitude: 48.1486, longitude: 17.1077, timeZone: ZONE };
const MINUTE = 60_000;

/** The instant of a local 'YYYY-MM-DD HH:mm' in Bratislava. */
const local = (text: string) => instantOfTime(dayFrame(dayNumberOf(text.slice(0, 10)), ZONE), minutesOf(text.slice(11, 16))!);
const sun = (date: string) => sunEvents(date, PLACE) as Extract<SunDay, { kind: 'normal' }>;

function at(definition: LightingDefinition, when: string | number, options: { type?: LightingProfile['type']; sensor?: SensorReading } = {}) {
  const profile: LightingProfile = { type: options.type ?? 'dimming_profile', definition };
  return levelAt(profile, { ...PLACE, at: typeof when === 'number' ? when : local(when), sensor: options.sensor });
}
const levelOf = (definition: LightingDefinition, when: string | number, type?: LightingProfile['type']) => at(definition, when, { type }).level;

describe('a profile without rules', () => {
  it.each(['2026-01-15 00:00', '2026-01-15 12:00', '2026-06-21 23:59'])('is off at %s', (when) => {
    expect(at({}, when)).toEqual({ level: 0, reason: 'off' });
    expect(at({ intervals: [], exceptions: [], astro_clock: false }, when)).toEqual({ level: 0, reason: 'off' });
  });
});

describe('intervals', () => {
  it('burn at their level from their start until (not including) their end', () => {
    const definition = { intervals: [{ from: '18:00', to: '20:00', value: 60 }] };
    expect(levelOf(definition, '2026-01-15 17:59')).toBe(0);
    expect(at(definition, '2026-01-15 18:00')).toEqual({ level: 60, reason: 'interval' });
    expect(levelOf(definition, '2026-01-15 19:59')).toBe(60);
    expect(levelOf(definition, '2026-01-15 20:00')).toBe(0);
  });

  it('cross midnight into the next morning', () => {
    const definition = { intervals: [{ from: '22:00', to: '05:00', value: 40 }] };
    expect(levelOf(definition, '2026-01-15 21:59')).toBe(0);
    expect(levelOf(definition, '2026-01-15 23:00')).toBe(40);
    expect(levelOf(definition, '2026-01-16 04:59')).toBe(40);
    expect(levelOf(definition, '2026-01-16 05:00')).toBe(0);
    expect(levelOf(definition, '2026-01-01 00:30')).toBe(40); // from the last evening of 2025
  });

  it('run a whole day when both ends are the same time', () => {
    const definition = { intervals: [{ from: '12:00', to: '12:00', value: 10 }] };
    for (const when of ['2026-01-15 12:00', '2026-01-15 23:00', '2026-01-16 11:59']) expect(levelOf(definition, when)).toBe(10);
  });

  it('start and end at sunset and sunrise with offsets', () => {
    const definition = { intervals: [{ from_event: 'sunset', from_offset: 30, to_event: 'sunrise', to_offset: -30, value: 70 }] } as const;
    const start = sun('2026-01-15').sunset.getTime() + 30 * MINUTE;
    const end = sun('2026-01-16').sunrise.getTime() - 30 * MINUTE;
    expect(levelOf(definition, start - 1)).toBe(0);
    expect(levelOf(definition, start)).toBe(70);
    expect(levelOf(definition, end - 1)).toBe(70);
    expect(levelOf(definition, end)).toBe(0);
  });

  it('mix a fixed end with an astro one', () => {
    const definition = { intervals: [{ from_event: 'sunset', from_offset: -60, to: '22:00', value: 50 }, { from: '04:30', to_event: 'sunrise', value: 20 }] } as const;
    expect(levelOf(definition, sun('2026-01-15').sunset.getTime() - 60 * MINUTE)).toBe(50);
    expect(levelOf(definition, '2026-01-15 21:59')).toBe(50);
    expect(levelOf(definition, '2026-01-15 22:00')).toBe(0);
    expect(levelOf(definition, '2026-01-16 04:30')).toBe(20);
    expect(levelOf(definition, sun('2026-01-16').sunrise.getTime())).toBe(0);
  });

  it('overlap: the later one in the list wins, a carried-over one too', () => {
    const a = { from: '18:00', to: '23:00', value: 50 };
    const b = { from: '20:00', to: '21:00', value: 80 };
    expect(levelOf({ intervals: [a, b] }, '2026-01-15 20:30')).toBe(80);
    expect(levelOf({ intervals: [b, a] }, '2026-01-15 20:30')).toBe(50);
    const night = { from: '22:00', to: '05:00', value: 40 };
    const morning = { from: '04:00', to: '06:00', value: 90 };
    expect(levelOf({ intervals: [night, morning] }, '2026-01-16 04:30')).toBe(90);
    expect(levelOf({ intervals: [morning, night] }, '2026-01-16 04:30')).toBe(40);
    expect(levelOf({ intervals: [morning, night] }, '2026-01-16 05:30')).toBe(90);
  });

  it('may switch the lamp off inside the astro night', () => {
    const definition = { astro_clock: true, intervals: [{ from: '01:00', to: '04:00', value: 0 }] };
    expect(at(definition, '2026-01-16 02:00')).toEqual({ level: 0, reason: 'interval' });
    expect(at(definition, '2026-01-16 04:00')).toEqual({ level: 100, reason: 'astro-night' });
  });
});

describe('the astro clock', () => {
  const definition = { astro_clock: true, dusk_offset: 15, dawn_offset: -15 };

  it('burns at 100 from sunset plus the dusk offset to the next sunrise plus the dawn offset', () => {
    const on = sun('2026-01-15').sunset.getTime() + 15 * MINUTE;
    const off = sun('2026-01-16').sunrise.getTime() - 15 * MINUTE;
    expect(at(definition, on - 1)).toEqual({ level: 0, reason: 'astro-day' });
    expect(at(definition, on)).toEqual({ level: 100, reason: 'astro-night' });
    expect(at(definition, '2026-01-16 00:00')).toEqual({ level: 100, reason: 'astro-night' });
    expect(at(definition, off - 1)).toEqual({ level: 100, reason: 'astro-night' });
    expect(at(definition, off)).toEqual({ level: 0, reason: 'astro-day' });
  });

  it('is overridden where intervals cover the instant', () => {
    const dimmed = { ...definition, intervals: [{ from: '23:00', to: '05:00', value: 40 }] };
    expect(at(dimmed, '2026-01-15 22:59')).toEqual({ level: 100, reason: 'astro-night' });
    expect(at(dimmed, '2026-01-15 23:30')).toEqual({ level: 40, reason: 'interval' });
    expect(at(dimmed, '2026-01-16 05:00')).toEqual({ level: 100, reason: 'astro-night' }); // before the January sunrise
    expect(at(dimmed, '2026-06-22 05:00')).toEqual({ level: 0, reason: 'astro-day' }); // after the June sunrise
  });

  it('without the clock the offsets do nothing', () => {
    expect(at({ ...definition, astro_clock: false }, '2026-01-16 00:00')).toEqual({ level: 0, reason: 'off' });
  });
});

describe('seasons', () => {
  const definition = {
    intervals: [{ from: '20:00', to: '22:00', value: 50 }],
    summer: { from: '2020-06-01', to: '2020-08-31', intervals: [{ from: '23:00', to: '04:00', value: 30 }] },
    winter: { from: '2020-11-01', to: '2021-03-31', intervals: [{ from: '17:00', to: '23:00', value: 90 }] },
  };

  it('choose the summer intervals within its month-days, any year', () => {
    expect(levelOf(definition, '2026-07-10 21:00')).toBe(0);
    expect(levelOf(definition, '2026-07-10 23:30')).toBe(30);
    expect(levelOf(definition, '2026-06-01 23:30')).toBe(30);
    expect(levelOf(definition, '2026-09-01 03:00')).toBe(30); // the run that began on 31 August
    expect(levelOf(definition, '2026-09-01 23:30')).toBe(0);
  });

  it('choose the winter intervals within a range that wraps the year end', () => {
    expect(levelOf(definition, '2026-01-10 18:00')).toBe(90);
    expect(levelOf(definition, '2026-12-10 18:00')).toBe(90);
    expect(levelOf(definition, '2026-11-01 17:00')).toBe(90);
    expect(levelOf(definition, '2026-03-31 18:00')).toBe(90);
    expect(levelOf(definition, '2026-04-01 18:00')).toBe(0);
  });

  it('leave the profile intervals for the rest of the year', () => {
    expect(levelOf(definition, '2026-04-10 21:00')).toBe(50);
    expect(levelOf(definition, '2026-10-10 21:00')).toBe(50);
  });

  it('summer wins where both hold; a season without intervals does not count', () => {
    const both = { ...definition, winter: { ...definition.winter, from: '2020-05-01', to: '2020-07-31' } };
    expect(levelOf(both, '2026-06-15 23:30')).toBe(30);
    expect(levelOf(both, '2026-05-15 18:00')).toBe(90);
    const emptySummer = { ...definition, summer: { ...definition.summer, intervals: [] } };
    expect(levelOf(emptySummer, '2026-07-10 21:00')).toBe(50);
    const openSummer = { ...definition, summer: { intervals: definition.summer.intervals } };
    expect(levelOf(openSummer, '2026-07-10 21:00')).toBe(50);
  });
});

describe('exceptions', () => {
  const base = { astro_clock: true, intervals: [{ from: '23:00', to: '05:00', value: 40 }] };

  it('with a value: the lamp burns at it whenever it would burn that day, the night it began included', () => {
    const definition = { ...base, exceptions: [{ date: '2026-12-24', value: 100 }] };
    expect(at(definition, '2026-12-24 18:00')).toEqual({ level: 100, reason: 'exception' });
    expect(at(definition, '2026-12-24 23:30')).toEqual({ level: 100, reason: 'exception' });
    expect(at(definition, '2026-12-25 02:00')).toEqual({ level: 100, reason: 'exception' });
    expect(at(definition, '2026-12-25 06:00')).toEqual({ level: 100, reason: 'exception' }); // the astro night of the 24th
    expect(at(definition, '2026-12-24 12:00')).toEqual({ level: 0, reason: 'astro-day' });
    expect(at(definition, '2026-12-24 02:00')).toEqual({ level: 40, reason: 'interval' }); // the night of the 23rd
    expect(at(definition, '2026-12-25 23:30')).toEqual({ level: 40, reason: 'interval' });
  });

  it('without a value: off all that day and its night', () => {
    const definition = { ...base, exceptions: [{ date: '2026-12-24' }] };
    for (const when of ['2026-12-24 12:00', '2026-12-24 18:00', '2026-12-24 23:30', '2026-12-25 02:00']) {
      expect(at(definition, when)).toEqual({ level: 0, reason: 'exception' });
    }
    expect(at(definition, '2026-12-24 02:00')).toEqual({ level: 40, reason: 'interval' });
    expect(at(definition, '2026-12-25 18:00')).toEqual({ level: 100, reason: 'astro-night' });
  });

  it('with 0: off; the last one listed for a date counts', () => {
    expect(at({ ...base, exceptions: [{ date: '2026-12-24', value: 0 }] }, '2026-12-24 18:00')).toEqual({ level: 0, reason: 'exception' });
    expect(levelOf({ ...base, exceptions: [{ date: '2026-12-24', value: 10 }, { date: '2026-12-24', value: 20 }] }, '2026-12-24 18:00')).toBe(20);
  });
});

describe('switching profiles', () => {
  it('are on (100) for any value above 0, off for 0', () => {
    const definition = { intervals: [{ from: '18:00', to: '20:00', value: 30 }, { from: '20:00', to: '21:00', value: 0 }], exceptions: [{ date: '2026-12-24', value: 5 }] };
    expect(levelOf(definition, '2026-01-15 18:30', 'switching_profile')).toBe(100);
    expect(levelOf(definition, '2026-01-15 20:30', 'switching_profile')).toBe(0);
    expect(levelOf(definition, '2026-12-24 18:30', 'switching_profile')).toBe(100);
    expect(levelOf(definition, '2026-01-15 18:30', 'dimming_profile')).toBe(30);
  });
});

describe('the light sensor', () => {
  const sensor = { enabled: true, dawn: 50, dusk: 20, value: 80 };
  const definition = { astro_clock: true, light_sensor: sensor };

  it('switches on below dusk and off above dawn, at any hour', () => {
    expect(at(definition, '2026-01-15 12:00', { sensor: { lux: 10 } })).toEqual({ level: 80, reason: 'sensor', sensorOn: true });
    expect(at(definition, '2026-01-15 23:00', { sensor: { lux: 60, previousOn: true } })).toEqual({ level: 0, reason: 'sensor', sensorOn: false });
  });

  it('keeps its previous state between the thresholds (hysteresis)', () => {
    expect(at(definition, '2026-01-15 12:00', { sensor: { lux: 30, previousOn: true } })).toEqual({ level: 80, reason: 'sensor', sensorOn: true });
    expect(at(definition, '2026-01-15 23:00', { sensor: { lux: 30, previousOn: false } })).toEqual({ level: 0, reason: 'sensor', sensorOn: false });
    expect(at(definition, '2026-01-15 12:00', { sensor: { lux: 20 } }).sensorOn).toBe(false); // at a threshold: no change; unknown before: the schedule's
    expect(at(definition, '2026-01-15 23:00', { sensor: { lux: 50 } }).sensorOn).toBe(true);
  });

  it('follows a hysteresis cycle as the light falls and rises', () => {
    let previousOn: boolean | undefined;
    const states = [100, 60, 40, 25, 15, 30, 45, 55, 35].map((lux) => {
      const result = at(definition, '2026-01-15 12:00', { sensor: { lux, previousOn } });
      previousOn = result.sensorOn;
      return result.level;
    });
    expect(states).toEqual([0, 0, 0, 0, 80, 80, 80, 0, 0]);
  });

  it('gives the covering interval its level while on', () => {
    const dimmed = { ...definition, intervals: [{ from: '23:00', to: '05:00', value: 40 }] };
    expect(at(dimmed, '2026-01-15 23:30', { sensor: { lux: 5 } })).toEqual({ level: 40, reason: 'sensor', sensorOn: true });
    expect(at(dimmed, '2026-01-15 23:30', { sensor: { lux: 500 } })).toEqual({ level: 0, reason: 'sensor', sensorOn: false });
  });

  it('leaves the schedule to decide without a reading, passing its state on', () => {
    expect(at(definition, '2026-01-15 12:00', { sensor: { previousOn: true } })).toEqual({ level: 0, reason: 'astro-day', sensorOn: true });
    expect(at(definition, '2026-01-15 23:00', { sensor: { lux: null } })).toEqual({ level: 100, reason: 'astro-night', sensorOn: undefined });
    expect(at(definition, '2026-01-15 23:00')).toEqual({ level: 100, reason: 'astro-night', sensorOn: undefined });
  });

  it('decides only within its window, which may cross midnight', () => {
    const windowed = { ...definition, light_sensor: { ...sensor, window_from: '18:00', window_to: '06:00' } };
    expect(at(windowed, '2026-01-15 12:00', { sensor: { lux: 10 } })).toEqual({ level: 0, reason: 'astro-day', sensorOn: true });
    expect(at(windowed, '2026-01-15 18:00', { sensor: { lux: 10 } })).toEqual({ level: 80, reason: 'sensor', sensorOn: true });
    expect(at(windowed, '2026-01-16 05:59', { sensor: { lux: 60 } })).toEqual({ level: 0, reason: 'sensor', sensorOn: false });
    expect(at(windowed, '2026-01-16 06:00', { sensor: { lux: 60 } })).toEqual({ level: 100, reason: 'astro-night', sensorOn: false });
  });

  it('uses 100 without a sensor value; is on or off only in a switching profile; is off on a valueless exception', () => {
    const plain = { light_sensor: { enabled: true, dawn: 50, dusk: 20 } };
    expect(at(plain, '2026-01-15 12:00', { sensor: { lux: 1 } }).level).toBe(100);
    expect(at({ light_sensor: { ...sensor, value: 30 } }, '2026-01-15 12:00', { type: 'switching_profile', sensor: { lux: 1 } }).level).toBe(100);
    expect(at({ ...definition, exceptions: [{ date: '2026-01-15' }] }, '2026-01-15 12:00', { sensor: { lux: 1 } })).toEqual({ level: 0, reason: 'exception', sensorOn: true });
  });

  it('is ignored when disabled', () => {
    expect(at({ ...definition, light_sensor: { ...sensor, enabled: false } }, '2026-01-15 12:00', { sensor: { lux: 1 } })).toEqual({ level: 0, reason: 'astro-day' });
  });
});

describe('the days the clocks change', () => {
  it('run a fixed time that does not exist from the end of the gap', () => {
    const definition = { intervals: [{ from: '02:30', to: '04:00', value: 50 }] };
    expect(levelOf(definition, Date.parse('2026-03-29T00:59:59Z'))).toBe(0); // 01:59:59 CET
    expect(levelOf(definition, Date.parse('2026-03-29T01:00:00Z'))).toBe(50); // 03:00 CEST
    expect(levelOf(definition, Date.parse('2026-03-29T01:59:59Z'))).toBe(50);
    expect(levelOf(definition, Date.parse('2026-03-29T02:00:00Z'))).toBe(0); // 04:00 CEST
  });

  it('run a time that happens twice from its first occurrence', () => {
    const definition = { intervals: [{ from: '02:30', to: '02:45', value: 50 }] };
    expect(levelOf(definition, Date.parse('2026-10-25T00:30:00Z'))).toBe(50); // 02:30 CEST
    expect(levelOf(definition, Date.parse('2026-10-25T00:45:00Z'))).toBe(0);
    expect(levelOf(definition, Date.parse('2026-10-25T01:30:00Z'))).toBe(0); // 02:30 CET, the second time
  });

  it('keep a night interval across the change: 22:00 to 05:00 lasts 6 or 8 hours', () => {
    const definition = { intervals: [{ from: '22:00', to: '05:00', value: 40 }] };
    expect(levelOf(definition, Date.parse('2026-03-28T21:00:00Z'))).toBe(40);
    expect(levelOf(definition, Date.parse('2026-03-29T02:59:59Z'))).toBe(40); // 04:59:59 CEST
    expect(levelOf(definition, Date.parse('2026-03-29T03:00:00Z'))).toBe(0);
    expect(levelOf(definition, Date.parse('2026-10-25T03:59:59Z'))).toBe(40); // 04:59:59 CET
    expect(levelOf(definition, Date.parse('2026-10-25T04:00:00Z'))).toBe(0);
  });
});
