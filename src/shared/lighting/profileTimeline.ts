// A profile's levels through one local date (23, 24 or 25 hours) at a place, as segments of
// constant level, with that date's sunrise and sunset: the profile editor's day preview. Each
// segment's level is levelAt's at any instant within it (the light sensor left out: it depends on
// readings the preview does not have).
import type { Place, SunDay } from './astro.ts';
import type { LightingProfile } from './lightingProfile.ts';
import { dayFrame, dayNumberOf, HOUR_MS } from './localTime.ts';
import { contextOf, type LevelReason, levelFromSchedules, schedulesAround } from './profileLevel.ts';

export interface TimelineSegment {
  from: Date;
  to: Date;
  level: number;
  reason: LevelReason;
}

export interface DayTimeline {
  date: string;
  /** The first instant of the date and of the next. */
  from: Date;
  to: Date;
  /** 24, or 23 / 25 on the days the zone changes its offset. */
  hours: number;
  sun: SunDay;
  /** In order, without gaps, from `from` to `to`; neighbours differ in level or reason. */
  segments: TimelineSegment[];
}

export function dayTimeline(profile: LightingProfile, input: Place & { date: string }): DayTimeline {
  const day = dayNumberOf(input.date);
  const frame = dayFrame(day, input.timeZone);
  const context = contextOf(profile, input);
  const schedules = schedulesAround(context, day);
  const edges = new Set([frame.start, frame.end]);
  for (const schedule of schedules) {
    for (const span of [...schedule.runs, schedule.night]) {
      if (!span) continue;
      if (span.from > frame.start && span.from < frame.end) edges.add(span.from);
      if (span.to > frame.start && span.to < frame.end) edges.add(span.to);
    }
  }
  const instants = [...edges].sort((a, b) => a - b);
  const segments: TimelineSegment[] = [];
  for (let i = 0; i + 1 < instants.length; i++) {
    const { level, reason } = levelFromSchedules(context, schedules, day, instants[i]);
    const last = segments.at(-1);
    if (last && last.level === level && last.reason === reason) last.to = new Date(instants[i + 1]);
    else segments.push({ from: new Date(instants[i]), to: new Date(instants[i + 1]), level, reason });
  }
  return {
    date: input.date.slice(0, 10),
    from: new Date(frame.start),
    to: new Date(frame.end),
    hours: (frame.end - frame.start) / HOUR_MS,
    sun: context.sunOf(day),
    segments,
  };
}
