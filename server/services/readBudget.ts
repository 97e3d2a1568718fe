// The expensive reads (KPI data, whole entity lists and trees, map and group-member pages) are
// budgeted per user: at most `running` of one user's run at once and the next `waiting` wait their
// turn, first come first served; beyond that the user is answered 429 and asked to retry. So one
// user — or one stolen token — firing many of them at once holds the database no longer than two
// would, and everyone else's requests are served between them.
import { ApiError } from '../errors.ts';
import type { Caller } from '../auth/caller.ts';

export interface ReadBudgetLimits {
  /** Expensive reads of one user at once. */
  running: number;
  /** Expensive reads of one user waiting for their turn, at most. */
  waiting: number;
}

/** A dashboard asks for several KPIs at once: they wait their turn rather than fail. */
export const DEFAULT_READ_BUDGET: ReadBudgetLimits = { running: 2, waiting: 32 };

export const TOO_MANY_READS = 'Too many requests at once. Try again in a moment.';

interface UserReads { running: number; queue: (() => void)[] }

export function readBudget(limits: ReadBudgetLimits = DEFAULT_READ_BUDGET) {
  const users = new Map<string, UserReads>();

  return {
    /** Runs `work` as one of the caller's expensive reads, once it is its turn. */
    async run<T>(caller: Caller, work: () => Promise<T>): Promise<T> {
      const key = `${caller.tenantId}:${caller.userId}`;
      let reads = users.get(key);
      if (!reads) users.set(key, (reads = { running: 0, queue: [] }));
      if (reads.running >= limits.running) {
        if (reads.queue.length >= limits.waiting) throw Object.assign(new ApiError(429, 'TOO_MANY_REQUESTS', TOO_MANY_READS), { retryAfterSeconds: 1 });
        await new Promise<void>((turn) => reads.queue.push(turn));
      }
      reads.running++;
      try {
        return await work();
      } finally {
        reads.running--;
        const next = reads.queue.shift();
        if (next) next();
        else if (reads.running === 0) users.delete(key);
      }
    },
  };
}
export type ReadBudget = ReturnType<typeof readBudget>;
