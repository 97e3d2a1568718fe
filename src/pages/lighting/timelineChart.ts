// A profile's day timeline (src/lighting, dayTimeline) as the one KpiChart draws it: a time-scale
// KPI of one series, the level, whose points are each segment's start and end — a step line, two
// points sharing the instant of every change — on a fixed 0–100 % axis in the tenant's zone; the
// sunrise and sunset as marked instants; and the same segments as lines of text for readers who do
// not see the chart.
import type { ChartMarker, KpiDefinition, KpiQueryItem } from '../../components/charts/kpiTypes.ts';
import type { DayTimeline, SunDay } from '../../shared/lighting/index.ts';
import type { LevelReason } from '../../shared/lighting/index.ts';
import type { KpiDataAnswer } from '../../schemas/kpiDataQuery.ts';

/** The key of the one series: a lamp's level, as the devices report it. */
export const LEVEL_KEY = 'dim_level';
/** A level is a share of full light. */
export const LEVEL_DOMAIN = [0, 100] as const;

export const TIMELINE_DEFINITION: KpiDefinition = { chart: 'time-scale', legend: false, decimals: 0, height: 240, refresh_interval: 0 };

/** The KPI the chart draws: one item, the level, named `label`. */
export function timelineKpi(name: string, label: string): { name: string; query: KpiQueryItem[]; definition: KpiDefinition } {
  return { name, query: [{ key: LEVEL_KEY, aggregation: 'latest-value', label }], definition: TIMELINE_DEFINITION };
}

/** The timeline as a KPI answer: every segment's start and end at its level, in order. */
export function timelineAnswer(timeline: DayTimeline, label: string, timeZone: string): KpiDataAnswer {
  const data = timeline.segments.flatMap((segment) => [
    { ts: segment.from.toISOString(), value: segment.level },
    { ts: segment.to.toISOString(), value: segment.level },
  ]);
  return {
    id: 1,
    timezone: timeZone,
    interval: '1m',
    from: timeline.from.toISOString(),
    to: timeline.to.toISOString(),
    series: [{ item: 0, label, key: LEVEL_KEY, aggregation: 'latest-value', entity_id: null, data }],
  };
}

export type SunEvent = 'sunrise' | 'sunset';

/** The day's sunrise and sunset, in order, each labelled by `labelOf`; none on a polar day or night. */
export function sunMarkers(sun: SunDay, labelOf: (event: SunEvent, at: Date) => string): ChartMarker[] {
  if (sun.kind !== 'normal') return [];
  return [{ at: sun.sunrise, label: labelOf('sunrise', sun.sunrise) }, { at: sun.sunset, label: labelOf('sunset', sun.sunset) }];
}

export interface TimelineLine {
  from: string;
  to: string;
  level: number;
  reason: LevelReason;
}

/**
 * The segments as text, times as `formatTime` writes them; the day's end is 24:00, not the next
 * day's 00:00.
 */
export function timelineLines(timeline: DayTimeline, formatTime: (at: Date) => string): TimelineLine[] {
  const end = timeline.to.getTime();
  return timeline.segments.map((segment) => ({
    from: formatTime(segment.from),
    to: segment.to.getTime() === end ? '24:00' : formatTime(segment.to),
    level: segment.level,
    reason: segment.reason,
  }));
}

/** A time of day in `timeZone`, 24-hour clock (05:00, 22:30). */
export function timeOfDayFormatter(language: string, timeZone: string): (at: Date) => string {
  const format = new Intl.DateTimeFormat(language, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (at) => format.format(at);
}
