// The scales charts are laid out on: value ticks at whole steps of 1, 2 or 5, zero kept for bars,
// a fixed range kept as given; a time line's ticks on whole hours and days of the chart's zone.
import { describe, expect, it } from 'vitest';
import { project, timeTicks, valueScale, zoneOffset } from '../../../src/components/charts/scales.ts';

describe('value scale', () => {
  it('widens the values to whole ticks of about the asked count', () => {
    expect(valueScale([3, 97])).toEqual({ min: 0, max: 100, ticks: [0, 20, 40, 60, 80, 100] });
    expect(valueScale([12.3, 21.9])).toEqual({ min: 12, max: 22, ticks: [12, 14, 16, 18, 20, 22] });
    expect(valueScale([0.1, 0.7], 3).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
  });

  it('keeps zero inside for bars and areas, and never a tick below it for positive values', () => {
    expect(valueScale([40, 45], 5, true).min).toBe(0);
    expect(valueScale([0, 2250], 5, true).ticks[0]).toBe(0);
    expect(valueScale([-30, -10], 5, true).max).toBe(0);
  });

  it('gives one value or none a range of its own', () => {
    expect(valueScale([]).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(valueScale([0]).max).toBe(1);
    expect(valueScale([42]).min).toBe(0);
    expect(valueScale([-5]).max).toBe(0);
  });

  it('keeps a fixed range as given, its ticks inside it', () => {
    expect(valueScale([40, 60], 5, false, [0, 100])).toEqual({ min: 0, max: 100, ticks: [0, 20, 40, 60, 80, 100] });
  });

  it('projects the scale onto the screen, the values growing up', () => {
    const at = project({ min: 0, max: 100, ticks: [] }, 200, 0);
    expect([at(0), at(50), at(100)]).toEqual([200, 100, 0]);
  });
});

describe('time ticks', () => {
  const hour = 3_600_000;
  const day = 24 * hour;

  it('fall on whole hours of the zone, at most as many as asked', () => {
    const from = Date.parse('2026-06-20T22:00:00Z');
    const ticks = timeTicks(from, from + day, 8, 'Europe/Bratislava');
    expect(ticks.length).toBeLessThanOrEqual(8);
    // 3 hours would be nine ticks with both ends
    expect(ticks.map((tick) => new Date(tick + zoneOffset('Europe/Bratislava', tick)).getUTCHours())).toEqual([0, 6, 12, 18, 0]);
    expect(timeTicks(from, from + day, 9, 'Europe/Bratislava')).toHaveLength(9);
  });

  it('fall on local midnights for steps of days, a half-hour zone too', () => {
    const from = Date.parse('2026-03-01T00:00:00Z');
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/New_York']) {
      const ticks = timeTicks(from, from + 30 * day, 6, zone);
      expect(ticks.length).toBeGreaterThan(1);
      for (const tick of ticks) {
        const wall = new Date(tick + zoneOffset(zone, tick));
        expect([wall.getUTCHours(), wall.getUTCMinutes()], zone).toEqual([0, 0]);
      }
    }
  });

  it('knows a zone\'s offset, summer time included', () => {
    expect(zoneOffset('Europe/Bratislava', Date.parse('2026-01-15T12:00:00Z'))).toBe(hour);
    expect(zoneOffset('Europe/Bratislava', Date.parse('2026-07-15T12:00:00Z'))).toBe(2 * hour);
    expect(zoneOffset('Asia/Kolkata', Date.parse('2026-07-15T12:00:00Z'))).toBe(5.5 * hour);
  });
});
