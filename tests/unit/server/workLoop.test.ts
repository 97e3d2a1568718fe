// The background engines' loop: runs at its interval, straight on while work is waiting, early
// when woken, backs off after failures, and its stop waits for the run under way.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWorkLoop } from '../../../server/workLoop.ts';

afterEach(() => vi.useRealTimers());

describe('startWorkLoop', () => {
  it('runs now and at its interval; straight on while a run says more is waiting', async () => {
    vi.useFakeTimers();
    const runs: number[] = [];
    let waiting = 0;
    const loop = startWorkLoop({ everyMs: 10_000, onError: () => {}, work: async () => { runs.push(Date.now()); return waiting-- > 0; } });
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(25_000);
    expect(runs.map((at) => at - start)).toEqual([0, 10_000, 20_000]);
    waiting = 3; // the next run finds three more batches behind it
    await vi.advanceTimersByTimeAsync(10_000);
    // the three batches follow at once (a timer of 0, to let the event loop breathe)
    expect(runs.map((at) => Math.round((at - start) / 1_000))).toEqual([0, 10, 20, 30, 30, 30, 30]);
    await loop.stop();
  });

  it('wake runs it early, and once more after a run that was under way', async () => {
    vi.useFakeTimers();
    let calls = 0;
    let release: () => void = () => {};
    const loop = startWorkLoop({ everyMs: 60_000, onError: () => {}, work: () => { calls += 1; return new Promise<void>((resolve) => { release = resolve; }); } });
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(1);
    loop.wake(); // during the first run: one more right after it
    loop.wake();
    release();
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2); // nothing until woken or the interval
    loop.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(3);
    release();
    await loop.stop();
  });

  it('backs off after failures, reports each, and stop waits for the run under way', async () => {
    vi.useFakeTimers();
    const failures: number[] = [];
    const loop = startWorkLoop({ everyMs: 60_000, retryFirstMs: 1_000, onError: () => failures.push(Date.now()), work: async () => { throw new Error('down'); } });
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(200_000);
    expect(failures.slice(0, 8).map((at) => at - start)).toEqual([0, 1_000, 3_000, 7_000, 15_000, 31_000, 63_000, 123_000]);

    let finished = false;
    const slow = startWorkLoop({ everyMs: 60_000, onError: () => {}, work: () => new Promise<void>((resolve) => setTimeout(() => { finished = true; resolve(); }, 5_000)) });
    await vi.advanceTimersByTimeAsync(1);
    const stopped = slow.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    await stopped;
    expect(finished).toBe(true);
    await loop.stop();
    const count = failures.length;
    await vi.advanceTimersByTimeAsync(600_000);
    expect(failures).toHaveLength(count);
  });
});
