// When a failed notification e-mail is tried again: 30 s after the first attempt, doubling, and
// given up after the fifth.
import { describe, expect, it } from 'vitest';
import { MAX_DELIVERY_ATTEMPTS, retryDelayMs } from '../../../server/engines/notifications/deliveryBackOff.ts';

describe('notification retry back-off', () => {
  it('waits 30 s, 1 min, 2 min, 4 min after the first four failed attempts', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
  });

  it('gives up after the fifth attempt', () => {
    expect(MAX_DELIVERY_ATTEMPTS).toBe(5);
    expect(retryDelayMs(5)).toBeUndefined();
    expect(retryDelayMs(6)).toBeUndefined();
  });
});
