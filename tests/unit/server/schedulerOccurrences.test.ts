// A scheduler's occurrences in its tenant's time zone: a daily 02:30 job runs once on both
// daylight-saving days; a single run has no next; after downtime only the last day is caught up.
import { describe, expect, it } from 'vitest';
import { CATCH_UP_MS, occurrenceAfter, planOccurrence } from '../../../server/engines/schedulers/occurrences.ts';

const daily = { kind: 'periodic', expression: '30 2 * * *', aggregation: 'sum', key: 'energy', time_slot: 'last-week', target_attribute: 't' } as const;
const walk = (from: string, count: number, zone = 'Europe/Bratislava') => {
  const found: string[] = [];
  let at = Date.parse(from);
  for (let n = 0; n < count; n += 1) {
    at = occurrenceAfter(daily, zone, at)!;
    found.push(new Date(at).toISOString());
  }
  return found;
};

describe('occurrences', () => {
  it('a daily 02:30 job runs once on the spring-forward day (at 03:30, the gap skipped) and once on the autumn day (the first 02:30)', () => {
    // 29 March 2026: 02:00 → 03:00 in Bratislava; 25 October 2026: 03:00 → 02:00
    expect(walk('2026-03-27T12:00:00Z', 3)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(walk('2026-10-23T12:00:00Z', 3)).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('a single run has no next occurrence', () => {
    const single = { ...daily, kind: 'single', run_at: '2026-11-24T10:00:00Z' } as const;
    expect(planOccurrence(single, 'UTC', Date.parse(single.run_at), Date.parse('2026-11-24T10:00:01Z'))).toEqual({ run: true, occurrence: Date.parse(single.run_at), next: null });
  });

  it('missed by less than a day: runs, the next one follows it; missed by more: skipped together up to a day ago', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    const hourly = { ...daily, expression: '0 * * * *' };
    expect(planOccurrence(hourly, 'UTC', now - 5 * 3_600_000, now)).toEqual({ run: true, occurrence: now - 5 * 3_600_000, next: now - 4 * 3_600_000 });
    const plan = planOccurrence(hourly, 'UTC', now - 30 * 3_600_000, now);
    expect(plan).toEqual({ run: false, skippedFrom: now - 30 * 3_600_000, skippedTo: now - 25 * 3_600_000, skipped: 6, next: now - CATCH_UP_MS });
  });
});
