// KPI answers shared by callers alike (server/cache/kpiAnswerCache.ts): reused while fresh, one
// computation for everyone asking meanwhile, dropped when the tenant's records change, never
// across tenants, failures not kept, memory bounded.
import { describe, expect, it } from 'vitest';
import { FRESH_MS, kpiAnswerCache, MAX_POINTS } from '../../../server/cache/kpiAnswerCache.ts';
import { ApiError } from '../../../server/errors.ts';

const points = (answer: { n: number; size?: number }) => answer.size ?? 1;

function counted(value: () => { n: number; size?: number }) {
  let runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((open) => { release = open; });
  return {
    compute: async () => {
      runs++;
      await gate;
      return value();
    },
    runs: () => runs,
    release: () => release(),
  };
}

describe('kpiAnswerCache', () => {
  it('computes once for everyone asking meanwhile, and reuses the answer while it is fresh', async () => {
    let now = 0;
    const cache = kpiAnswerCache(points, () => now);
    let n = 0;
    const work = counted(() => ({ n: ++n }));
    const asked = Array.from({ length: 200 }, () => cache.answer('a', 'k', work.compute));
    work.release();
    expect(new Set((await Promise.all(asked)).map((answer) => answer.n))).toEqual(new Set([1]));
    expect(work.runs()).toBe(1);
    now = FRESH_MS - 1;
    expect((await cache.answer('a', 'k', work.compute)).n).toBe(1);
    now = FRESH_MS;
    expect((await cache.answer('a', 'k', work.compute)).n).toBe(2);
    expect(work.runs()).toBe(2);
  });

  it('keeps tenants apart, and drops a tenant\'s answers when its records change, also one being computed', async () => {
    const cache = kpiAnswerCache(points, () => 0);
    await cache.answer('a', 'k', async () => ({ n: 1 }));
    expect((await cache.answer('b', 'k', async () => ({ n: 2 }))).n).toBe(2);
    cache.invalidate('a');
    expect((await cache.answer('a', 'k', async () => ({ n: 3 }))).n).toBe(3);
    expect((await cache.answer('b', 'k', async () => ({ n: 4 }))).n).toBe(2);
    // a change while an answer is computed: that answer is not kept, and whoever asks after the change does not wait for it
    const slow = counted(() => ({ n: 5 }));
    cache.invalidate('a');
    const started = cache.answer('a', 'j', slow.compute);
    cache.invalidate('a');
    const after = cache.answer('a', 'j', async () => ({ n: 6 }));
    expect((await after).n).toBe(6);
    slow.release();
    expect((await started).n).toBe(5);
    expect((await cache.answer('a', 'j', async () => ({ n: 7 }))).n).toBe(6);
  });

  it('keeps no failure; a computation its starter\'s budget refused is started again by a waiter', async () => {
    const cache = kpiAnswerCache(points, () => 0);
    await expect(cache.answer('a', 'k', async () => { throw new ApiError(404, 'NO_KPI_DATA', 'No KPI data found'); })).rejects.toThrow('No KPI data found');
    expect((await cache.answer('a', 'k', async () => ({ n: 1 }))).n).toBe(1);
    let refuse!: (error: unknown) => void;
    const refused = cache.answer('a', 'r', () => new Promise((_resolve, reject) => { refuse = reject; }));
    const waiter = cache.answer('a', 'r', async () => ({ n: 2 }));
    refuse(new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests at once. Try again in a moment.'));
    await expect(refused).rejects.toThrow('Too many requests');
    expect((await waiter).n).toBe(2);
  });

  it('holds at most MAX_POINTS points, the answer stored longest ago going first', async () => {
    const cache = kpiAnswerCache(points, () => 0);
    const quarter = MAX_POINTS / 4;
    for (let i = 0; i < 4; i++) await cache.answer('a', `k${i}`, async () => ({ n: i, size: quarter }));
    await cache.answer('a', 'k4', async () => ({ n: 4, size: quarter }));
    expect((await cache.answer('a', 'k0', async () => ({ n: -1 }))).n).toBe(-1); // gone
    expect((await cache.answer('a', 'k4', async () => ({ n: -1 }))).n).toBe(4);
    // one answer over a quarter of it is answered, not kept
    expect((await cache.answer('a', 'big', async () => ({ n: 5, size: quarter + 1 }))).n).toBe(5);
    expect((await cache.answer('a', 'big', async () => ({ n: 6 }))).n).toBe(6);
  });
});
