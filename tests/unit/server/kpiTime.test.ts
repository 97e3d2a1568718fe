// The time arithmetic of GET /kpi-data, with every expected instant worked out by hand: offsets,
// bucket starts across DST changes and in +05:30 / +05:45 zones, the range of a definition, and
// which telemetry table answers it exactly.
import { describe, expect, it } from 'vitest';
import {
  BadRange, bucketEnd, bucketStart, calendarRange, chooseSource, compareRange, foldedPlan, isKnownTimeZone, kpiRange, nextBucketStart, offsetsWithin, planRows, rangePieces, readingOf, SEARCH_ROWS,
  sourcePlan, zonedInstant,
  zoneOffset, type KpiInterval,
} from '../../../server/time/kpiTime.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;
const BRATISLAVA = 'Europe/Bratislava';
const KOLKATA = 'Asia/Kolkata';
const KATHMANDU = 'Asia/Kathmandu';

/** Bucket starts from `from` while before `to`. */
function starts(zone: string, interval: KpiInterval, from: string, to: string): string[] {
  const result: string[] = [];
  for (let start = bucketStart(zone, interval, at(from)); start < at(to); start = nextBucketStart(zone, interval, start)) result.push(iso(start));
  return result;
}

describe('offsets', () => {
  it('follow the zone and its summer time', () => {
    expect(zoneOffset('UTC', at('2026-07-01T00:00:00Z'))).toBe(0);
    expect(zoneOffset(BRATISLAVA, at('2026-01-15T12:00:00Z'))).toBe(HOUR);
    expect(zoneOffset(BRATISLAVA, at('2026-07-15T12:00:00Z'))).toBe(2 * HOUR);
    expect(zoneOffset(KOLKATA, at('2026-07-15T12:00:00Z'))).toBe(5.5 * HOUR);
    expect(zoneOffset(KATHMANDU, at('2026-07-15T12:00:00Z'))).toBe(5.75 * HOUR);
    expect(zoneOffset('America/St_Johns', at('2026-01-15T12:00:00Z'))).toBe(-3.5 * HOUR);
  });

  it('change at the DST instants (01:00 UTC in the EU)', () => {
    expect(zoneOffset(BRATISLAVA, at('2026-03-29T00:59:59Z'))).toBe(HOUR);
    expect(zoneOffset(BRATISLAVA, at('2026-03-29T01:00:00Z'))).toBe(2 * HOUR);
    expect(zoneOffset(BRATISLAVA, at('2026-10-25T00:59:59Z'))).toBe(2 * HOUR);
    expect(zoneOffset(BRATISLAVA, at('2026-10-25T01:00:00Z'))).toBe(HOUR);
  });

  it('lists every offset of a range', () => {
    expect(offsetsWithin(BRATISLAVA, at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z')).sort()).toEqual([HOUR, 2 * HOUR]);
    expect(offsetsWithin(BRATISLAVA, at('2026-04-01T00:00:00Z'), at('2026-10-01T00:00:00Z'))).toEqual([2 * HOUR]);
    expect(offsetsWithin(KOLKATA, at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'))).toEqual([5.5 * HOUR]);
  });

  it('knows real zones only', () => {
    expect(isKnownTimeZone('Europe/Bratislava')).toBe(true);
    expect(isKnownTimeZone('UTC')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('local times name instants as PostgreSQL reads them: a gap with the offset before, an overlap with the one after', () => {
    expect(iso(zonedInstant(BRATISLAVA, at('2026-03-29T00:00:00Z')))).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(zonedInstant(BRATISLAVA, at('2026-03-30T00:00:00Z')))).toBe('2026-03-29T22:00:00.000Z');
    // 02:30 does not exist on 29 March; PostgreSQL: timestamp '2026-03-29 02:30' AT TIME ZONE … = 01:30Z
    expect(iso(zonedInstant(BRATISLAVA, at('2026-03-29T02:30:00Z')))).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October; PostgreSQL takes the second (CET): 01:30Z
    expect(iso(zonedInstant(BRATISLAVA, at('2026-10-25T02:30:00Z')))).toBe('2026-10-25T01:30:00.000Z');
  });
});

describe('buckets', () => {
  it('days in Bratislava across the spring change: 23 hours on 29 March 2026', () => {
    expect(starts(BRATISLAVA, '1d', '2026-03-28T12:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
      '2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', '2026-03-30T22:00:00.000Z',
    ]);
    const day = bucketStart(BRATISLAVA, '1d', at('2026-03-29T12:00:00Z'));
    expect(nextBucketStart(BRATISLAVA, '1d', day) - day).toBe(23 * HOUR);
  });

  it('days in Bratislava across the autumn change: 25 hours on 25 October 2026', () => {
    const day = bucketStart(BRATISLAVA, '1d', at('2026-10-25T12:00:00Z'));
    expect(iso(day)).toBe('2026-10-24T22:00:00.000Z');
    expect(iso(nextBucketStart(BRATISLAVA, '1d', day))).toBe('2026-10-25T23:00:00.000Z');
  });

  it('hours in Bratislava: the repeated hour of 25 October is two buckets, 25 in the day', () => {
    const hours = starts(BRATISLAVA, '1h', '2026-10-24T22:00:00Z', '2026-10-25T23:00:00Z');
    expect(hours).toHaveLength(25);
    expect(hours.slice(1, 4)).toEqual(['2026-10-24T23:00:00.000Z', '2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z']);
    expect(iso(bucketStart(BRATISLAVA, '1h', at('2026-10-25T00:30:00Z')))).toBe('2026-10-25T00:00:00.000Z'); // 02:30 CEST
    expect(iso(bucketStart(BRATISLAVA, '1h', at('2026-10-25T01:30:00Z')))).toBe('2026-10-25T01:00:00.000Z'); // 02:30 CET
    expect(starts(BRATISLAVA, '1h', '2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z')).toHaveLength(23);
  });

  it('hours and days in Kolkata (+05:30) start at half past in UTC', () => {
    expect(iso(bucketStart(KOLKATA, '1h', at('2026-05-01T10:10:00Z')))).toBe('2026-05-01T09:30:00.000Z');
    expect(iso(bucketStart(KOLKATA, '1h', at('2026-05-01T09:30:00Z')))).toBe('2026-05-01T09:30:00.000Z');
    expect(iso(bucketStart(KOLKATA, '15m', at('2026-05-01T10:10:00Z')))).toBe('2026-05-01T10:00:00.000Z');
    expect(iso(bucketStart(KOLKATA, '1d', at('2026-05-01T10:10:00Z')))).toBe('2026-04-30T18:30:00.000Z');
    expect(iso(bucketStart(KOLKATA, '1d', at('2026-05-01T18:29:59Z')))).toBe('2026-04-30T18:30:00.000Z');
    expect(iso(bucketStart(KOLKATA, '1d', at('2026-05-01T18:30:00Z')))).toBe('2026-05-01T18:30:00.000Z');
  });

  it('hours and days in Kathmandu (+05:45) start at quarter past in UTC', () => {
    expect(iso(bucketStart(KATHMANDU, '1h', at('2026-05-01T10:10:00Z')))).toBe('2026-05-01T09:15:00.000Z');
    expect(iso(bucketStart(KATHMANDU, '1h', at('2026-05-01T10:15:00Z')))).toBe('2026-05-01T10:15:00.000Z');
    expect(iso(bucketStart(KATHMANDU, '1d', at('2026-05-01T10:10:00Z')))).toBe('2026-04-30T18:15:00.000Z');
    expect(iso(bucketStart(KATHMANDU, '5m', at('2026-05-01T10:14:00Z')))).toBe('2026-05-01T10:10:00.000Z');
  });

  it('weeks start on Monday and months on the 1st, at local midnight', () => {
    // Sunday 29 March 2026 → Monday 23 March (CET)
    expect(iso(bucketStart(BRATISLAVA, '1w', at('2026-03-29T12:00:00Z')))).toBe('2026-03-22T23:00:00.000Z');
    // Monday 30 March → itself, after the change (CEST)
    expect(iso(bucketStart(BRATISLAVA, '1w', at('2026-03-30T12:00:00Z')))).toBe('2026-03-29T22:00:00.000Z');
    expect(iso(bucketStart('UTC', '1w', at('2026-01-01T00:00:00Z')))).toBe('2025-12-29T00:00:00.000Z');
    expect(starts(BRATISLAVA, '1M', '2026-01-15T00:00:00Z', '2026-05-01T00:00:00Z')).toEqual([
      '2025-12-31T23:00:00.000Z', '2026-01-31T23:00:00.000Z', '2026-02-28T23:00:00.000Z', '2026-03-31T22:00:00.000Z', '2026-04-30T22:00:00.000Z',
    ]);
    expect(iso(bucketStart(KOLKATA, '1M', at('2026-03-01T00:00:00Z')))).toBe('2026-02-28T18:30:00.000Z');
  });

  it('ends at a bucket boundary: unchanged on one, the next start otherwise', () => {
    expect(iso(bucketEnd('UTC', '1h', at('2026-05-01T10:00:00Z')))).toBe('2026-05-01T10:00:00.000Z');
    expect(iso(bucketEnd('UTC', '1h', at('2026-05-01T10:00:01Z')))).toBe('2026-05-01T11:00:00.000Z');
    expect(iso(bucketEnd(BRATISLAVA, '1d', at('2026-03-29T12:00:00Z')))).toBe('2026-03-29T22:00:00.000Z');
  });
});

describe('the range of a definition', () => {
  const now = at('2026-03-29T10:37:12.345Z'); // a Sunday, the day Bratislava moves to summer time

  it('rolls back time_range from now, in whole buckets', () => {
    expect(kpiRange({ time_interval: '1h', time_range: '24h' }, 'UTC', now)).toEqual({ interval: '1h', from: at('2026-03-28T10:00:00Z'), to: at('2026-03-29T11:00:00Z') });
    expect(kpiRange({ time_interval: '15m', time_range: '1h' }, KOLKATA, now)).toEqual({ interval: '15m', from: at('2026-03-29T09:30:00Z'), to: at('2026-03-29T10:45:00Z') });
    expect(kpiRange({ time_interval: '1d', time_range: '7d' }, BRATISLAVA, now)).toEqual({ interval: '1d', from: at('2026-03-21T23:00:00Z'), to: at('2026-03-29T22:00:00Z') });
  });

  it('takes the schema defaults (1h buckets over 24 hours) when the definition names none', () => {
    expect(kpiRange({}, 'UTC', now)).toEqual({ interval: '1h', from: at('2026-03-28T10:00:00Z'), to: at('2026-03-29T11:00:00Z') });
  });

  it('starts a floating range at the start of the local day, week, month or year and ends it now', () => {
    expect(kpiRange({ time_interval: '1h', floating_start: 'day' }, BRATISLAVA, now)).toMatchObject({ from: at('2026-03-28T23:00:00Z'), to: at('2026-03-29T11:00:00Z') });
    expect(kpiRange({ time_interval: '1d', floating_start: 'week' }, BRATISLAVA, now)).toMatchObject({ from: at('2026-03-22T23:00:00Z'), to: at('2026-03-29T22:00:00Z') });
    expect(kpiRange({ time_interval: '1d', floating_start: 'month' }, 'UTC', now)).toMatchObject({ from: at('2026-03-01T00:00:00Z'), to: at('2026-03-30T00:00:00Z') });
    expect(kpiRange({ time_interval: '1M', floating_start: 'year' }, KOLKATA, now)).toMatchObject({ from: at('2025-12-31T18:30:00Z'), to: at('2026-03-31T18:30:00Z') });
    // 'none' keeps the rolling range
    expect(kpiRange({ time_interval: '1h', floating_start: 'none', time_range: '1h' }, 'UTC', now)).toMatchObject({ from: at('2026-03-29T09:00:00Z') });
  });

  it('with a floating window, runs the floating range to the end of its period (a 23-hour day on the spring change)', () => {
    expect(kpiRange({ time_interval: '1h', floating_start: 'day', floating_window: true }, BRATISLAVA, now)).toMatchObject({ from: at('2026-03-28T23:00:00Z'), to: at('2026-03-29T22:00:00Z') });
    expect(kpiRange({ time_interval: '1d', floating_start: 'week', floating_window: true }, BRATISLAVA, now)).toMatchObject({ from: at('2026-03-22T23:00:00Z'), to: at('2026-03-29T22:00:00Z') });
    expect(kpiRange({ time_interval: '1d', floating_start: 'month', floating_window: true }, 'UTC', now)).toMatchObject({ from: at('2026-03-01T00:00:00Z'), to: at('2026-04-01T00:00:00Z') });
    expect(kpiRange({ time_interval: '1M', floating_start: 'year', floating_window: true }, KOLKATA, now)).toMatchObject({ from: at('2025-12-31T18:30:00Z'), to: at('2026-12-31T18:30:00Z') });
    // without a floating start it changes nothing
    expect(kpiRange({ time_interval: '1h', time_range: '1h', floating_window: true }, 'UTC', now)).toEqual(kpiRange({ time_interval: '1h', time_range: '1h' }, 'UTC', now));
  });

  it('uses a date range as given, widened to whole buckets', () => {
    const date_range = { from: '2026-03-28T00:00:00+01:00', to: '2026-03-31T00:00:00+02:00' };
    expect(kpiRange({ time_interval: '1d', date_range }, BRATISLAVA, now)).toEqual({ interval: '1d', from: at('2026-03-27T23:00:00Z'), to: at('2026-03-30T22:00:00Z') });
    expect(kpiRange({ time_interval: '1h', date_range: { from: '2026-01-01T10:20:00Z', to: '2026-01-01T12:05:00Z' } }, 'UTC', now))
      .toEqual({ interval: '1h', from: at('2026-01-01T10:00:00Z'), to: at('2026-01-01T13:00:00Z') });
    // a date range wins over time_range and floating_start
    expect(kpiRange({ time_interval: '1h', time_range: '1y', floating_start: 'year', date_range: { from: '2026-01-01T10:00:00Z', to: '2026-01-01T11:00:00Z' } }, 'UTC', now))
      .toEqual({ interval: '1h', from: at('2026-01-01T10:00:00Z'), to: at('2026-01-01T11:00:00Z') });
  });

  it('moves the range back by time_shift hours (forwards when negative)', () => {
    expect(kpiRange({ time_interval: '1h', time_range: '1h', time_shift: 24 }, 'UTC', now)).toEqual({ interval: '1h', from: at('2026-03-28T09:00:00Z'), to: at('2026-03-28T11:00:00Z') });
    expect(kpiRange({ time_interval: '1h', date_range: { from: '2026-01-02T10:00:00Z', to: '2026-01-02T12:00:00Z' }, time_shift: -2 }, 'UTC', now))
      .toEqual({ interval: '1h', from: at('2026-01-02T12:00:00Z'), to: at('2026-01-02T14:00:00Z') });
  });

  it('refuses a date range that does not run forwards, or leaves the years a timestamp holds', () => {
    expect(() => kpiRange({ date_range: { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' } }, 'UTC', now)).toThrow(BadRange);
    expect(() => kpiRange({ date_range: { from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }, 'UTC', now)).toThrow(BadRange);
    expect(() => kpiRange({ date_range: { from: 'soon', to: '2026-01-01T00:00:00Z' } }, 'UTC', now)).toThrow(BadRange);
    expect(() => kpiRange({ date_range: { from: '0001-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }, 'UTC', now)).toThrow(BadRange);
    expect(() => kpiRange({ date_range: { from: '2026-01-01T00:00:00Z' } }, 'UTC', now)).toThrow(BadRange);
  });

  it('takes an empty date range (what a form leaves) as none', () => {
    expect(kpiRange({ time_interval: '1h', time_range: '1h', date_range: {} }, 'UTC', now)).toMatchObject({ from: at('2026-03-29T09:00:00Z') });
  });
});

describe('quick ranges (time_range)', () => {
  /** A calendar range in Bratislava as ISO instants and its length in hours. */
  const calendar = (range: Parameters<typeof calendarRange>[1], now: string, zone = BRATISLAVA) => {
    const [from, to] = calendarRange(zone, range, at(now));
    return { from: iso(from), to: iso(to), hours: (to - from) / HOUR };
  };

  it('today and yesterday are whole local days: 23 hours on 29 March, 25 on 25 October', () => {
    expect(calendar('today', '2026-03-29T10:37:00Z')).toEqual({ from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', hours: 23 });
    expect(calendar('yesterday', '2026-03-30T10:00:00Z')).toEqual({ from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', hours: 23 });
    expect(calendar('today', '2026-10-25T10:00:00Z')).toEqual({ from: '2026-10-24T22:00:00.000Z', to: '2026-10-25T23:00:00.000Z', hours: 25 });
    expect(calendar('yesterday', '2026-10-26T00:30:00Z')).toEqual({ from: '2026-10-24T22:00:00.000Z', to: '2026-10-25T23:00:00.000Z', hours: 25 });
    // 23:30 UTC on 25 October is already the 26th in Bratislava
    expect(calendar('today', '2026-10-25T23:30:00Z').from).toBe('2026-10-25T23:00:00.000Z');
    expect(calendar('today', '2026-10-25T23:30:00Z', 'UTC')).toEqual({ from: '2026-10-25T00:00:00.000Z', to: '2026-10-26T00:00:00.000Z', hours: 24 });
  });

  it('weeks run from Monday: this_week on a Sunday and on a Monday, last_week across both changes (167 and 169 hours)', () => {
    // Sunday 29 March 12:37 CEST, and Sunday 23:59 CEST: the week that began on Monday 23 March (CET)
    expect(calendar('this_week', '2026-03-29T10:37:00Z')).toEqual({ from: '2026-03-22T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', hours: 167 });
    expect(calendar('this_week', '2026-03-29T21:59:59Z').from).toBe('2026-03-22T23:00:00.000Z');
    // Monday 30 March 00:00 CEST starts the next one
    expect(calendar('this_week', '2026-03-29T22:00:00Z')).toEqual({ from: '2026-03-29T22:00:00.000Z', to: '2026-04-05T22:00:00.000Z', hours: 168 });
    expect(calendar('this_week', '2026-03-30T10:00:00Z').from).toBe('2026-03-29T22:00:00.000Z');
    expect(calendar('last_week', '2026-03-30T10:00:00Z')).toEqual({ from: '2026-03-22T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', hours: 167 });
    expect(calendar('last_week', '2026-10-26T10:00:00Z')).toEqual({ from: '2026-10-18T22:00:00.000Z', to: '2026-10-25T23:00:00.000Z', hours: 169 });
    expect(calendar('this_week', '2026-10-25T12:00:00Z')).toEqual({ from: '2026-10-18T22:00:00.000Z', to: '2026-10-25T23:00:00.000Z', hours: 169 });
  });

  it('months from the 1st: March (743 hours) and October (745), last_month in January is December of the year before', () => {
    expect(calendar('this_month', '2026-03-15T12:00:00Z')).toEqual({ from: '2026-02-28T23:00:00.000Z', to: '2026-03-31T22:00:00.000Z', hours: 743 });
    expect(calendar('last_month', '2026-04-10T12:00:00Z')).toEqual({ from: '2026-02-28T23:00:00.000Z', to: '2026-03-31T22:00:00.000Z', hours: 743 });
    expect(calendar('this_month', '2026-10-25T12:00:00Z')).toEqual({ from: '2026-09-30T22:00:00.000Z', to: '2026-10-31T23:00:00.000Z', hours: 745 });
    expect(calendar('last_month', '2026-11-05T12:00:00Z')).toEqual({ from: '2026-09-30T22:00:00.000Z', to: '2026-10-31T23:00:00.000Z', hours: 745 });
    expect(calendar('last_month', '2026-01-15T12:00:00Z')).toEqual({ from: '2025-11-30T23:00:00.000Z', to: '2025-12-31T23:00:00.000Z', hours: 744 });
    // half past midnight on 1 January in Bratislava is still 31 December in UTC
    expect(calendar('last_month', '2025-12-31T23:30:00Z')).toEqual({ from: '2025-11-30T23:00:00.000Z', to: '2025-12-31T23:00:00.000Z', hours: 744 });
    expect(calendar('last_month', '2025-12-31T23:30:00Z', 'UTC')).toEqual({ from: '2025-11-01T00:00:00.000Z', to: '2025-12-01T00:00:00.000Z', hours: 720 });
  });

  it('years from 1 January, both changes inside', () => {
    expect(calendar('this_year', '2026-03-29T10:37:00Z')).toEqual({ from: '2025-12-31T23:00:00.000Z', to: '2026-12-31T23:00:00.000Z', hours: 8760 });
    expect(calendar('last_year', '2026-03-29T10:37:00Z')).toEqual({ from: '2024-12-31T23:00:00.000Z', to: '2025-12-31T23:00:00.000Z', hours: 8760 });
    expect(calendar('last_year', '2025-06-01T00:00:00Z')).toEqual({ from: '2023-12-31T23:00:00.000Z', to: '2024-12-31T23:00:00.000Z', hours: 8784 });
  });

  it('rolling ranges end now; 6M is six calendar months before in the wall time', () => {
    const now = at('2026-03-29T10:37:12.345Z');
    const fromOf = (time_range: Parameters<typeof kpiRange>[0]['time_range'], zone = 'UTC') => iso(kpiRange({ time_interval: '1m', time_range }, zone, now).from);
    expect(fromOf('15m')).toBe('2026-03-29T10:22:00.000Z');
    expect(fromOf('30m')).toBe('2026-03-29T10:07:00.000Z');
    expect(fromOf('2h')).toBe('2026-03-29T08:37:00.000Z');
    expect(fromOf('5h')).toBe('2026-03-29T05:37:00.000Z');
    expect(fromOf('12h')).toBe('2026-03-28T22:37:00.000Z');
    expect(iso(kpiRange({ time_interval: '1h', time_range: '60d' }, 'UTC', now).from)).toBe('2026-01-28T10:00:00.000Z');
    expect(iso(kpiRange({ time_interval: '1h', time_range: '90d' }, 'UTC', now).from)).toBe('2025-12-29T10:00:00.000Z');
    // 12:37 CEST on 29 March → 12:37 CEST on 29 September 2025 (10:37 UTC); in UTC the same reading
    expect(iso(kpiRange({ time_interval: '1h', time_range: '6M' }, BRATISLAVA, now).from)).toBe('2025-09-29T10:00:00.000Z');
    expect(iso(kpiRange({ time_interval: '1h', time_range: '6M' }, 'UTC', at('2026-08-31T12:00:00Z')).from)).toBe('2026-02-28T12:00:00.000Z');
    // 12:37 CET in mid-January → 12:37 CEST in mid-July: 10:37 UTC
    expect(iso(kpiRange({ time_interval: '1m', time_range: '6M' }, BRATISLAVA, at('2027-01-15T11:37:00Z')).from)).toBe('2026-07-15T10:37:00.000Z');
  });

  it('precedence: date_range > calendar range > floating start > rolling range; time_shift moves any of them', () => {
    const now = at('2026-03-29T10:37:12.345Z');
    const date_range = { from: '2026-01-01T10:00:00Z', to: '2026-01-01T11:00:00Z' };
    expect(kpiRange({ time_interval: '1h', time_range: 'last_year', date_range }, 'UTC', now)).toMatchObject({ from: at('2026-01-01T10:00:00Z'), to: at('2026-01-01T11:00:00Z') });
    // a calendar range wins over the floating start: yesterday, whole
    expect(kpiRange({ time_interval: '1h', time_range: 'yesterday', floating_start: 'month' }, BRATISLAVA, now))
      .toEqual({ interval: '1h', from: at('2026-03-27T23:00:00Z'), to: at('2026-03-28T23:00:00Z') });
    // the floating start wins over a rolling range
    expect(kpiRange({ time_interval: '1h', time_range: '15m', floating_start: 'day' }, BRATISLAVA, now)).toMatchObject({ from: at('2026-03-28T23:00:00Z'), to: at('2026-03-29T11:00:00Z') });
    expect(kpiRange({ time_interval: '1h', time_range: 'today', time_shift: 24 }, BRATISLAVA, now))
      .toEqual({ interval: '1h', from: at('2026-03-27T23:00:00Z'), to: at('2026-03-28T22:00:00Z') });
    // whole periods at coarser buckets: this year's months, last week's days
    expect(kpiRange({ time_interval: '1M', time_range: 'this_year' }, BRATISLAVA, now)).toEqual({ interval: '1M', from: at('2025-12-31T23:00:00Z'), to: at('2026-12-31T23:00:00Z') });
    expect(kpiRange({ time_interval: '1d', time_range: 'last_week' }, BRATISLAVA, now)).toEqual({ interval: '1d', from: at('2026-03-15T23:00:00Z'), to: at('2026-03-22T23:00:00Z') });
  });
});

describe('the source table', () => {
  const range = (interval: KpiInterval, from: string, to: string) => ({ interval, from: at(from), to: at(to) });
  const year = (interval: KpiInterval) => range(interval, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z');

  it('daily roll-ups for calendar buckets at UTC+0 only', () => {
    expect(chooseSource('UTC', year('1d'))).toBe('telemetry_daily');
    expect(chooseSource('UTC', year('1w'))).toBe('telemetry_daily');
    expect(chooseSource('UTC', year('1M'))).toBe('telemetry_daily');
    expect(chooseSource('Europe/London', range('1d', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'))).toBe('telemetry_daily'); // GMT in winter
    expect(chooseSource('Europe/London', year('1d'))).toBe('telemetry_hourly'); // BST in summer
  });

  it('hourly roll-ups where every offset is whole hours, for buckets of an hour or more', () => {
    expect(chooseSource(BRATISLAVA, year('1d'))).toBe('telemetry_hourly');
    expect(chooseSource(BRATISLAVA, year('1M'))).toBe('telemetry_hourly');
    expect(chooseSource(BRATISLAVA, year('1h'))).toBe('telemetry_hourly');
    expect(chooseSource('UTC', year('1h'))).toBe('telemetry_hourly');
  });

  it('15-minute roll-ups where an offset is a multiple of 15 minutes, for buckets of 15 minutes or more', () => {
    expect(chooseSource(KOLKATA, year('1h'))).toBe('telemetry_quarter_hourly');
    expect(chooseSource(KOLKATA, year('1d'))).toBe('telemetry_quarter_hourly');
    expect(chooseSource(KATHMANDU, year('1M'))).toBe('telemetry_quarter_hourly');
    expect(chooseSource('America/St_Johns', year('1d'))).toBe('telemetry_quarter_hourly');
    expect(chooseSource('UTC', year('15m'))).toBe('telemetry_quarter_hourly');
    expect(chooseSource(BRATISLAVA, year('15m'))).toBe('telemetry_quarter_hourly');
  });

  it('raw points for buckets under 15 minutes, or offsets off the quarter hour', () => {
    expect(chooseSource('UTC', year('1m'))).toBe('telemetry');
    expect(chooseSource('UTC', year('5m'))).toBe('telemetry');
    // Liberia kept −00:44:30 until 1972
    expect(chooseSource('Africa/Monrovia', range('1d', '1960-01-01T00:00:00Z', '1960-02-01T00:00:00Z'))).toBe('telemetry');
    expect(chooseSource('Africa/Monrovia', range('1d', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'))).toBe('telemetry_daily');
  });
});

describe('the rows read (coarser rows inside calendar buckets)', () => {
  const spans = (...pairs: [string, string][]) => pairs.map(([from, to]) => [at(from), at(to)]);

  it('one table over the whole range where nothing coarser fits', () => {
    const utc = kpiRange({ time_interval: '1d', date_range: { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' } }, 'UTC', 0);
    expect(sourcePlan('UTC', utc)).toEqual([{ source: 'telemetry_daily', spans: [[utc.from, utc.to]] }]);
    // a Bratislava day never holds a whole UTC day: its hours, as one span
    const local = kpiRange({ time_interval: '1d', date_range: { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' } }, BRATISLAVA, 0);
    expect(sourcePlan(BRATISLAVA, local)).toEqual([{ source: 'telemetry_hourly', spans: [[local.from, local.to]] }]);
    const hours = kpiRange({ time_interval: '1h', time_range: '24h' }, KOLKATA, at('2026-05-01T10:00:00Z'));
    expect(sourcePlan(KOLKATA, hours)).toEqual([{ source: 'telemetry_quarter_hourly', spans: [[hours.from, hours.to]] }]);
  });

  it('Bratislava months: the UTC days inside from the daily roll-up, the hours around them hourly', () => {
    const range = kpiRange({ time_interval: '1M', date_range: { from: '2026-01-15T00:00:00Z', to: '2026-02-15T00:00:00Z' } }, BRATISLAVA, 0);
    expect(range).toMatchObject({ from: at('2025-12-31T23:00:00Z'), to: at('2026-02-28T23:00:00Z') });
    const plan = sourcePlan(BRATISLAVA, range);
    expect(plan).toEqual([
      { source: 'telemetry_daily', spans: spans(['2026-01-01T00:00:00Z', '2026-01-31T00:00:00Z'], ['2026-02-01T00:00:00Z', '2026-02-28T00:00:00Z']) },
      {
        source: 'telemetry_hourly',
        spans: spans(['2025-12-31T23:00:00Z', '2026-01-01T00:00:00Z'], ['2026-01-31T00:00:00Z', '2026-02-01T00:00:00Z'], ['2026-02-28T00:00:00Z', '2026-02-28T23:00:00Z']),
      },
    ]);
    // the daily rows read as one range filtered by the spans (58), the hours searched span by span (48 + 3 searches)
    expect(planRows(plan)).toBe(58 + 48 + 3 * SEARCH_ROWS);
  });

  it('Kolkata days: whole hours hourly, the half hours at the edges from the 15-minute roll-up', () => {
    const range = kpiRange({ time_interval: '1d', date_range: { from: '2026-05-01T00:00:00+05:30', to: '2026-05-03T00:00:00+05:30' } }, KOLKATA, 0);
    expect(sourcePlan(KOLKATA, range)).toEqual([
      { source: 'telemetry_hourly', spans: spans(['2026-04-30T19:00:00Z', '2026-05-01T18:00:00Z'], ['2026-05-01T19:00:00Z', '2026-05-02T18:00:00Z']) },
      {
        source: 'telemetry_quarter_hourly',
        spans: spans(['2026-04-30T18:30:00Z', '2026-04-30T19:00:00Z'], ['2026-05-01T18:00:00Z', '2026-05-01T19:00:00Z'], ['2026-05-02T18:00:00Z', '2026-05-02T18:30:00Z']),
      },
    ]);
  });

  it('a zone whose local days are kept (TELEMETRY_DAY_ZONES) reads one row a local day, across both DST changes', () => {
    const year = kpiRange({ time_interval: '1d', date_range: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' } }, BRATISLAVA, 0);
    const plan = sourcePlan(BRATISLAVA, year, true);
    expect(plan).toEqual([{ source: 'telemetry_daily_zoned', spans: [[year.from, year.to]] }]);
    expect(planRows(plan)).toBe(365 + 1); // the 23- and 25-hour days are a row each; a day's estimate rounds up
    // Kathmandu months: local midnights are at 18:15 UTC, still whole local days
    const months = kpiRange({ time_interval: '1M', date_range: { from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' } }, KATHMANDU, 0);
    expect(sourcePlan(KATHMANDU, months, true)).toEqual([{ source: 'telemetry_daily_zoned', spans: [[months.from, months.to]] }]);
    // hours are not calendar buckets: the local days play no part
    const hours = kpiRange({ time_interval: '1h', time_range: '24h' }, BRATISLAVA, at('2026-05-01T10:00:00Z'));
    expect(sourcePlan(BRATISLAVA, hours, true)).toEqual([{ source: 'telemetry_hourly', spans: [[hours.from, hours.to]] }]);
  });

  it('covers the range exactly, without overlaps, in every zone and calendar bucket', () => {
    for (const zone of ['UTC', BRATISLAVA, KOLKATA, KATHMANDU, 'America/St_Johns', 'Australia/Lord_Howe']) {
      for (const interval of ['1d', '1w', '1M'] as KpiInterval[]) {
        for (const localDays of [false, true]) {
          const range = kpiRange({ time_interval: interval, date_range: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' } }, zone, 0);
          const all = sourcePlan(zone, range, localDays).flatMap((level) => level.spans).sort((a, b) => a[0] - b[0]);
          const label = `${zone} ${interval} ${localDays}`;
          expect(all[0][0], label).toBe(range.from);
          expect(all[all.length - 1][1], label).toBe(range.to);
          for (let i = 1; i < all.length; i++) expect(all[i][0], label).toBe(all[i - 1][1]);
        }
      }
    }
  });
});

describe('the rows read while the roll-ups hold the raw points up to a line', () => {
  const spans = (...pairs: [string, string][]) => pairs.map(([from, to]) => [at(from), at(to)]);

  it('a roll-up row only for a period that ended by the line; 15-minute rows up to it, raw points after it', () => {
    // UTC days of a week, the line on Wednesday at 10:45
    const week = kpiRange({ time_interval: '1d', date_range: { from: '2026-06-01T00:00:00Z', to: '2026-06-08T00:00:00Z' } }, 'UTC', 0);
    expect(foldedPlan(sourcePlan('UTC', week), 'UTC', at('2026-06-03T10:45:00Z'))).toEqual([
      { source: 'telemetry_daily', spans: spans(['2026-06-01T00:00:00Z', '2026-06-03T00:00:00Z']) },
      { source: 'telemetry_quarter_hourly', spans: spans(['2026-06-03T00:00:00Z', '2026-06-03T10:45:00Z']) },
      { source: 'telemetry', spans: spans(['2026-06-03T10:45:00Z', '2026-06-08T00:00:00Z']) },
    ]);
    // Bratislava months: the daily, hourly and local-day rows each cut where their period holds the line
    const months = kpiRange({ time_interval: '1M', date_range: { from: '2026-01-15T00:00:00Z', to: '2026-02-15T00:00:00Z' } }, BRATISLAVA, 0);
    expect(foldedPlan(sourcePlan(BRATISLAVA, months, true), BRATISLAVA, at('2026-02-10T07:30:00Z'))).toEqual([
      { source: 'telemetry_daily_zoned', spans: spans(['2025-12-31T23:00:00Z', '2026-02-09T23:00:00Z']) },
      { source: 'telemetry_quarter_hourly', spans: spans(['2026-02-09T23:00:00Z', '2026-02-10T07:30:00Z']) },
      { source: 'telemetry', spans: spans(['2026-02-10T07:30:00Z', '2026-02-28T23:00:00Z']) },
    ]);
    // hours, the line on the hour: nothing of the 15-minute rows
    const hours = kpiRange({ time_interval: '1h', date_range: { from: '2026-06-03T00:00:00Z', to: '2026-06-03T12:00:00Z' } }, 'UTC', 0);
    expect(foldedPlan(sourcePlan('UTC', hours), 'UTC', at('2026-06-03T10:00:00Z'))).toEqual([
      { source: 'telemetry_hourly', spans: spans(['2026-06-03T00:00:00Z', '2026-06-03T10:00:00Z']) },
      { source: 'telemetry', spans: spans(['2026-06-03T10:00:00Z', '2026-06-03T12:00:00Z']) },
    ]);
  });

  it('leaves a plan alone before the line, and reads only raw points after it', () => {
    const range = kpiRange({ time_interval: '1h', date_range: { from: '2026-06-03T00:00:00Z', to: '2026-06-03T12:00:00Z' } }, KOLKATA, 0);
    const plan = sourcePlan(KOLKATA, range);
    expect(foldedPlan(plan, KOLKATA, at('2026-07-01T00:00:00Z'))).toEqual(plan);
    expect(foldedPlan(plan, KOLKATA, at('2026-06-01T00:00:00Z'))).toEqual([{ source: 'telemetry', spans: [[range.from, range.to]] }]);
    expect(foldedPlan(plan, KOLKATA, Number.NEGATIVE_INFINITY)).toEqual([{ source: 'telemetry', spans: [[range.from, range.to]] }]); // no line: nothing folded
  });

  it('counts raw points only up to now', () => {
    const day = kpiRange({ time_interval: '1h', date_range: { from: '2026-06-03T00:00:00Z', to: '2026-06-04T00:00:00Z' } }, 'UTC', 0);
    const plan = foldedPlan(sourcePlan('UTC', day), 'UTC', at('2026-06-03T10:00:00Z'));
    expect(planRows(plan, at('2026-06-03T10:20:00Z'))).toBe(10 + 20); // ten hourly rows, twenty minutes of raw points
    expect(planRows(plan)).toBe(10 + 14 * 60);
  });
});

describe('the range in pieces (a statement each)', () => {
  it('cuts at bucket starts into consecutive pieces covering the range', () => {
    const year = kpiRange({ time_interval: '1d', date_range: { from: '2026-01-01T00:00:00+05:30', to: '2027-01-01T00:00:00+05:30' } }, KOLKATA, 0);
    const pieces = rangePieces(year, KOLKATA, 4);
    expect(pieces).toHaveLength(4);
    expect(pieces[0].from).toBe(year.from);
    expect(pieces[3].to).toBe(year.to);
    for (let i = 1; i < pieces.length; i++) expect(pieces[i].from).toBe(pieces[i - 1].to);
    for (const piece of pieces) {
      expect(bucketStart(KOLKATA, '1d', piece.from)).toBe(piece.from); // no bucket is split
      expect(piece.interval).toBe('1d');
    }
    // 365 days in four: 92, 92, 92, 89
    expect(pieces.map((piece) => Math.round((piece.to - piece.from) / (24 * HOUR)))).toEqual([92, 92, 92, 89]);
  });

  it('keeps the range whole for one piece, and never makes a piece of less than one bucket', () => {
    const day = kpiRange({ time_interval: '1h', time_range: '24h' }, BRATISLAVA, at('2026-05-01T10:30:00Z'));
    expect(rangePieces(day, BRATISLAVA, 1)).toEqual([day]);
    const pieces = rangePieces(day, BRATISLAVA, 100);
    expect(pieces).toHaveLength(25);
    expect(pieces.every((piece) => piece.to - piece.from === HOUR)).toBe(true);
  });

  it('a year of Kolkata days costs what its reading does: hours filtered by range, half hours searched span by span', () => {
    const year = kpiRange({ time_interval: '1d', date_range: { from: '2026-01-01T00:00:00+05:30', to: '2027-01-01T00:00:00+05:30' } }, KOLKATA, 0);
    const plan = sourcePlan(KOLKATA, year);
    expect(plan.map((level) => [level.source, readingOf(level).reading])).toEqual([['telemetry_hourly', 'filter'], ['telemetry_quarter_hourly', 'search']]);
    // about 8,760 hourly rows and 366 searches of 2 quarter hours each: not the 3,000,000 pairs of rows and spans it once cost
    expect(planRows(plan)).toBeGreaterThan(8_760 + 366 * SEARCH_ROWS);
    expect(planRows(plan)).toBeLessThan(8_760 + 366 * (SEARCH_ROWS + 4) + 10);
  });
});

describe('the compared range (one comparison series)', () => {
  const compared = (range: { interval: KpiInterval; from: string; to: string }, compare: Parameters<typeof compareRange>[1], zone = 'UTC') => {
    const result = compareRange({ interval: range.interval, from: at(range.from), to: at(range.to) }, compare, zone)!;
    return { from: iso(result.range.from), to: iso(result.range.to), onChart: (instant: string) => iso(result.onChart(at(instant))) };
  };

  it('compares nothing unless asked', () => {
    expect(compareRange({ interval: '1h', from: 0, to: HOUR }, undefined, 'UTC')).toBeUndefined();
    expect(compareRange({ interval: '1h', from: 0, to: HOUR }, { compare_shift: 'none' }, 'UTC')).toBeUndefined();
  });

  it('reads the range just before, of the same length, drawn over this one', () => {
    const previous = compared({ interval: '1h', from: '2026-11-23T10:00:00Z', to: '2026-11-24T11:00:00Z' }, { compare_shift: 'previous' });
    expect(previous).toMatchObject({ from: '2026-11-22T09:00:00.000Z', to: '2026-11-23T10:00:00.000Z' });
    expect(previous.onChart('2026-11-22T09:00:00Z')).toBe('2026-11-23T10:00:00.000Z');
  });

  it('moves days in wall time: the same local hour a day before, across the spring change', () => {
    // 29 March 2026: Bratislava skips 02:00–03:00 (a 23-hour day)
    const day = compared({ interval: '1h', from: '2026-03-29T22:00:00Z', to: '2026-03-30T22:00:00Z' }, { compare_shift: 'days', compare_by: 1 }, BRATISLAVA);
    expect(day.from).toBe('2026-03-28T23:00:00.000Z'); // local midnight of the 29th (+01:00)
    expect(day.to).toBe('2026-03-29T22:00:00.000Z'); // local midnight of the 30th (+02:00)
    expect(day.onChart('2026-03-29T06:00:00Z')).toBe('2026-03-30T06:00:00.000Z'); // 08:00 local both days
    const weeks = compared({ interval: '1d', from: '2026-11-01T00:00:00Z', to: '2026-11-08T00:00:00Z' }, { compare_shift: 'weeks', compare_by: 2 });
    expect(weeks).toMatchObject({ from: '2026-10-18T00:00:00.000Z', to: '2026-10-25T00:00:00.000Z' });
  });

  it('moves months and years by the calendar, the day clamped to the month', () => {
    const month = compared({ interval: '1d', from: '2026-03-31T00:00:00Z', to: '2026-04-01T00:00:00Z' }, { compare_shift: 'months', compare_by: 1 });
    expect(month.from).toBe('2026-02-28T00:00:00.000Z');
    expect(month.onChart('2026-02-28T00:00:00Z')).toBe('2026-03-28T00:00:00.000Z');
    const year = compared({ interval: '1M', from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }, { compare_shift: 'years', compare_by: 1 });
    expect(year).toMatchObject({ from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' });
  });

  it('starts at a chosen date, for the same length', () => {
    const chosen = compared({ interval: '1d', from: '2026-11-01T00:00:00Z', to: '2026-11-08T00:00:00Z' }, { compare_shift: 'date', compare_from: '2025-12-24T15:00:00Z' });
    expect(chosen).toMatchObject({ from: '2025-12-24T00:00:00.000Z', to: '2025-12-31T00:00:00.000Z' });
    expect(chosen.onChart('2025-12-24T00:00:00Z')).toBe('2026-11-01T00:00:00.000Z');
    expect(() => compareRange({ interval: '1d', from: 0, to: 86_400_000 }, { compare_shift: 'date' }, 'UTC')).toThrow(BadRange);
  });
});
