// Which occurrence of a scheduler runs now, and which comes next (pure). An occurrence is the
// instant its cron expression names in the tenant's time zone (cron-parser): a local time that a
// spring-forward skips runs at the same time an hour later (02:30 → 03:30), one that an autumn night
// repeats runs once, at its first instant; so a daily 02:30 job runs once on both days. After
// downtime the missed occurrences of the last 24 hours run one by one (catch-up); older ones are
// skipped together, and that is logged.
import { nextRunAt } from '../../resources/rules/schedulerRules.ts';
import type { SchedulerRow } from '../../db/schedulerQueries.ts';

export const CATCH_UP_MS = 24 * 3_600_000;
/** Bounds the walk over skipped occurrences (a minutely job down for a year would be 525,600). */
const MAX_SKIPPED_WALK = 100_000;

export type OccurrencePlan =
  | { run: true; occurrence: number; next: number | null }
  | { run: false; skippedFrom: number; skippedTo: number; skipped: number; next: number | null };

/** The occurrence after `after`, or null (a single run has none). */
export function occurrenceAfter(definition: SchedulerRow['definition'], zone: string, after: number): number | null {
  return nextRunAt('active', definition, zone, new Date(after))?.getTime() ?? null;
}

export function planOccurrence(definition: SchedulerRow['definition'], zone: string, occurrence: number, now: number): OccurrencePlan {
  if (occurrence >= now - CATCH_UP_MS) return { run: true, occurrence, next: occurrenceAfter(definition, zone, occurrence) };
  let skipped = 1;
  let last = occurrence;
  let next = occurrenceAfter(definition, zone, occurrence);
  while (next !== null && next < now - CATCH_UP_MS && skipped < MAX_SKIPPED_WALK) {
    skipped += 1;
    last = next;
    next = occurrenceAfter(definition, zone, next);
  }
  // a walk cut short goes on from a day ago
  if (next !== null && next < now - CATCH_UP_MS) next = occurrenceAfter(definition, zone, now - CATCH_UP_MS);
  return { run: false, skippedFrom: occurrence, skippedTo: last, skipped, next };
}
