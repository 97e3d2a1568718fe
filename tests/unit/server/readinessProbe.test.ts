import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEALTH_TIMEOUT_MS, readinessProbe } from '../../../server/api/healthRoutes.ts';

afterEach(() => { vi.useRealTimers(); });

describe('readinessProbe (GET /health)', () => {
  it('is ready when the database answers, not when it fails', async () => {
    expect(await readinessProbe(async () => 1)()).toBe(true);
    expect(await readinessProbe(() => Promise.reject(new Error('connection refused')))()).toBe(false);
  });

  it('is not ready when the database does not answer within the timeout', async () => {
    vi.useFakeTimers();
    const ready = readinessProbe(() => new Promise(() => undefined))();
    await vi.advanceTimersByTimeAsync(HEALTH_TIMEOUT_MS);
    expect(await ready).toBe(false);
  });

  it('asks the database once for callers at the same moment and within a second, then again', async () => {
    let clock = 0;
    const ping = vi.fn(async () => 1);
    const ready = readinessProbe(ping, () => clock);
    expect(await Promise.all(Array.from({ length: 50 }, () => ready()))).toEqual(Array(50).fill(true));
    clock = 999;
    await ready();
    expect(ping).toHaveBeenCalledTimes(1);
    clock = 1_000;
    await ready();
    expect(ping).toHaveBeenCalledTimes(2);
  });
});
