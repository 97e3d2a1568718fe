// LTTB keeps a series' shape with the points a chart can draw: its own points only, first and
// last, in order, and the spike a mean would flatten.
import { describe, expect, it } from 'vitest';
import { largestTriangleThreeBuckets } from '../../../server/telemetry/downsample.ts';

const series = (values: number[]) => values.map((value, index) => ({ ts: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(), value }));

describe('largestTriangleThreeBuckets', () => {
  it('leaves a series that fits as it is', () => {
    const data = series([1, 2, 3]);
    expect(largestTriangleThreeBuckets(data, 10)).toEqual(data);
  });

  it('answers exactly the threshold of the series\' own points, first and last kept, in time order', () => {
    const data = series(Array.from({ length: 10_000 }, (_v, index) => Math.sin(index / 50) * 100));
    const kept = largestTriangleThreeBuckets(data, 800);
    expect(kept).toHaveLength(800);
    expect(kept[0]).toBe(data[0]);
    expect(kept.at(-1)).toBe(data.at(-1));
    expect(kept.every((point) => data.includes(point))).toBe(true);
    expect(kept.map((point) => point.ts)).toEqual([...kept.map((point) => point.ts)].sort());
    // the wave's crests and troughs survive
    expect(Math.max(...kept.map((point) => point.value))).toBeGreaterThan(99.9);
    expect(Math.min(...kept.map((point) => point.value))).toBeLessThan(-99.9);
  });

  it('keeps a lone spike in a flat series', () => {
    const values = Array.from({ length: 5_000 }, () => 20);
    values[3_217] = 95;
    expect(largestTriangleThreeBuckets(series(values), 100).some((point) => point.value === 95)).toBe(true);
  });
});
