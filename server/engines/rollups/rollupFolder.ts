// Folds the live raw points into the roll-ups once their quarter hour has closed (and a grace
// for stragglers has passed): per device × key, all of its points of the quarter hour in one row,
// where folding every batch as it came cost five roll-up upserts a point when many devices each
// send little (docs/decisions.md "Roll-ups folded when a quarter hour closes"). A quarter hour is
// folded in parts of about FOLD_STEP_MS each, with as long a pause after each, so the writer's
// batches wait at most one part. Until it is folded, readers take its raw points
// (server/time/kpiTime.ts `foldedPlan`): answers are exact whatever the folder's delay. The line
// moves in the same transaction as the rows, so a crash loses nothing; on several instances the
// state row's lock lets one fold at a time.
import type { Database } from '../../db/database.ts';
import { foldNext } from '../../db/rollupQueries.ts';
import { startWorkLoop } from '../../workLoop.ts';

/** A quarter hour is folded this long after it closed: points arriving later are folded by the writer. */
export const FOLD_GRACE_MS = 30_000;
/** How long one part of a fold should take: the writer's batches wait at most about this long. */
const FOLD_STEP_MS = 100;
/** Device × key pairs of the first part, and the bounds of the parts' size. */
const FIRST_PAIRS = 2_000;
const MIN_PAIRS = 200;
const MAX_PAIRS = 100_000;

export interface RollupFolderOptions {
  onError(error: unknown): void;
  /** How often the folder looks whether a quarter hour has closed. */
  everyMs?: number;
  now?: () => number;
}

/** One part of the next fold, if a quarter hour is due; `pairs` is the part's size. Answers whether more is due and the size for the next. */
export async function foldStep(db: Database, closedBefore: number, pairs: number): Promise<{ more: boolean; pairs: number; tookMs: number }> {
  const started = performance.now();
  const step = await foldNext(db, closedBefore, pairs);
  const tookMs = performance.now() - started;
  if (step.kind === 'idle') return { more: false, pairs, tookMs };
  const next = step.pairs > 0 ? Math.round(pairs * FOLD_STEP_MS / Math.max(tookMs, 1)) : pairs;
  return { more: true, pairs: Math.min(MAX_PAIRS, Math.max(MIN_PAIRS, next)), tookMs };
}

/** Folds every quarter hour that closed before `closedBefore` (tests, the benchmarks). */
export async function foldAll(db: Database, closedBefore: number): Promise<void> {
  for (let pairs = FIRST_PAIRS, more = true; more;) ({ more, pairs } = await foldStep(db, closedBefore, pairs));
}

export function startRollupFolder(db: Database, { onError, everyMs = 5_000, now = Date.now }: RollupFolderOptions) {
  let pairs = FIRST_PAIRS;
  return startWorkLoop({
    everyMs,
    onError,
    work: async () => {
      const step = await foldStep(db, now() - FOLD_GRACE_MS, pairs);
      pairs = step.pairs;
      // The database is the writer's as long again before the next part.
      if (step.more) await new Promise((resolve) => setTimeout(resolve, Math.min(step.tookMs, 1_000)));
      return step.more;
    },
  });
}
