// The profile editor's day preview as KpiChart draws it: a day timeline made into a KPI answer (a
// step line of the segments' starts and ends), sunrise and sunset as marked instants, the
// segments as text, and a half-filled draft that gives a hint instead of failing.
import { describe, expect, it } from 'vitest';
import { chartModel } from '../../../src/components/charts/chartModel.ts';
import { plotConfigOf } from '../../../src/components/charts/chartConfig.ts';
import { plotLayout } from '../../../src/components/charts/KpiPlot.tsx';
import { dayTimeline, type LightingProfile } from '../../../src/shared/lighting/index.ts';
import { draftTimeline, incompleteIntervals } from '../../../src/pages/lighting/draftTimeline.ts';
import {
  LEVEL_DOMAIN, LEVEL_KEY, sunMarkers, TIMELINE_DEFINITION, timelineAnswer, timelineKpi, timelineLines, timeOfDayFormatter,
} from '../../../src/pages/lighting/timelineChart.ts';

const BRATISLAVA = { latitude: 48.145, longitude: 17.109, timeZone: 'Europe/Bratislava' };
/** The demo's "Night dimming": full light through the astro night, 40 % from 22:00 to 05:00. */
const nightDimming: LightingProfile = {
  type: 'dimming_profile',
  definition: { astro_clock: true, dusk_offset: 15, dawn_offset: -15, intervals: [{ from: '22:00', to: '05:00', value: 40 }] },
};
const formatTime = timeOfDayFormatter('en', BRATISLAVA.timeZone);
const midsummer = dayTimeline(nightDimming, { ...BRATISLAVA, date: '2026-06-21' });

describe('a day timeline as a KPI answer', () => {
  const data = timelineAnswer(midsummer, 'Level (%)', BRATISLAVA.timeZone);
  const points = data.series[0].data;

  it('is one series of the level over the whole local day', () => {
    expect(data.series).toHaveLength(1);
    expect(data.series[0]).toMatchObject({ key: LEVEL_KEY, label: 'Level (%)', entity_id: null, item: 0 });
    expect(data.from).toBe('2026-06-20T22:00:00.000Z');
    expect(data.to).toBe('2026-06-21T22:00:00.000Z');
    expect(data.timezone).toBe('Europe/Bratislava');
    expect(points[0].ts).toBe(data.from);
    expect(points.at(-1)!.ts).toBe(data.to);
  });

  it('draws a step line: each segment\'s start and end at its level, a change as two points at one instant', () => {
    expect(points).toHaveLength(midsummer.segments.length * 2);
    midsummer.segments.forEach((segment, index) => {
      expect(points[2 * index]).toEqual({ ts: segment.from.toISOString(), value: segment.level });
      expect(points[2 * index + 1]).toEqual({ ts: segment.to.toISOString(), value: segment.level });
      if (index > 0) expect(points[2 * index].ts).toBe(points[2 * index - 1].ts);
    });
    // 40 % until 05:00 (the night's end at 04:36 lies under the interval), day, the astro night from sunset + 15 min, 40 % from 22:00
    expect(midsummer.segments.map((segment) => [formatTime(segment.from), segment.level])).toEqual([['00:00', 40], ['05:00', 0], ['21:10', 100], ['22:00', 40]]);
  });

  it('is drawn by KpiChart as a time-scale line on a 0–100 axis in the tenant\'s zone', () => {
    const kpi = timelineKpi('Level on 2026-06-21', 'Level (%)');
    expect(kpi.definition).toBe(TIMELINE_DEFINITION);
    expect(kpi.query).toEqual([{ key: LEVEL_KEY, aggregation: 'latest-value', label: 'Level (%)' }]);
    const model = chartModel(kpi.definition, data, { language: 'en', comparedSuffix: '', timeZone: BRATISLAVA.timeZone, valueDomain: LEVEL_DOMAIN }, kpi.query);
    expect(model.rows).toHaveLength(points.length);
    expect(model.formatValue(40)).toBe('40');
    const plot = plotConfigOf('time-scale', model)!;
    expect(plot).toMatchObject({ plot: 'lines', timeLine: true });
    const { marks } = plotLayout(plot, 600, 300);
    // no legend; the level axis from 0 to 100 whatever the levels
    expect(marks.filter((mark) => mark.kind === 'text' && mark.role === 'legend')).toEqual([]);
    const ticks = marks.flatMap((mark) => (mark.kind === 'text' && mark.role === 'tick' && mark.anchor === 'end' ? [mark.text] : []));
    expect([ticks[0], ticks.at(-1)]).toEqual(['0', '100']);
    // a step line: a change of level is two points at one instant
    const line = marks.find((mark) => mark.kind === 'path' && mark.role === 'series');
    const xs = line && line.kind === 'path' ? [...line.d.matchAll(/[ML](-?[\d.]+) /g)].map((match) => match[1]) : [];
    expect(xs).toHaveLength(points.length);
    expect(xs[1]).toBe(xs[2]);
  });
});

describe('sunrise and sunset as marked instants', () => {
  it('marks both, each named by the caller', () => {
    const markers = sunMarkers(midsummer.sun, (event, at) => `${event} ${formatTime(at)}`);
    expect(markers.map((marker) => marker.label)).toEqual(['sunrise 04:51', 'sunset 20:55']);
    expect(markers[0].at).toBe(midsummer.sun.kind === 'normal' ? midsummer.sun.sunrise : undefined);
  });

  it('marks nothing on a polar day or night', () => {
    const svalbard = { latitude: 78.22, longitude: 15.65, timeZone: 'Arctic/Longyearbyen' };
    const polarDay = dayTimeline(nightDimming, { ...svalbard, date: '2026-06-21' });
    const polarNight = dayTimeline(nightDimming, { ...svalbard, date: '2026-12-21' });
    expect(polarDay.sun.kind).toBe('polar-day');
    expect(polarNight.sun.kind).toBe('polar-night');
    expect(sunMarkers(polarDay.sun, () => 'x')).toEqual([]);
    expect(sunMarkers(polarNight.sun, () => 'x')).toEqual([]);
  });
});

describe('the segments as text', () => {
  it('says each segment from–to with its level and reason; the day ends at 24:00', () => {
    expect(timelineLines(midsummer, formatTime)).toEqual([
      { from: '00:00', to: '05:00', level: 40, reason: 'interval' },
      { from: '05:00', to: '21:10', level: 0, reason: 'astro-day' },
      { from: '21:10', to: '22:00', level: 100, reason: 'astro-night' },
      { from: '22:00', to: '24:00', level: 40, reason: 'interval' },
    ]);
  });
});

describe('a draft in the editor', () => {
  const place = { ...BRATISLAVA, date: '2026-06-21' };

  it('draws what is complete and counts the intervals still missing a start or an end', () => {
    const draft: LightingProfile = { type: 'dimming_profile', definition: { intervals: [{ from: '18:00', to: '20:00', value: 70 }, { from: '22:00' }, { to_event: 'sunrise' }, { from_event: 'sunset', to: '23:00' }] } };
    const result = draftTimeline(draft, place);
    expect('timeline' in result && result.incomplete).toBe(2);
    // the last one, without a level yet, runs at 0 from sunset
    expect('timeline' in result && result.timeline.segments.map((segment) => [formatTime(segment.from), segment.level, segment.reason])).toEqual([
      ['00:00', 0, 'off'], ['18:00', 70, 'interval'], ['20:00', 0, 'off'], ['20:55', 0, 'interval'], ['23:00', 0, 'off'],
    ]);
    expect(incompleteIntervals({ definition: { summer: { intervals: [{ value: 1, from: '25:00', to: '01:00' }] } } })).toBe(1);
  });

  it('gives a hint, never an error, for a place or date it cannot use or values it cannot read', () => {
    expect(draftTimeline(nightDimming, { ...place, latitude: null })).toEqual({ problem: 'place' });
    expect(draftTimeline(nightDimming, { ...place, longitude: 181 })).toEqual({ problem: 'place' });
    expect(draftTimeline(nightDimming, { ...place, date: '' })).toEqual({ problem: 'date' });
    expect(draftTimeline(nightDimming, { ...place, timeZone: 'Not/AZone' })).toEqual({ problem: 'values' });
    const garbage = { type: 'dimming_profile', definition: { intervals: 'x', astro_clock: 'yes', exceptions: [null], summer: 7 } } as unknown as LightingProfile;
    expect(() => draftTimeline(garbage, place)).not.toThrow();
    expect(draftTimeline({}, place)).toMatchObject({ incomplete: 0 });
  });
});
