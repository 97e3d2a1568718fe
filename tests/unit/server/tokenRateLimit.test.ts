import { describe, expect, it } from 'vitest';
import { requestRateLimiter } from '../../../server/auth/tokenRateLimit.ts';

describe('requestRateLimiter', () => {
  it('lets the limit through in a window, then says how long to wait; the next window starts afresh', () => {
    let now = 1_000;
    const limiter = requestRateLimiter({ requests: 3, windowMs: 60_000 }, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    now = 11_000;
    expect(limiter.take('a')).toBe(50_000);
    expect(limiter.take('b')).toBe(0); // another token has its own window
    now = 61_000;
    expect(limiter.take('a')).toBe(0);
  });
});
