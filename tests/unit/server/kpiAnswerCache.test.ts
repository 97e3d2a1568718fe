// KPI answers shared by callers alike (server/cache/kpiAnswerCache.ts): reused while fresh, one
// computation for everyone asking meanwhile, computed again ahead of their end while asked, dropped when the tenant's records change, never
// across tenants, failures not kept, memory bounded.
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS, FRESH_MS, freshFor, kpiAnswerCache, MAX_FRESH_MS, MAX_POINTS, MIN_LEAD_MS, refreshLead } from '../../../server/cache/kpiAnswerCache.ts';
import { ApiError } from '../../../server/errors.ts';

type Answer = { n: number; size?: number };
const points = (answer: Answer) => answer.size ?? 1;
/** An answer as computed, reused for FRESH_MS. */
const computed = (answer: Answer, freshMs = FRESH_MS) => ({ answer, freshMs });

function counted(value: () => { n: number; size?: number }, freshMs = FRESH_MS) {
  let runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((open) => { release = open; });
  return {
    compute: async () => {
      runs++;
      await gate;
      return computed(value(), freshMs);
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
    now = FRESH_MS - MIN_LEAD_MS - 1;
    expect((await cache.answer('a', 'k', work.compute)).n).toBe(1);
    expect(work.runs()).toBe(1); // not yet near its end
    now = FRESH_MS * 2;
    expect((await cache.answer('a', 'k', work.compute)).n).toBe(2);
    expect(work.runs()).toBe(2);
  });

  it('reuses an answer as long as its KPI\'s refresh interval, within 1 s and a minute', async () => {
    expect([freshFor(undefined), freshFor(0), freshFor(0.2), freshFor(10), freshFor(3_600)]).toEqual([FRESH_MS, FRESH_MS, 1_000, 10_000, MAX_FRESH_MS]);
    let now = 0;
    const cache = kpiAnswerCache(points, () => now);
    await cache.answer('a', 'k', async () => computed({ n: 1 }, 10_000));
    now = 9_000;
    expect((await cache.answer('a', 'k', async () => computed({ n: 2 }))).n).toBe(1);
    now = 10_000;
    expect((await cache.answer('a', 'k', async () => computed({ n: 3 }))).n).toBe(3);
  });

  it('computes an answer still asked for again ahead of its end: askers keep the kept one meanwhile, and never wait for the next', async () => {
    expect([refreshLead(10_000, 0), refreshLead(10_000, 400), refreshLead(10_000, 5_000), refreshLead(1_000, 0)]).toEqual([MIN_LEAD_MS, 1_200, 2_500, 250]);
    let now = 0;
    const cache = kpiAnswerCache(points, () => now);
    await cache.answer('a', 'k', async () => computed({ n: 1 }, 10_000));
    const next = counted(() => ({ n: 2 }), 10_000);
    now = 10_000 - MIN_LEAD_MS;
    expect((await cache.answer('a', 'k', next.compute)).n).toBe(1); // answered at once, the next one started
    expect(next.runs()).toBe(1);
    now += 100;
    expect((await cache.answer('a', 'k', next.compute)).n).toBe(1);
    expect(next.runs()).toBe(1); // one computation for everyone
    next.release();
    await Promise.resolve();
    now = 10_000;
    expect((await cache.answer('a', 'k', async () => computed({ n: 3 }))).n).toBe(2);
    // a refresh still under way when the answer ends is waited for, not computed twice
    const slow = counted(() => ({ n: 4 }), 10_000);
    now = 10_000 + 9_500;
    expect((await cache.answer('a', 'k', slow.compute)).n).toBe(2);
    now = 10_000 + 10_000;
    const waiting = cache.answer('a', 'k', async () => computed({ n: 5 }));
    slow.release();
    expect((await waiting).n).toBe(4);
    expect(slow.runs()).toBe(1);
    // a refresh refused (the asker's budget) keeps the answer to its end; then the next asker computes
    now = 20_000 + 9_600;
    expect((await cache.answer('a', 'k', async () => { throw new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests at once. Try again in a moment.'); })).n).toBe(4);
    now = 20_000 + 10_000;
    expect((await cache.answer('a', 'k', async () => computed({ n: 6 }))).n).toBe(6);
  });

  it('keeps tenants apart, and drops a tenant\'s answers when its records change, also one being computed', async () => {
    const cache = kpiAnswerCache(points, () => 0);
    await cache.answer('a', 'k', async () => computed({ n: 1 }));
    expect((await cache.answer('b', 'k', async () => computed({ n: 2 }))).n).toBe(2);
    cache.invalidate('a');
    expect((await cache.answer('a', 'k', async () => computed({ n: 3 }))).n).toBe(3);
    expect((await cache.answer('b', 'k', async () => computed({ n: 4 }))).n).toBe(2);
    // a change while an answer is computed: that answer is not kept, and whoever asks after the change does not wait for it
    const slow = counted(() => ({ n: 5 }));
    cache.invalidate('a');
    const started = cache.answer('a', 'j', slow.compute);
    cache.invalidate('a');
    const after = cache.answer('a', 'j', async () => computed({ n: 6 }));
    expect((await after).n).toBe(6);
    slow.release();
    expect((await started).n).toBe(5);
    expect((await cache.answer('a', 'j', async () => computed({ n: 7 }))).n).toBe(6);
  });

  it('keeps no failure; a computation its starter\'s budget refused is started again by a waiter', async () => {
    const cache = kpiAnswerCache(points, () => 0);
    await expect(cache.answer('a', 'k', async () => { throw new ApiError(404, 'NO_KPI_DATA', 'No KPI data found'); })).rejects.toThrow('No KPI data found');
    expect((await cache.answer('a', 'k', async () => computed({ n: 1 }))).n).toBe(1);
    let refuse!: (error: unknown) => void;
    const refused = cache.answer('a', 'r', () => new Promise((_resolve, reject) => { refuse = reject; }));
    const waiter = cache.answer('a', 'r', async () => computed({ n: 2 }));
    refuse(new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests at once. Try again in a moment.'));
    await expect(refused).rejects.toThrow('Too many requests');
    expect((await waiter).n).toBe(2);
  });

  it('holds at most MAX_POINTS points, the answer stored longest ago going first', async () => {
    const cache = kpiAnswerCache(points, () => 0);
    const quarter = MAX_POINTS / 4;
    for (let i = 0; i < 4; i++) await cache.answer('a', `k${i}`, async () => computed({ n: i, size: quarter }));
    await cache.answer('a', 'k4', async () => computed({ n: 4, size: quarter }));
    expect((await cache.answer('a', 'k0', async () => computed({ n: -1 }))).n).toBe(-1); // gone
    expect((await cache.answer('a', 'k4', async () => computed({ n: -1 }))).n).toBe(4);
    // one answer over a quarter of it is answered, not kept
    expect((await cache.answer('a', 'big', async () => computed({ n: 5, size: quarter + 1 }))).n).toBe(5);
    expect((await cache.answer('a', 'big', async () => computed({ n: 6 }))).n).toBe(6);
  });

  it('counts what an answer holds besides its points: many empty answers are bounded too', async () => {
    const cache = kpiAnswerCache(points, () => 0);
    const fitting = MAX_POINTS / ENTRY_POINTS;
    for (let i = 0; i <= fitting; i++) await cache.answer('a', `e${i}`, async () => computed({ n: i, size: 0 }));
    expect((await cache.answer('a', `e${fitting}`, async () => computed({ n: -1 }))).n).toBe(fitting);
    expect((await cache.answer('a', 'e0', async () => computed({ n: -1 }))).n).toBe(-1); // the first went
  });
});
