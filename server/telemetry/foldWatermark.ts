// How far the roll-ups hold the raw points (server/db/rollupQueries.ts), for the readers that plan
// which rows answer them: read from the database at most once every MAX_AGE_MS. The line only
// moves forward, so one read a moment ago is never past it: a plan made on it reads raw points a
// little further back than it needs and stays exact.
import type { Database } from '../db/database.ts';
import { foldedUntil } from '../db/rollupQueries.ts';

const MAX_AGE_MS = 1_000;

export type FoldWatermark = () => Promise<number>;

export function foldWatermark(db: Database): FoldWatermark {
  let value = Number.NEGATIVE_INFINITY;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<number> | undefined;
  return () => {
    if (performance.now() - readAt < MAX_AGE_MS) return Promise.resolve(value);
    reading ??= foldedUntil(db).then((ms) => {
      value = ms;
      readAt = performance.now();
      return ms;
    }).finally(() => (reading = undefined));
    return reading;
  };
}
