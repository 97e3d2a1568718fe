// The closed buckets kept between computations of a KPI's answer (server/cache/closedBuckets.ts):
// reused only for the same shape, dropped by points stored before their end (also while the next
// computation runs), read whole again after MAX_KEPT_MS, bounded in points.
import { describe, expect, it } from 'vitest';
import { closedBuckets, ENTRY_POINTS, MAX_KEPT_MS, SERIES_POINTS, type SeriesPoints } from '../../../server/cache/closedBuckets.ts';

const HOUR = 3_600_000;
const T = 'tenant-a';
/** What ten hours of one series weigh. */
const TEN_HOURS = 10 + ENTRY_POINTS + SERIES_POINTS;
/** Hours 0…n-1 of one series, each worth its hour. */
const hours = (n: number): SeriesPoints => new Map([['0:', Array.from({ length: n }, (_v, h) => [h * HOUR, h] as [number, number])]]);

describe('closed buckets', () => {
  it('keeps the points before the closing instant, for the same shape only', () => {
    const store = closedBuckets();
    store.keep(T, 'kpi', 'shape', 0, 10 * HOUR, hours(12), store.watch(T));
    const kept = store.kept(T, 'kpi', 'shape')!;
    expect(kept.closedUntil).toBe(10 * HOUR);
    expect(kept.series.get('0:')).toEqual(hours(10).get('0:'));
    expect(store.size()).toBe(TEN_HOURS);
    expect(store.kept(T, 'kpi', 'other shape')).toBeUndefined();
    expect(store.kept('tenant-b', 'kpi', 'shape')).toBeUndefined();
  });

  it('drops what a stored point reaches, also when it was stored while the answer was computed', () => {
    const store = closedBuckets();
    store.keep(T, 'kpi', 'shape', 0, 10 * HOUR, hours(12), store.watch(T));
    store.stored([{ tenantId: 'tenant-b', from: 0 }, { tenantId: T, from: 10 * HOUR }]); // another tenant; the open hour
    expect(store.kept(T, 'kpi', 'shape')).toBeDefined();
    store.stored([{ tenantId: T, from: 9 * HOUR + 1 }]);
    expect(store.kept(T, 'kpi', 'shape')).toBeUndefined();

    const watch = store.watch(T);
    store.stored([{ tenantId: T, from: 3 * HOUR }]); // meanwhile
    store.keep(T, 'kpi', 'shape', 0, 10 * HOUR, hours(12), watch);
    expect(store.kept(T, 'kpi', 'shape')).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it('is read whole again MAX_KEPT_MS after the last whole read, however often it was renewed', () => {
    let now = 0;
    const store = closedBuckets(() => now);
    store.keep(T, 'kpi', 'shape', 0, 10 * HOUR, hours(12), store.watch(T));
    now = MAX_KEPT_MS - 1;
    const kept = store.kept(T, 'kpi', 'shape')!;
    store.keep(T, 'kpi', 'shape', 0, 11 * HOUR, hours(12), store.watch(T), kept.keptAt); // renewed from a partial read
    now = MAX_KEPT_MS;
    expect(store.kept(T, 'kpi', 'shape')).toBeUndefined();
  });

  it('holds at most its bound of points: the series kept longest ago goes first; one too large is not kept', () => {
    const store = closedBuckets(Date.now, 4 * TEN_HOURS);
    store.keep(T, 'first', 'shape', 0, 10 * HOUR, hours(10), store.watch(T));
    store.keep(T, 'second', 'shape', 0, 10 * HOUR, hours(10), store.watch(T));
    store.keep(T, 'third', 'shape', 0, 10 * HOUR, hours(10), store.watch(T));
    store.keep(T, 'fourth', 'shape', 0, 10 * HOUR, hours(10), store.watch(T));
    store.keep(T, 'fifth', 'shape', 0, 10 * HOUR, hours(10), store.watch(T));
    expect(store.size()).toBe(4 * TEN_HOURS);
    expect(store.kept(T, 'first', 'shape')).toBeUndefined();
    expect(store.kept(T, 'fifth', 'shape')).toBeDefined();
    store.keep(T, 'huge', 'shape', 0, 20 * HOUR, hours(20), store.watch(T));
    expect(store.kept(T, 'huge', 'shape')).toBeUndefined();
    store.forget(T);
    expect(store.size()).toBe(0);
  });

  it('counts what a key holds besides its points: many tiny series are bounded too', () => {
    const store = closedBuckets(Date.now, 1_000);
    for (let n = 0; n < 10_000; n++) store.keep(T, `tiny ${n}`, 'shape', 0, HOUR, hours(1), store.watch(T));
    expect(store.size()).toBeLessThanOrEqual(1_000);
    expect(store.kept(T, 'tiny 0', 'shape')).toBeUndefined();
    expect(store.kept(T, 'tiny 9999', 'shape')).toBeDefined();
  });
});
