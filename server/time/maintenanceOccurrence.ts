// A maintenance window's occurrence in force at a moment, or its next one: a one-time window's
// own start and end; a recurring one's cron occurrence (in the tenant's time zone) and its length.
import { CronExpressionParser } from 'cron-parser';
import { runnableCron } from '../../src/schemas/cron.ts';

export interface MaintenanceSchedule {
  kind?: string;
  starts_at?: string;
  ends_at?: string;
  expression?: string;
  duration_minutes?: number;
}

export interface Occurrence { start: Date; end: Date }

/** The occurrence in force at `now` or the next one; null when a one-time window is over. */
export function maintenanceOccurrence(schedule: MaintenanceSchedule, timeZone: string, now = new Date()): Occurrence | null {
  if (schedule.kind === 'recurring') {
    // an expression that never fires has no occurrence (the rules refuse to save one)
    const expression = schedule.expression && runnableCron(schedule.expression);
    if (!expression || !schedule.duration_minutes) return null;
    const lengthMs = schedule.duration_minutes * 60_000;
    // an occurrence that began up to its length ago is still in force
    const cron = CronExpressionParser.parse(expression, { currentDate: now, tz: timeZone });
    const previous = cron.prev().toDate();
    if (previous.getTime() + lengthMs > now.getTime()) return { start: previous, end: new Date(previous.getTime() + lengthMs) };
    const next = CronExpressionParser.parse(expression, { currentDate: now, tz: timeZone }).next().toDate();
    return { start: next, end: new Date(next.getTime() + lengthMs) };
  }
  if (!schedule.starts_at || !schedule.ends_at) return null;
  const start = new Date(schedule.starts_at);
  const end = new Date(schedule.ends_at);
  return end > now ? { start, end } : null;
}
