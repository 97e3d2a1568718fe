// Largest-Triangle-Three-Buckets (Steinarsson, 2013): a series of more points than a chart can
// draw cut to `threshold` of its own points, chosen to keep its shape — peaks, dips and the first
// and last point stay; no value is invented or averaged away.

export interface SeriesPoint { ts: string; value: number }

/** The points of `data` (in time order) that LTTB keeps, at most `threshold` (≥ 3) of them. */
export function largestTriangleThreeBuckets<T extends SeriesPoint>(data: readonly T[], threshold: number): T[] {
  if (threshold >= data.length || threshold < 3) return [...data];
  const x = data.map((point) => Date.parse(point.ts));
  const kept: T[] = [data[0]];
  // the points between the first and the last, in threshold − 2 buckets of about equal size
  const every = (data.length - 2) / (threshold - 2);
  let previous = 0;
  for (let bucket = 0; bucket < threshold - 2; bucket += 1) {
    // the next bucket's average point is the triangle's third corner
    const nextStart = Math.floor((bucket + 1) * every) + 1;
    const nextEnd = Math.min(Math.floor((bucket + 2) * every) + 1, data.length);
    let averageX = 0;
    let averageY = 0;
    for (let index = nextStart; index < nextEnd; index += 1) {
      averageX += x[index];
      averageY += data[index].value;
    }
    const span = Math.max(nextEnd - nextStart, 1);
    averageX /= span;
    averageY /= span;
    // of this bucket's points, the one making the largest triangle with the last kept point and that average
    const start = Math.floor(bucket * every) + 1;
    const end = Math.floor((bucket + 1) * every) + 1;
    let chosen = start;
    let largest = -1;
    for (let index = start; index < end; index += 1) {
      const area = Math.abs((x[previous] - averageX) * (data[index].value - data[previous].value) - (x[previous] - x[index]) * (averageY - data[previous].value));
      if (area > largest) {
        largest = area;
        chosen = index;
      }
    }
    kept.push(data[chosen]);
    previous = chosen;
  }
  kept.push(data[data.length - 1]);
  return kept;
}
