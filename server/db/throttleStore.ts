// The failed sign-in counters of server/auth/loginThrottle.ts, in the database so that every
// instance shares them and they survive a restart.
import { inArray, lt, sql } from 'drizzle-orm';
import type { Database } from './database.ts';
import { loginThrottle } from './schema.ts';

export interface CounterRow { key: string; failures: number; windowStart: Date; lastAt: Date }

export function throttleStore(db: Database) {
  return {
    read: (keys: string[]): Promise<CounterRow[]> =>
      db.systemTx((tx) => tx.select().from(loginThrottle).where(inArray(loginThrottle.key, keys))),

    /** Adds one failure to each key; a key whose window began before `windowCutoff` starts again at 1. */
    addFailure: (keys: string[], at: Date, windowCutoff: Date) =>
      db.systemTx((tx) => tx.insert(loginThrottle)
        .values(keys.map((key) => ({ key, failures: 1, windowStart: at, lastAt: at })))
        .onConflictDoUpdate({
          target: loginThrottle.key,
          set: {
            failures: sql`CASE WHEN ${loginThrottle.windowStart} < ${windowCutoff} THEN 1 ELSE ${loginThrottle.failures} + 1 END`,
            windowStart: sql`CASE WHEN ${loginThrottle.windowStart} < ${windowCutoff} THEN excluded.window_start ELSE ${loginThrottle.windowStart} END`,
            lastAt: sql`excluded.last_at`,
          },
        })),

    /** Sets `key` to a fresh row with no failures (a success), or creates it. */
    reset: (keys: string[], at: Date) =>
      db.systemTx((tx) => tx.insert(loginThrottle)
        .values(keys.map((key) => ({ key, failures: 0, windowStart: at, lastAt: at })))
        .onConflictDoUpdate({ target: loginThrottle.key, set: { failures: 0, windowStart: at, lastAt: at } })),

    /** Forgets rows untouched since `before`. */
    prune: (before: Date) => db.systemTx((tx) => tx.delete(loginThrottle).where(lt(loginThrottle.lastAt, before))),
  };
}
export type ThrottleStore = ReturnType<typeof throttleStore>;
