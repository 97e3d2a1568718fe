// Calls gathered for a moment and answered together (server/ingest/gatheredCalls.ts): the token
// lookups and connection records of devices connecting by the thousand.
import { describe, expect, it } from 'vitest';
import { gatheredCalls } from '../../../server/ingest/gatheredCalls.ts';

describe('gathered calls', () => {
  it('answers calls made together in one run, each caller its own result', async () => {
    const runs: number[][] = [];
    const double = gatheredCalls(async (items: number[]) => {
      runs.push(items);
      return items.map((item) => item * 2);
    }, { waitMs: 5, max: 100 });
    expect(await Promise.all([1, 2, 3].map(double))).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('runs at most `max` at once, the rest next, and what arrives during a run in the run after it', async () => {
    const runs: number[][] = [];
    let late: Promise<number> | undefined;
    const same = gatheredCalls(async (items: number[]) => {
      runs.push(items);
      if (runs.length === 1) late = same(99);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return items;
    }, { waitMs: 1, max: 2 });
    expect(await Promise.all([1, 2, 3, 4, 5].map(same))).toEqual([1, 2, 3, 4, 5]);
    expect(await late).toBe(99);
    expect(runs).toEqual([[1, 2], [3, 4], [5, 99]]);
  });

  it('puts calls of the same key in different runs, in their order', async () => {
    const runs: string[][] = [];
    const record = gatheredCalls(async (items: { device: number; event: string }[]) => {
      runs.push(items.map((item) => `${item.device}:${item.event}`));
      return items.map(() => true);
    }, { waitMs: 1, max: 10, keyOf: (item) => item.device });
    await Promise.all([
      record({ device: 1, event: 'connect' }), record({ device: 2, event: 'connect' }),
      record({ device: 1, event: 'disconnect' }), record({ device: 1, event: 'connect' }),
    ]);
    expect(runs).toEqual([['1:connect', '2:connect'], ['1:disconnect'], ['1:connect']]);
  });

  it('a failed run fails its own callers only', async () => {
    const check = gatheredCalls(async (items: number[]) => {
      if (items.includes(0)) throw new Error('no zero');
      return items;
    }, { waitMs: 1, max: 1 });
    const results = await Promise.allSettled([check(0), check(1)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
  });
});
