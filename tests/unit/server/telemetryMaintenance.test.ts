import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { scheduleTelemetryMaintenance } from '../../../server/engines/telemetryMaintenance.ts';

afterEach(() => vi.useRealTimers());

/** A database whose statements fail while `failing` says so; counts the runs. */
function database(failing: () => boolean) {
  let statements = 0;
  const db = {
    systemQuery: async () => {
      statements++;
      if (failing()) throw new Error('database away');
      return [];
    },
  } as unknown as Database;
  return { db, statements: () => statements };
}

describe('the telemetry maintenance schedule', () => {
  it('retries a failed run after a minute, then two, four… never later than its interval, and stops when told', async () => {
    vi.useFakeTimers();
    const failures: number[] = [];
    const { db } = database(() => true);
    const stop = scheduleTelemetryMaintenance(db, undefined, () => failures.push(Date.now()), 10 * 60_000);
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    const after = failures.map((at) => (at - start) / 60_000);
    // 0, +1, +2, +4, +8 (capped at 10), then every 10 minutes
    expect(after).toEqual([0, 1, 3, 7, 15, 25, 35, 45, 55]);
    stop();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(failures).toHaveLength(after.length);
  });

  it('runs at its interval again once a run succeeds', async () => {
    vi.useFakeTimers();
    let failing = true;
    const failures: number[] = [];
    const { db, statements } = database(() => failing);
    const stop = scheduleTelemetryMaintenance(db, undefined, () => failures.push(Date.now()), 10 * 60_000);
    await vi.advanceTimersByTimeAsync(1);
    failing = false;
    await vi.advanceTimersByTimeAsync(60_000); // the retry succeeds
    const afterRecovery = statements();
    await vi.advanceTimersByTimeAsync(9 * 60_000);
    expect(statements()).toBe(afterRecovery); // nothing before the interval
    await vi.advanceTimersByTimeAsync(60_000);
    expect(statements()).toBeGreaterThan(afterRecovery);
    expect(failures).toHaveLength(1);
    stop();
  });
});
