// The throttle's policy over an in-memory stand-in for its database table (the API tests run it
// on the real databases).
import { describe, expect, it } from 'vitest';
import { loginThrottle, type ThrottleLimits } from '../../../server/auth/loginThrottle.ts';
import type { CounterRow, ThrottleStore } from '../../../server/db/throttleStore.ts';

function memoryStore(): ThrottleStore {
  const rows = new Map<string, CounterRow>();
  return {
    read: async (keys) => keys.flatMap((key) => (rows.has(key) ? [{ ...rows.get(key)! }] : [])),
    addFailure: async (keys, at, cutoff) => {
      for (const key of keys) {
        const row = rows.get(key);
        if (!row || row.windowStart < cutoff) rows.set(key, { key, failures: 1, windowStart: at, lastAt: at });
        else rows.set(key, { ...row, failures: row.failures + 1, lastAt: at });
      }
    },
    reset: async (keys, at) => {
      for (const key of keys) rows.set(key, { key, failures: 0, windowStart: at, lastAt: at });
    },
    prune: async (before) => {
      for (const [key, row] of rows) if (row.lastAt < before) rows.delete(key);
    },
  };
}

const limits: ThrottleLimits = { perPair: 3, perAddress: 10, perAccount: 6, windowMs: 600_000, baseDelayMs: 1000, knownForMs: 86_400_000 };

describe('loginThrottle', () => {
  it('slows one account+address pair with a doubling delay and leaves other addresses alone', async () => {
    let now = 0;
    const throttle = loginThrottle(memoryStore(), limits, () => now);
    for (let i = 0; i < 3; i++) {
      expect(await throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
      await throttle.recordFailure('a@x', '1.1.1.1');
    }
    expect(await throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(1000);
    expect(await throttle.retryAfterMs('a@x', '2.2.2.2')).toBe(0);
    now = 1000;
    await throttle.recordFailure('a@x', '1.1.1.1');
    expect(await throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(2000);
    await throttle.recordFailure('a@x', '1.1.1.1');
    expect(await throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(4000);
  });

  it('never delays longer than the window, and forgets after it', async () => {
    let now = 0;
    const throttle = loginThrottle(memoryStore(), limits, () => now);
    for (let i = 0; i < 40; i++) await throttle.recordFailure('a@x', '1.1.1.1');
    expect(await throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(600_000);
    now = 600_001;
    expect(await throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
  });

  it('blocks an address that tries many accounts until its window ends', async () => {
    let now = 0;
    const throttle = loginThrottle(memoryStore(), limits, () => now);
    for (let i = 0; i < 10; i++) await throttle.recordFailure(`user${i}@x`, '1.1.1.1');
    now = 5000;
    expect(await throttle.retryAfterMs('someone@x', '1.1.1.1')).toBe(595_000);
    expect(await throttle.retryAfterMs('someone@x', '2.2.2.2')).toBe(0);
  });

  it('past the account ceiling, slows unknown addresses but not one the owner signed in from', async () => {
    const now = 0;
    const throttle = loginThrottle(memoryStore(), limits, () => now);
    await throttle.recordSuccess('owner@x', '10.0.0.1');
    for (let i = 0; i < 6; i++) await throttle.recordFailure('owner@x', `6.6.6.${i}`);
    expect(await throttle.retryAfterMs('owner@x', '7.7.7.7')).toBe(1000);
    expect(await throttle.retryAfterMs('owner@x', '10.0.0.1')).toBe(0);
  });

  it('a success clears the pair', async () => {
    const throttle = loginThrottle(memoryStore(), limits, () => 0);
    for (let i = 0; i < 3; i++) await throttle.recordFailure('a@x', 'ip');
    await throttle.recordSuccess('a@x', 'ip');
    expect(await throttle.retryAfterMs('a@x', 'ip')).toBe(0);
  });
});
